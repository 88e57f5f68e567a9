// Decodes one NDJSON request line into a notification, linted.
//
//   line -> NDJSONRequestScanner (the common shape, bytes only) --nil--> full JSON parse (words errors)
//        -> header texts (the line's own, else the decoder's defaults)
//        -> lint verdict for (payload, headers): cached, so a file of identical requests is linted once
//        -> refused (a lint error, unless lint errors are only reported) or typed into a Notification

import APNs

/// Decodes the lines of an NDJSON request stream: `{"token": "...", "payload": {...}}` with,
/// optionally, any header by its APNs name; absent headers take the decoder's defaults (the
/// command line's). Every line is linted like a single notification; the verdict is cached by
/// payload bytes and headers, so repeated requests cost a comparison.
///
/// Thread-safety: `decode` may be called from any thread; copies share one lint cache (behind a
/// lock). A bulk send decodes on one thread.
public struct NDJSONRequestDecoder: Sendable {
    /// Header defaults (the command line's).
    public var topic: String?
    public var pushType: String?
    public var priority: String?
    public var expiration: String?
    public var collapseID: String?
    /// Whether a lint error refuses the line (`herald send` without `--force`). When false, the
    /// errors are only in the verdict.
    public var refuseLintErrors: Bool
    /// The UNIX time the lint checks expirations against (nil: not checked).
    public var now: Int?
    /// Whether a notification without an apns-id gets a random one here (a bulk send: the
    /// sender would give it one anyway; on the decoding thread it costs the loop nothing).
    public var assignIDs = false
    /// Whether a line without a topic (no `apns-topic` of its own, no default) is refused: with
    /// token authentication APNs answers every such request 400 MissingTopic. A client
    /// certificate may imply the topic (a single-topic certificate's), so it stays optional there.
    public var requiresTopic = false
    /// The defaults checked ahead (`prepared()`); nil: checked at each line that takes them all.
    var checked: Result<Defaults, FieldError>? = nil
    /// Lint verdicts, the last payload and the last topic.
    let lintCache = RequestLintCache()

    public init(
        topic: String? = nil, pushType: String? = nil, priority: String? = nil, expiration: String? = nil,
        collapseID: String? = nil, refuseLintErrors: Bool = true, now: Int? = nil
    ) {
        self.topic = topic
        self.pushType = pushType
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.refuseLintErrors = refuseLintErrors
        self.now = now
    }

    static let missingTopic = "apns-topic: missing; token authentication needs the topic (the app's bundle id)"

    static let headerKeys: Set<String> = [
        "apns-topic", "apns-push-type", "apns-priority", "apns-expiration", "apns-collapse-id", "apns-id",
    ]

    /// A line that cannot become a notification, with its number (from 1) and why (invisible
    /// characters of the input escaped).
    public struct LineError: Error, Equatable, Sendable, CustomStringConvertible {
        public let line: Int
        public let message: String
        /// Refused for a lint error (the line itself could be sent).
        public let isLintError: Bool

        public init(line: Int, message: String, isLintError: Bool = false) {
            self.line = line
            self.message = message.escapingInvisibleCharacters()
            self.isLintError = isLintError
        }

        public var description: String { "line \(line): \(message)" }
    }

    /// A decoded line: the notification and the lint verdict for its payload and headers.
    public struct Decoded {
        public var notification: APNsNotification
        /// Shared by every line with the same payload and headers.
        public let lint: RequestLint
        /// This line is the first with that payload and those headers (report the findings once).
        public let lintIsNew: Bool
    }

    /// Decodes one line (without its newline).
    public func decode(_ line: [UInt8], number: Int) throws(LineError) -> Decoded {
        try line.withUnsafeBufferPointer { (bytes) throws(LineError) in try decode(bytes, number: number) }
    }

    /// `decode` over a line's bytes where they lie (the reader's buffer: no copy per line).
    public func decode(_ line: UnsafeBufferPointer<UInt8>, number: Int) throws(LineError) -> Decoded {
        let (notification, lint, lintIsNew) = try decodeParts(line, number: number)
        return Decoded(notification: notification, lint: lint, lintIsNew: lintIsNew)
    }

    /// A decoded line as a tuple: a caller that takes it apart moves the notification out (a
    /// stored property of a struct was copied, with a retain per string).
    typealias Parts = (notification: Notification, lint: RequestLint, lintIsNew: Bool)

    /// Lines in the common shape are read by a byte-level scan (`NDJSONRequestScanner`); the others
    /// are parsed fully, which also words the error for a bad line.
    func decodeParts(_ line: UnsafeBufferPointer<UInt8>, number: Int) throws(LineError) -> Parts {
        let (known, knownVerdict) = lintCache.state.withLock { ($0.lastPayload, $0.lastPayloadVerdict) }
        if var fields = NDJSONRequestScanner.scan(line, knownPayload: known) {
            // Moved out, not copied (a copy of the optional string went through its generic witness).
            guard let tokenText = fields.token.take() else {
                throw LineError(line: number, message: "\"token\" is missing or not a string")
            }
            guard let range = fields.payload else {
                throw LineError(line: number, message: "\"payload\" is missing or not an object")
            }
            let bytes = fields.payloadIsKnown ? known : newPayload(UnsafeBufferPointer(rebasing: line[range]))
            // The common line: every header from the defaults, checked once for all lines.
            if fields.headers.isEmpty, case .success(let defaults) = checked ?? checkedDefaults() {
                return try build(
                    number: number, tokenText: tokenText, payload: bytes, defaults: defaults,
                    knownVerdict: fields.payloadIsKnown ? knownVerdict : nil)
            }
            var texts = HeaderTexts(defaults: self)
            for (key, value) in fields.headers { texts.set(key, value) }
            return try build(number: number, tokenText: tokenText, payload: bytes, texts: texts)
        }
        return try decodeParsed(Array(line), number: number)
    }

    private func decodeParsed(_ line: [UInt8], number: Int) throws(LineError) -> Parts {
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

    /// The notification from a line's parts and header texts.
    private func build(
        number: Int, tokenText: String, payload: [UInt8], texts: HeaderTexts
    ) throws(LineError) -> Parts {
        if requiresTopic, texts.topic == nil { throw LineError(line: number, message: Self.missingTopic) }
        let (lint, isNew) = verdict(
            RequestLintKey(
                payload: payload, topic: texts.topic, pushType: texts.pushType, priority: texts.priority,
                expiration: texts.expiration, collapseID: texts.collapseID))
        if refuseLintErrors, let error = lint.firstError {
            throw LineError(line: number, message: lint.refusal(error), isLintError: true)
        }
        do {
            let body = EncodedPayload(bytes: payload)
            let pushType = try texts.pushType.map(PushType.init(headerValue:)) ?? lint.pushType
            var apnsID = try texts.apnsID.map(APNsID.init)
            if apnsID == nil, assignIDs { apnsID = APNsID.random() }
            let notification = Notification(
                token: try DeviceToken(hex: tokenText), topic: try texts.topic.map(topicValue),
                pushType: pushType, priority: try texts.priority.map(Priority.init(headerValue:)),
                expiration: try texts.expiration.map(Expiration.init(headerValue:)),
                collapseID: try texts.collapseID.map(CollapseID.init), apnsID: apnsID, payload: body)
            return (notification, lint, isNew)
        } catch {
            throw LineError(line: number, message: error.description)
        }
    }

    /// The notification of a line that gives only its token and payload. `knownVerdict`: the
    /// verdict for this payload (the last line's) with the default headers, if one was made.
    private func build(
        number: Int, tokenText: String, payload: [UInt8], defaults: Defaults, knownVerdict: RequestLint?
    ) throws(LineError) -> Parts {
        if requiresTopic, defaults.topic == nil { throw LineError(line: number, message: Self.missingTopic) }
        let lint: RequestLint
        let isNew: Bool
        if let knownVerdict {
            // The common file: one payload to many tokens, with the defaults: no key to build and compare.
            (lint, isNew) = (knownVerdict, false)
        } else {
            (lint, isNew) = verdict(
                RequestLintKey(
                    payload: payload, topic: topic, pushType: pushType, priority: priority, expiration: expiration,
                    collapseID: collapseID))
            lintCache.state.withLock { $0.lastPayloadVerdict = lint }
        }
        if refuseLintErrors, let error = lint.firstError {
            throw LineError(line: number, message: lint.refusal(error), isLintError: true)
        }
        let token: DeviceToken
        do {
            token = try DeviceToken(hex: tokenText)
        } catch {
            throw LineError(line: number, message: error.description)
        }
        let notification = Notification(
            token: token, topic: defaults.topic, pushType: defaults.pushType ?? lint.pushType,
            priority: defaults.priority, expiration: defaults.expiration, collapseID: defaults.collapseID,
            apnsID: assignIDs ? APNsID.random() : nil, payload: EncodedPayload(bytes: payload))
        return (notification, lint, isNew)
    }

    /// The topic for `text`: the last one made when the text is the same, so lines that name the
    /// same topic share one checked value instead of each checking and holding its own.
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
        lintCache.state.withLock { state in
            state.lastPayload = payload
            state.lastPayloadVerdict = nil
        }
        return payload
    }

    /// The lint verdict for a payload and its headers, and whether it was made just now.
    private func verdict(_ key: RequestLintKey) -> (RequestLint, isNew: Bool) {
        if let known = lintCache.verdict(for: key) { return (known, false) }
        let report = Linter.lint(
            LintRequest(
                payload: key.payload, pushType: key.pushType, topic: key.topic, priority: key.priority,
                expiration: key.expiration, collapseID: key.collapseID, now: now))
        let made = RequestLint(report)
        lintCache.remember(made, for: key)
        return (made, true)
    }
}
