import APNs
import APNsClient

/// What `herald send` will send when not in bulk mode: the tokens, the headers and the payload,
/// read, linted and typed. Building it reads files but sends nothing.
struct SendPlan {
    var tokens: [DeviceToken]
    var topic: Topic?
    var pushType: PushType
    var priority: Priority?
    var expiration: Expiration?
    var collapseID: CollapseID?
    var apnsID: APNsID?
    var payload: EncodedPayload
    /// The lint report for the first token (the payload and headers are the same for all).
    var report: LintReport

    /// A problem that stops the send, already worded for the user.
    struct Problem: Error {
        let message: String
        let report: LintReport?
    }

    static func make(_ options: SendOptions, context: CommandContext) throws(Problem) -> SendPlan {
        let tokens = try readTokens(options, context: context)
        let payload = try readPayload(options, context: context)
        let report = Linter.lint(LintRequest(
            payload: payload.bytes, pushType: options.pushType, topic: options.topic, priority: options.priority,
            expiration: options.expiration, collapseID: options.collapseID, apnsID: options.apnsID,
            token: tokens.first?.hex, now: context.now()))
        if report.hasErrors && !options.force {
            throw Problem(message: "lint found errors; fix them or pass --force to send anyway", report: report)
        }
        do {
            return SendPlan(
                tokens: tokens, topic: try options.topic.map(Topic.init), pushType: report.pushType ?? .alert,
                priority: try options.priority.map(Priority.init(headerValue:)),
                expiration: try options.expiration.map(Expiration.init(headerValue:)),
                collapseID: try options.collapseID.map(CollapseID.init), apnsID: try options.apnsID.map(APNsID.init),
                payload: payload, report: report)
        } catch {
            throw Problem(message: "cannot send: \(error)", report: report)
        }
    }

    /// One notification per token.
    var notifications: [Notification] {
        tokens.map { token in
            Notification(
                token: token, topic: topic, pushType: pushType, priority: priority, expiration: expiration,
                collapseID: collapseID, apnsID: apnsID, payload: payload)
        }
    }

    private static func readTokens(_ options: SendOptions, context: CommandContext) throws(Problem) -> [DeviceToken] {
        var tokens: [DeviceToken] = []
        for text in options.tokens {
            do {
                tokens.append(try DeviceToken(hex: text))
            } catch {
                throw Problem(message: "--token: \(error.message.escapingInvisibleCharacters())", report: nil)
            }
        }
        if let file = options.tokensFile {
            let bytes: [UInt8]
            do {
                bytes = try context.read(file)
            } catch {
                throw Problem(message: "--tokens-file: \(error)", report: nil)
            }
            // Split on the byte, not the Character: "\r\n" is one Character, which a split on "\n"
            // does not see, so a CRLF file was one long line.
            let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() {
                let text = Substring(String(decoding: line, as: UTF8.self)).trimmingWhitespace()
                if text.isEmpty || text.hasPrefix("#") { continue }
                do {
                    tokens.append(try DeviceToken(hex: String(text)))
                } catch {
                    throw Problem(
                        message: "--tokens-file \(file), line \(number + 1): \(error.message.escapingInvisibleCharacters())",
                        report: nil)
                }
            }
            if tokens.isEmpty { throw Problem(message: "--tokens-file \(file) holds no tokens", report: nil) }
        }
        return tokens
    }

    static func readPayload(_ options: SendOptions, context: CommandContext) throws(Problem) -> EncodedPayload {
        switch options.payload {
        case .input(let path):
            let bytes: [UInt8]
            do {
                bytes = try context.read(path)
            } catch {
                throw Problem(message: "\(error)", report: nil)
            }
            return EncodedPayload(bytes: PayloadFile.compacted(bytes))
        case .quick(let title, let body, let badge, let sound):
            var aps = APS()
            if title != nil || body != nil {
                aps.alert = .content(AlertContent(title: title.map(AlertText.plain), body: body.map(AlertText.plain)))
            }
            aps.badge = badge
            aps.sound = sound.map(Sound.named)
            return Payload(aps: aps).encoded()
        case .requests:
            return EncodedPayload(bytes: [])
        }
    }
}

extension Substring {
    func trimmingWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        var text = self
        while let first = text.first, isSpace(first) { text = text.dropFirst() }
        while let last = text.last, isSpace(last) { text = text.dropLast() }
        return text
    }
}
