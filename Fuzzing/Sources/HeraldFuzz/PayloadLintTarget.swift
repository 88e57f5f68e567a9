@testable import APNs

/// Payload decoding and the linter, over a payload with optional headers (RequestText:
/// `apns-push-type`, `apns-topic`, `apns-priority`, `apns-expiration`, `apns-collapse-id`, `apns-id`,
/// `token`, `destination`).
enum PayloadLintTarget {
    static func lintRequest(_ text: RequestText) -> LintRequest {
        LintRequest(
            payload: text.body, pushType: text.value("apns-push-type"), topic: text.value("apns-topic"),
            priority: text.value("apns-priority"), expiration: text.value("apns-expiration"),
            collapseID: text.value("apns-collapse-id"), apnsID: text.value("apns-id"), token: text.value("token"),
            destination: text.value("destination").flatMap(LintRequest.Destination.init(rawValue:)) ?? .device,
            now: 1_800_000_000)
    }

    /// Never a crash; every finding has a path and a message; a payload that decodes encodes to JSON
    /// that decodes to the same payload.
    static func run(_ input: UnsafeBufferPointer<UInt8>) {
        let text = RequestText(input)
        let report = Linter.lint(lintRequest(text))
        for finding in report.findings {
            require(!finding.path.isEmpty, "finding without a path: \(finding)")
            require(!finding.message.isEmpty, "finding without a message: \(finding)")
        }
        require(report.payloadSize == text.body.count, "payloadSize \(report.payloadSize) for \(text.body.count) bytes")
        if let payload = try? Payload(bytes: text.body) {
            let again = try? Payload(bytes: payload.encoded().bytes)
            require(
                again == payload,
                "payload does not round-trip: \(String(decoding: payload.encoded().bytes, as: UTF8.self))")
        }
    }

    /// The typed Payload and the linter read the same bytes alike: the JSON is refused by both or by
    /// neither, and a field Payload refuses is an error finding of the linter at that field (or
    /// inside it).
    static func runDifferential(_ input: UnsafeBufferPointer<UInt8>) {
        let text = RequestText(input)
        let report = Linter.lint(lintRequest(text))
        let errors = report.findings.filter { $0.severity == .error }
        let jsonRules: Set<LintRule> = [.payloadEmpty, .payloadJSON]
        let lintRefusesJSON = errors.contains { jsonRules.contains($0.rule) }
        switch Result(catching: { () throws(PayloadError) in try Payload(bytes: text.body) }) {
        case .success:
            require(!lintRefusesJSON, "Payload decodes what the linter calls invalid JSON: \(report.findings)")
        case .failure(.invalidJSON(let error)):
            require(lintRefusesJSON, "Payload: invalid JSON (\(error)), linter: \(report.findings)")
        case .failure(.invalidField(let error)):
            let field = error.field
            let matched = errors.contains {
                $0.path == field || $0.path.hasPrefix(field + ".") || $0.path.hasPrefix(field + "[")
                    || field.hasPrefix($0.path + ".") || field.hasPrefix($0.path + "[")
            }
            require(matched, "Payload refuses \(error), linter: \(report.findings)")
        }
    }
}
