// The header phase of DevicePushValidator over raw header bytes, for the emulator's hot path: the
// same checks in the same order with the same reasons, but no dictionary, no `String` per header
// and no typed header value made only to be thrown away. Names are compared in ASCII lowercase, the
// known headers' first values are kept as field indices.
//
// Where the String-based phase applies Unicode rules, bytes and Strings can disagree: a non-ASCII
// header name (names are lowercased and compared as Strings, with canonical equivalence), a
// non-ASCII path (`hasPrefix` compares grapheme clusters, and a combining mark after "/3/device/"
// joins the slash), a collapse id that is not UTF-8 (counted after repair). Those answer
// `.unsupported`, and the caller runs `validateHeaders`. Everything else the two phases answer
// alike; DevicePushScanTests checks that on every validator test case and on random mutations.

#if canImport(Glibc)
    import Glibc
#endif

extension DevicePushValidator {
    /// ``scanHeaders(_:method:path:policy:)`` for the concrete table an HTTP/2 server keeps (the
    /// generic body specialized for it, here in the module).
    package static func scanHeaders(
        _ fields: RawHeaderTable, method: UnsafeBufferPointer<UInt8>, path: UnsafeBufferPointer<UInt8>,
        policy: DevicePushPolicy
    ) -> DevicePushHeaderScan {
        scanFields(fields, method: method, path: path, policy: policy)
    }

    /// The header phase over bytes: `.accepted`/`.rejected` exactly as
    /// ``validateHeaders(_:policy:)`` answers the same request (a generated `apns-id` aside),
    /// or `.unsupported` when only the String-based phase can tell.
    package static func scanHeaders(
        _ fields: some RawHeaderFields, method: UnsafeBufferPointer<UInt8>, path: UnsafeBufferPointer<UInt8>,
        policy: DevicePushPolicy
    ) -> DevicePushHeaderScan {
        scanFields(fields, method: method, path: path, policy: policy)
    }

    private static func scanFields<Fields: RawHeaderFields>(
        _ fields: Fields, method: UnsafeBufferPointer<UInt8>, path: UnsafeBufferPointer<UInt8>,
        policy: DevicePushPolicy
    ) -> DevicePushHeaderScan {
        // One pass over the path: ASCII, and past the prefix whether it holds a '/' and only hex digits.
        let tokenOffset = ScannedPushHeaders.tokenOffset
        var tokenHasSlash = false
        var tokenIsHex = true
        for position in 0..<min(tokenOffset, path.count) where path[position] >= 0x80 {
            return .unsupported
        }
        if path.count > tokenOffset, let base = path.baseAddress {
            // Eight hex digits at a time (a token is 64 or 160 of them), then byte by byte from the
            // first word that is not all hex digits.
            var start = tokenOffset
            while start + 8 <= path.count, areHexDigits(UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self)) {
                start += 8
            }
            for position in start..<path.count {
                let byte = path[position]
                // A hex digit is ASCII and no slash: the common case asks one question.
                if isHexDigit(byte) { continue }
                guard byte < 0x80 else { return .unsupported }
                tokenIsHex = false
                if byte == UInt8(ascii: "/") { tokenHasSlash = true }
            }
        }
        var known = KnownFields()
        var repeated = false
        var apnsIDRepeated = false
        // Each name is asked for once (the first 16 are kept here): comparing every pair through
        // the protocol would cost more than the rest of the header phase.
        var names = InlineArray<16, UnsafeBufferPointer<UInt8>>(repeating: UnsafeBufferPointer(start: nil, count: 0))
        // Name lengths seen so far (modulo 64): only a name whose length came before can repeat one.
        var lengthsSeen: UInt64 = 0
        for index in 0..<fields.fieldCount {
            let name = fields.name(at: index)
            if index < 16 { names[index] = name }
            guard isASCII(name) else { return .unsupported }
            let lengthBit: UInt64 = 1 << UInt64(name.count & 63)
            let sameLengthBefore = lengthsSeen & lengthBit != 0
            lengthsSeen |= lengthBit
            var seen = false
            for earlier in 0..<(sameLengthBefore ? index : 0) {
                let other = earlier < 16 ? names[earlier] : fields.name(at: earlier)
                if other.count == name.count, equalIgnoringASCIICase(name, other) {
                    seen = true
                    break
                }
            }
            let kind = KnownField.of(name)
            if seen {
                repeated = true
                if kind == .apnsID { apnsIDRepeated = true }
            } else if let kind {
                known[kind] = index
            }
        }

        var requestID: Int?
        var apnsIDMalformed = false
        if let index = known[.apnsID], !apnsIDRepeated {
            if isUUID(fields.value(at: index)) { requestID = index } else { apnsIDMalformed = true }
        }
        func reject(_ reason: Reason) -> DevicePushHeaderScan {
            let id = requestID.map { String(decoding: fields.value(at: $0), as: UTF8.self).lowercased() }
            return .rejected(rejection(reason, apnsID: id ?? APNsID.random().value))
        }

        if repeated { return reject(.duplicateHeaders) }
        if apnsIDMalformed { return reject(.badMessageId) }
        guard matches(method, "POST") else { return reject(.methodNotAllowed) }

        if matches(path, "/3/device") || matches(path, "/3/device/") {
            return reject(.missingDeviceToken)
        }
        guard path.count >= tokenOffset, matches(UnsafeBufferPointer(rebasing: path[..<tokenOffset]), "/3/device/")
        else {
            return reject(.badPath)
        }
        guard !tokenHasSlash else { return reject(.badPath) }
        let tokenCount = path.count - tokenOffset

        let topicField = known[.topic].flatMap { fields.value(at: $0).isEmpty ? nil : $0 }
        if topicField == nil, policy.defaultTopic == nil, policy.topicRequired { return reject(.missingTopic) }

        if let collapseID = known[.collapseID].map({ fields.value(at: $0) }) {
            if !collapseID.allSatisfy({ $0 < 0x80 }), !JSONScanner.isValidUTF8(collapseID) { return .unsupported }
            guard (1...CollapseID.maximumBytes).contains(collapseID.count) else { return reject(.badCollapseId) }
        }

        var priority = Priority.immediate
        if let text = known[.priority].map({ fields.value(at: $0) }) {
            if matches(text, "10") {
                priority = .immediate
            } else if matches(text, "5") {
                priority = .powerConsiderate
            } else if matches(text, "1") {
                priority = .low
            } else {
                return reject(.badPriority)
            }
        }

        var pushType = PushType.alert
        if let text = known[.pushType].map({ fields.value(at: $0) }) {
            guard let parsed = Self.pushType(named: text) else {
                return reject(.invalidPushType)
            }
            pushType = parsed
        }

        var expiration: Expiration?
        if let text = known[.expiration].map({ fields.value(at: $0) }) {
            guard let seconds = decimal(text) else { return reject(.badExpirationDate) }
            expiration = seconds == 0 ? .immediately : .at(unixSeconds: seconds)
        }

        guard tokenCount % 2 == 0, tokenIsHex else {
            return reject(.badDeviceToken)
        }

        var defaultTopic: Topic?
        if let topicField {
            let topic = fields.value(at: topicField)
            guard topic.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return reject(.badTopic) }
            let bundleIDCount = topic.count - suffixCount(topic)
            if let required = pushType.topicSuffix,
                !equal(UnsafeBufferPointer(rebasing: topic[bundleIDCount...]), required)
            {
                return reject(.badTopic)
            }
            if let allowed = policy.allowedBundleIDs {
                let bundleID = UnsafeBufferPointer(rebasing: topic[..<bundleIDCount])
                let covered = allowed.contains { equal(bundleID, $0) || equal(topic, $0) }
                if !covered { return reject(.topicDisallowed) }
            }
        } else {
            do {
                defaultTopic = try resolveTopic(header: nil, pushType: pushType, policy: policy) { reason in
                    rejection(reason, apnsID: "")
                }
            } catch {
                return reject(error.reason)
            }
            if let allowed = policy.allowedBundleIDs, let topic = defaultTopic,
                !allowed.contains(topic.bundleID), !allowed.contains(topic.value)
            {
                return reject(.topicDisallowed)
            }
        }

        if pushType == .background, priority == .immediate, policy.backgroundPriority10IsRejected {
            return reject(.badPriority)
        }
        if pushType == .liveactivity, priority == .low, policy.liveActivityPriority1IsRejected {
            return reject(.badPriority)
        }
        return .accepted(
            ScannedPushHeaders(
                pushType: pushType, priority: priority, expiration: expiration, apnsIDField: requestID,
                topicField: topicField, defaultTopic: defaultTopic, collapseIDField: known[.collapseID],
                authorizationField: known[.authorization]))
    }

    /// The length of the known push-type suffix `topic` ends in (0 for none), as `Topic.bundleID`
    /// strips it: longest first, never the whole topic.
    private static func suffixCount(_ topic: UnsafeBufferPointer<UInt8>) -> Int {
        for suffix in suffixBytes {
            let count = suffix.count
            // Every suffix starts with a dot: one byte settles most of them without a comparison.
            if topic.count > count, topic[topic.count - count] == UInt8(ascii: "."),
                suffix.withUnsafeBufferPointer({
                    equal(UnsafeBufferPointer(rebasing: topic[(topic.count - count)...]), $0)
                })
            {
                return count
            }
        }
        return 0
    }

    /// Decimal digits that fit an `Int`, as `Expiration(headerValue:)` accepts them.
    private static func decimal(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !text.isEmpty else { return nil }
        var value = 0
        for byte in text {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            if overflow1 || overflow2 { return nil }
            value = sum
        }
        return value
    }

    /// A UUID in 8-4-4-4-12 hex digits, either case, as `APNsID` accepts it.
    static func isUUID(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.count == 36 else { return false }
        for (position, byte) in text.enumerated() {
            let isDash = position == 8 || position == 13 || position == 18 || position == 23
            guard isDash ? byte == UInt8(ascii: "-") : Hex.value(of: byte) != nil else { return false }
        }
        return true
    }

    /// Push types by their header value, as bytes.
    private static let pushTypeNames = PushType.allCases.map { (name: Array($0.rawValue.utf8), type: $0) }

    /// The push type `text` names exactly.
    private static func pushType(named text: UnsafeBufferPointer<UInt8>) -> PushType? {
        for entry in pushTypeNames where entry.name.count == text.count {
            if entry.name.withUnsafeBufferPointer({ equal(text, $0) }) { return entry.type }
        }
        return nil
    }

    /// Push-type suffixes as bytes, longest first (as `PushType.knownSuffixes`).
    private static let suffixBytes = PushType.knownSuffixes.map { Array($0.utf8) }

    /// Whether `bytes` are exactly `text`.
    @inline(__always)
    static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        bytes.count == text.utf8CodeUnitCount
            && equal(bytes, UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Whether `bytes` are the UTF-8 of `text`.
    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: String) -> Bool {
        let utf8 = text.utf8
        guard bytes.count == utf8.count else { return false }
        return utf8.withContiguousStorageIfAvailable { equal(bytes, $0) } ?? bytes.elementsEqual(utf8)
    }

    static func equal(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        guard left.count == right.count else { return false }
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return left.isEmpty }
        return memcmp(leftBase, rightBase, left.count) == 0
    }

    /// `0-9`, `a-f` or `A-F`, as `Hex.value(of:)` accepts them.
    static func isHexDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10 || (byte | 0x20) &- UInt8(ascii: "a") < 6
    }

    /// No byte of `bytes` has its high bit set: eight at a time, the last word overlapping.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let highs: UInt64 = 0x8080_8080_8080_8080
        guard bytes.count >= 8, let base = bytes.baseAddress else { return bytes.allSatisfy { $0 < 0x80 } }
        var position = 0
        while position + 8 <= bytes.count {
            guard UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self) & highs == 0 else { return false }
            position += 8
        }
        return UnsafeRawPointer(base + bytes.count - 8).loadUnaligned(as: UInt64.self) & highs == 0
    }

    /// Whether all eight bytes of `word` are hex digits, as ``isHexDigit(_:)`` says of each: ASCII
    /// (no high bit), then within '0'...'9', or in lowercase within 'a'...'f' (only 'A'...'F' and
    /// 'a'...'f' lowercase into it). Adding 0x80 - bound to a byte below 0x80 sets its high bit
    /// exactly when the byte is at least the bound, with no carry into the next byte.
    @inline(__always)
    static func areHexDigits(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        guard word & highs == 0 else { return false }
        func atLeast(_ bound: UInt64, _ bytes: UInt64) -> UInt64 { (bytes &+ ones &* (0x80 - bound)) & highs }
        let lower = word | ones &* 0x20
        let digit = atLeast(0x30, word) & ~atLeast(0x3A, word)
        let letter = atLeast(0x61, lower) & ~atLeast(0x67, lower)
        return digit | letter == highs
    }

    static func equalIgnoringASCIICase(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool
    {
        guard left.count == right.count else { return false }
        for index in 0..<left.count where asciiLowercase(left[index]) != asciiLowercase(right[index]) {
            return false
        }
        return true
    }

    static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}

/// The headers the device-push header phase reads.
enum KnownField: Int, CaseIterable {
    case apnsID, topic, collapseID, priority, pushType, expiration, authorization

    var name: StaticString {
        switch self {
        case .apnsID: "apns-id"
        case .topic: "apns-topic"
        case .collapseID: "apns-collapse-id"
        case .priority: "apns-priority"
        case .pushType: "apns-push-type"
        case .expiration: "apns-expiration"
        case .authorization: "authorization"
        }
    }

    /// The known header `name` names (compared in ASCII lowercase), if any.
    static func of(_ name: UnsafeBufferPointer<UInt8>) -> KnownField? {
        let candidate: KnownField
        switch name.count {
        case 7: candidate = .apnsID
        case 10: candidate = .topic
        case 13:
            candidate = DevicePushValidator.asciiLowercase(name[1]) == UInt8(ascii: "u") ? .authorization : .priority
        case 14: candidate = .pushType
        case 15: candidate = .expiration
        case 16: candidate = .collapseID
        default: return nil
        }
        let expected = UnsafeBufferPointer(start: candidate.name.utf8Start, count: candidate.name.utf8CodeUnitCount)
        // HTTP/2 names are lowercase: the exact comparison settles almost every call.
        return DevicePushValidator.equal(name, expected) || DevicePushValidator.equalIgnoringASCIICase(name, expected)
            ? candidate : nil
    }
}

/// The first field index of each known header, without a dictionary.
struct KnownFields {
    private var indices = (-1, -1, -1, -1, -1, -1, -1)

    subscript(field: KnownField) -> Int? {
        get {
            let index =
                switch field {
                case .apnsID: indices.0
                case .topic: indices.1
                case .collapseID: indices.2
                case .priority: indices.3
                case .pushType: indices.4
                case .expiration: indices.5
                case .authorization: indices.6
                }
            return index < 0 ? nil : index
        }
        set {
            let index = newValue ?? -1
            switch field {
            case .apnsID: indices.0 = index
            case .topic: indices.1 = index
            case .collapseID: indices.2 = index
            case .priority: indices.3 = index
            case .pushType: indices.4 = index
            case .expiration: indices.5 = index
            case .authorization: indices.6 = index
            }
        }
    }
}
