import APNs
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One line of a bulk NDJSON request stream: `{"token": "...", "payload": {...}}` with, optionally,
/// any header by its APNs name; absent headers take the command line's defaults.
struct BulkRequestDecoder {
    /// Header defaults from the command line.
    var topic: String?
    var pushType: String?
    var priority: String?
    var expiration: String?
    var collapseID: String?
    /// Push types inferred so far (see `inferredPushType`).
    let lintCache = LintCache()

    static let headerKeys: Set<String> = [
        "apns-topic", "apns-push-type", "apns-priority", "apns-expiration", "apns-collapse-id", "apns-id",
    ]

    /// A line that cannot become a notification, with its number (from 1) and why.
    struct LineError: Error, Equatable, CustomStringConvertible {
        let line: Int
        let message: String
        var description: String { "line \(line): \(message)" }
    }

    /// Decodes one line (without its newline) into a notification. Lines in the common shape are
    /// read by a byte-level scan (`BulkLineScanner`); the others are parsed fully, which also
    /// words the error for a bad line. The push type, when neither the line nor the command line
    /// gives one, is the linter's inference, cached by payload bytes and topic.
    func decode(_ line: [UInt8], number: Int) throws(LineError) -> Notification {
        if let fields = BulkLineScanner.scan(line) {
            guard let tokenText = fields.token else {
                throw LineError(line: number, message: "\"token\" is missing or not a string")
            }
            guard let payload = fields.payload else {
                throw LineError(line: number, message: "\"payload\" is missing or not an object")
            }
            return try build(
                number: number, tokenText: tokenText, payload: sharedPayload(payload)
            ) { name, fallback in fields.header(name) ?? fallback }
        }
        return try decodeParsed(line, number: number)
    }

    private func decodeParsed(_ line: [UInt8], number: Int) throws(LineError) -> Notification {
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
        guard let tokenText = object["token"]?.stringValue else {
            throw LineError(line: number, message: "\"token\" is missing or not a string")
        }
        guard let payload = object["payload"], payload.objectValue != nil else {
            throw LineError(line: number, message: "\"payload\" is missing or not an object")
        }
        for key in Self.headerKeys {
            guard let value = object[key], value.stringValue == nil else { continue }
            if let number = value.numberValue, number.isInteger { continue }
            throw LineError(line: number, message: "\(key) must be a string, not \(value.kindDescription)")
        }
        return try build(number: number, tokenText: tokenText, payload: payload.encoded()) { name, fallback in
            guard let value = object[name] else { return fallback }
            return value.stringValue ?? value.numberValue?.text
        }
    }

    /// The notification from a line's parts; `header(name, fallback)` is the line's value for a
    /// header, else the fallback (the command line's).
    private func build(
        number: Int, tokenText: String, payload: [UInt8], header: (String, String?) -> String?
    ) throws(LineError) -> Notification {
        do {
            let topicText = header("apns-topic", topic)
            let body = EncodedPayload(bytes: payload)
            let inferred: PushType
            if let pushTypeText = header("apns-push-type", pushType) {
                inferred = try PushType(headerValue: pushTypeText)
            } else {
                inferred = inferredPushType(body, topic: topicText)
            }
            return Notification(
                token: try DeviceToken(hex: tokenText), topic: try topicText.map(Topic.init),
                pushType: inferred, priority: try header("apns-priority", priority).map(Priority.init(headerValue:)),
                expiration: try header("apns-expiration", expiration).map(Expiration.init(headerValue:)),
                collapseID: try header("apns-collapse-id", collapseID).map(CollapseID.init),
                apnsID: try header("apns-id", nil).map(APNsID.init), payload: body)
        } catch {
            throw LineError(line: number, message: error.description)
        }
    }

    /// The payload's bytes as an array: the previous line's array when the bytes are the same
    /// (bulk files often send one payload to many tokens), so identical payloads share one buffer
    /// instead of an allocation each, made on the decoding thread and freed on the sending loop's.
    private func sharedPayload(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        lintCache.state.withLock { state in
            let same = state.lastPayload.withUnsafeBytes { last in
                bytes.withUnsafeBytes { line in
                    guard last.count == line.count, let a = last.baseAddress, let b = line.baseAddress else {
                        return false
                    }
                    return memcmp(a, b, line.count) == 0
                }
            }
            if same { return state.lastPayload }
            state.lastPayload = Array(bytes)
            return state.lastPayload
        }
    }

    /// The push type the linter infers for a payload (alert when it cannot tell), remembered by
    /// the exact payload bytes and topic: a file of identical requests is linted once.
    private func inferredPushType(_ payload: EncodedPayload, topic: String?) -> PushType {
        let key = LintCacheKey(payload: payload.bytes, topic: topic)
        let known = lintCache.state.withLock { state -> PushType? in
            // The last verdict first: comparing the bytes is cheaper than hashing them, and
            // bulk files often repeat one payload.
            if let last = state.last, last.key == key { return last.pushType }
            guard let known = state.pushTypes[key] else { return nil }
            state.last = (key, known)
            return known
        }
        if let known { return known }
        let inferred = Linter.lint(LintRequest(payload: payload.bytes, topic: topic)).pushType ?? .alert
        lintCache.state.withLock { state in
            if state.pushTypes.count >= LintCache.capacity { state.pushTypes.removeAll(keepingCapacity: true) }
            state.pushTypes[key] = inferred
            state.last = (key, inferred)
        }
        return inferred
    }
}

/// What the inference depends on. Hashes the payload as one block of bytes (not byte by byte).
struct LintCacheKey: Hashable {
    let payload: [UInt8]
    let topic: String?

    func hash(into hasher: inout Hasher) {
        payload.withUnsafeBytes { hasher.combine(bytes: $0) }
        hasher.combine(topic)
    }
}

/// Lint verdicts by exact input, and the last payload read, shared by copies of a decoder.
final class LintCache: Sendable {
    struct State {
        var pushTypes: [LintCacheKey: PushType] = [:]
        /// The verdict last found or made.
        var last: (key: LintCacheKey, pushType: PushType)?
        /// The payload of the last line read by the scan (`sharedPayload`).
        var lastPayload: [UInt8] = []
    }

    static let capacity = 1024
    let state = Mutex(State())
}
