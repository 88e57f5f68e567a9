import APNs
import Synchronization

/// One line of a bulk NDJSON request stream: `{"token": "...", "payload": {...}}` with, optionally,
/// any header by its APNs name; absent headers take the command line's defaults.
struct BulkRequestDecoder {
    /// Header defaults from the command line.
    var topic: String?
    var pushType: String?
    var priority: String?
    var expiration: String?
    var collapseID: String?
    /// Whether a notification without an apns-id gets a random one here (a bulk send: the
    /// sender would give it one anyway; on the decoding thread it costs the loop nothing).
    var assignIDs = false
    /// The command line's headers checked ahead (`prepared()`); nil: checked at each line that takes them all.
    var checked: Result<Defaults, FieldError>? = nil
    /// Push types inferred so far (see `inferredPushType`), the last payload and topic.
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
        try line.withUnsafeBufferPointer { (bytes) throws(LineError) in try decode(bytes, number: number) }
    }

    /// `decode` over a line's bytes where they lie (the reader's buffer: no copy per line).
    func decode(_ line: UnsafeBufferPointer<UInt8>, number: Int) throws(LineError) -> Notification {
        let known = lintCache.state.withLock { $0.lastPayload }
        if var fields = BulkLineScanner.scan(line, knownPayload: known) {
            // Moved out, not copied (a copy of the optional string went through its generic witness).
            guard let tokenText = fields.token.take() else {
                throw LineError(line: number, message: "\"token\" is missing or not a string")
            }
            guard let range = fields.payload else {
                throw LineError(line: number, message: "\"payload\" is missing or not an object")
            }
            let bytes = fields.payloadIsKnown ? known : newPayload(UnsafeBufferPointer(rebasing: line[range]))
            // The common line: every header from the command line, checked once for all lines.
            if fields.headers.isEmpty, case .success(let defaults) = checked ?? checkedDefaults() {
                return try build(number: number, tokenText: tokenText, payload: bytes, defaults: defaults)
            }
            var texts = HeaderTexts(defaults: self)
            for (key, value) in fields.headers { texts.set(key, value) }
            return try build(number: number, tokenText: tokenText, payload: bytes, texts: texts)
        }
        return try decodeParsed(Array(line), number: number)
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
        var texts = HeaderTexts(defaults: self)
        for key in Self.headerKeys {
            guard let value = object[key] else { continue }
            texts.set(key, value.stringValue ?? value.numberValue?.text)
        }
        return try build(number: number, tokenText: tokenText, payload: payload.encoded(), texts: texts)
    }

    /// A line's header values as text: the line's own, else the command line's.
    struct HeaderTexts {
        var topic: String?
        var pushType: String?
        var priority: String?
        var expiration: String?
        var collapseID: String?
        var apnsID: String?

        init(defaults decoder: BulkRequestDecoder) {
            topic = decoder.topic
            pushType = decoder.pushType
            priority = decoder.priority
            expiration = decoder.expiration
            collapseID = decoder.collapseID
        }

        /// Sets the header named `key` (one of `headerKeys`; any other name is ignored).
        mutating func set(_ key: String, _ value: String?) {
            switch key {
            case "apns-topic": topic = value
            case "apns-push-type": pushType = value
            case "apns-priority": priority = value
            case "apns-expiration": expiration = value
            case "apns-collapse-id": collapseID = value
            case "apns-id": apnsID = value
            default: break
            }
        }
    }

    /// The notification from a line's parts and header texts.
    private func build(
        number: Int, tokenText: String, payload: [UInt8], texts: HeaderTexts
    ) throws(LineError) -> Notification {
        do {
            let body = EncodedPayload(bytes: payload)
            let inferred: PushType
            if let pushTypeText = texts.pushType {
                inferred = try PushType(headerValue: pushTypeText)
            } else {
                inferred = inferredPushType(body, topic: texts.topic)
            }
            var apnsID = try texts.apnsID.map(APNsID.init)
            if apnsID == nil, assignIDs { apnsID = APNsID.random() }
            return Notification(
                token: try DeviceToken(hex: tokenText), topic: try texts.topic.map(topicValue),
                pushType: inferred, priority: try texts.priority.map(Priority.init(headerValue:)),
                expiration: try texts.expiration.map(Expiration.init(headerValue:)),
                collapseID: try texts.collapseID.map(CollapseID.init), apnsID: apnsID, payload: body)
        } catch {
            throw LineError(line: number, message: error.description)
        }
    }

    /// The command line's header values, checked.
    struct Defaults {
        var topic: Topic?
        var pushType: PushType?
        var priority: Priority?
        var expiration: Expiration?
        var collapseID: CollapseID?
    }

    /// This decoder with the command line's headers checked ahead, for a thread that decodes many
    /// lines (the same results, not checked again per line).
    func prepared() -> BulkRequestDecoder {
        var decoder = self
        decoder.checked = checkedDefaults()
        return decoder
    }

    /// The command line's header values, checked (once, by `prepared()`, for a decoding thread); a
    /// failure leaves every line to `build(texts:)`, which words the error as for any line.
    private func checkedDefaults() -> Result<Defaults, FieldError> {
        Result { () throws(FieldError) in
            Defaults(
                topic: try topic.map(Topic.init), pushType: try pushType.map(PushType.init(headerValue:)),
                priority: try priority.map(Priority.init(headerValue:)),
                expiration: try expiration.map(Expiration.init(headerValue:)),
                collapseID: try collapseID.map(CollapseID.init))
        }
    }

    /// The notification of a line that gives only its token and payload.
    private func build(
        number: Int, tokenText: String, payload: [UInt8], defaults: Defaults
    ) throws(LineError) -> Notification {
        let body = EncodedPayload(bytes: payload)
        let token: DeviceToken
        do {
            token = try DeviceToken(hex: tokenText)
        } catch {
            throw LineError(line: number, message: error.description)
        }
        return Notification(
            token: token, topic: defaults.topic,
            pushType: defaults.pushType ?? inferredPushType(body, topic: defaults.topic?.value),
            priority: defaults.priority, expiration: defaults.expiration, collapseID: defaults.collapseID,
            apnsID: assignIDs ? APNsID.random() : nil, payload: body)
    }

    /// The topic for `text`: the last one made when the text is the same (checking a topic's
    /// characters cost more than the rest of a line's headers together).
    private func topicValue(_ text: String) throws(FieldError) -> Topic {
        // Bytes, not String equality: "com.\u{212A}app" (a Kelvin sign) equals "com.Kapp" as a String,
        // and must not be taken for it.
        if let last = lintCache.state.withLock({ $0.lastTopic }), last.value.utf8.elementsEqual(text.utf8) {
            return last
        }
        let topic = try Topic(text)
        lintCache.state.withLock { $0.lastTopic = topic }
        return topic
    }

    /// A payload other than the last line's, as an array, remembered as the last: lines after
    /// it with the same bytes share this array (bulk files often send one payload to many
    /// tokens) instead of an allocation each, made on the decoding thread and freed on the
    /// sending loop's, and the scan does not validate those bytes again.
    private func newPayload(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let payload = Array(bytes)
        lintCache.state.withLock { $0.lastPayload = payload }
        return payload
    }

    /// The push type the linter infers for a payload (alert when it cannot tell), remembered by
    /// the exact payload bytes and topic: a file of identical requests is linted once.
    private func inferredPushType(_ payload: EncodedPayload, topic: String?) -> PushType {
        let key = LintCacheKey(payload: payload.bytes, topic: topic)
        let known = lintCache.state.withLock { state -> PushType? in
            // The last verdict first: comparing the bytes is cheaper than hashing them, and
            // bulk files often repeat one payload.
            // Compared in place: copying the last verdict out retained and released its key.
            if state.lastKey == key { return state.lastPushType }
            guard let known = state.pushTypes[key] else { return nil }
            state.lastKey = key
            state.lastPushType = known
            return known
        }
        if let known { return known }
        let inferred = Linter.lint(LintRequest(payload: payload.bytes, topic: topic)).pushType ?? .alert
        lintCache.state.withLock { state in
            if state.pushTypes.count >= LintCache.capacity { state.pushTypes.removeAll(keepingCapacity: true) }
            state.pushTypes[key] = inferred
            state.lastKey = key
            state.lastPushType = inferred
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
        /// The verdict last found or made, and what it was for.
        var lastKey: LintCacheKey?
        var lastPushType: PushType?
        /// The topic of the last line (`topicValue`).
        var lastTopic: Topic?
        /// The payload of the last line read by the scan (`newPayload`).
        var lastPayload: [UInt8] = []
    }

    static let capacity = 1024
    let state = Mutex(State())
}
