import APNs

/// One line of a bulk NDJSON request stream: `{"token": "...", "payload": {...}}` with, optionally,
/// any header by its APNs name; absent headers take the command line's defaults.
struct BulkRequestDecoder {
    /// Header defaults from the command line.
    var topic: String?
    var pushType: String?
    var priority: String?
    var expiration: String?
    var collapseID: String?

    static let headerKeys: Set<String> = [
        "apns-topic", "apns-push-type", "apns-priority", "apns-expiration", "apns-collapse-id", "apns-id",
    ]

    /// A line that cannot become a notification, with its number (from 1) and why.
    struct LineError: Error, Equatable, CustomStringConvertible {
        let line: Int
        let message: String
        var description: String { "line \(line): \(message)" }
    }

    /// Decodes one line (without its newline) into a notification, checked with the linter's
    /// APNs-rejection rules (errors only; warnings are the caller's to count).
    func decode(_ line: some Collection<UInt8>, number: Int) throws(LineError) -> Notification {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: line)
        } catch {
            throw LineError(line: number, message: error.description)
        }
        guard let object = value.objectValue else {
            throw LineError(line: number, message: "a request is a JSON object, not \(value.kindDescription)")
        }
        for key in object.keys where key != "token" && key != "payload" && !Self.headerKeys.contains(key) {
            throw LineError(line: number, message: "unknown key '\(key)'; use token, payload and apns-* header names")
        }
        func header(_ name: String, _ fallback: String?) throws(LineError) -> String? {
            guard let value = object[name] else { return fallback }
            if let text = value.stringValue { return text }
            if let number = value.numberValue, number.isInteger { return number.text }
            throw LineError(line: number, message: "\(name) must be a string, not \(value.kindDescription)")
        }
        guard let tokenText = object["token"]?.stringValue else {
            throw LineError(line: number, message: "\"token\" is missing or not a string")
        }
        guard let payload = object["payload"], payload.objectValue != nil else {
            throw LineError(line: number, message: "\"payload\" is missing or not an object")
        }
        do {
            let pushTypeText = try header("apns-push-type", pushType)
            let body = EncodedPayload(bytes: payload.encoded())
            let inferred: PushType
            if let pushTypeText {
                inferred = try PushType(headerValue: pushTypeText)
            } else {
                inferred = Linter.lint(LintRequest(payload: body.bytes, topic: try header("apns-topic", topic))).pushType ?? .alert
            }
            return Notification(
                token: try DeviceToken(hex: tokenText), topic: try header("apns-topic", topic).map(Topic.init),
                pushType: inferred, priority: try header("apns-priority", priority).map(Priority.init(headerValue:)),
                expiration: try header("apns-expiration", expiration).map(Expiration.init(headerValue:)),
                collapseID: try header("apns-collapse-id", collapseID).map(CollapseID.init),
                apnsID: try header("apns-id", nil).map(APNsID.init), payload: body)
        } catch let error as FieldError {
            throw LineError(line: number, message: error.description)
        } catch let error as LineError {
            throw error
        } catch {
            throw LineError(line: number, message: "\(error)")
        }
    }
}
