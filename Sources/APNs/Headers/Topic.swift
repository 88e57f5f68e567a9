/// The `apns-topic` header: the app's bundle id plus the suffix its push type requires.
public struct Topic: Sendable, Hashable, CustomStringConvertible {
    public let value: String

    public init(_ value: String) throws(FieldError) {
        guard !value.isEmpty else { throw FieldError(field: "apns-topic", message: "is empty; use the app's bundle id") }
        guard value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw FieldError(field: "apns-topic", message: "\(quoted(value)) contains spaces or non-ASCII characters; a topic is a bundle id")
        }
        self.value = value
    }

    /// The topic for sending `pushType` to the app `bundleID` (the bundle id plus the type's suffix).
    public init(bundleID: String, pushType: PushType) throws(FieldError) {
        try self.init(bundleID + (pushType.topicSuffix ?? ""))
    }

    /// The bundle id, with any known push-type suffix removed.
    public var bundleID: String {
        for suffix in PushType.knownSuffixes where value.hasSuffix(suffix) && value.count > suffix.count {
            return String(value.dropLast(suffix.count))
        }
        return value
    }

    /// The push-type suffix this topic carries ("" when none).
    public var suffix: String {
        String(value.dropFirst(bundleID.count))
    }

    /// Whether this topic is one APNs accepts for `pushType`; nil when it is, else what is wrong.
    public func problem(for pushType: PushType) -> String? {
        guard let required = pushType.topicSuffix else { return nil }
        if suffix == required { return nil }
        let expected = bundleID + required
        if required.isEmpty {
            return "\(quoted(value)) ends in '\(suffix)', but \(pushType) pushes go to the bare bundle id: use '\(expected)'"
        }
        return "\(quoted(value)) does not end in '\(required)' as \(pushType) pushes require: use '\(expected)'"
    }

    public var description: String { value }
}

extension Topic {
    /// Why `bundleID` is not a bundle id an app could have (letters, digits, '-' and '.', no
    /// push-type suffix), or nil if it is one.
    public static func bundleIDProblem(_ bundleID: String) -> String? {
        guard !bundleID.isEmpty else { return "is empty; use the app's bundle id, e.g. com.example.app" }
        let allowed = bundleID.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        guard allowed else {
            return "\(quoted(bundleID)) is not a bundle id: use letters, digits, '-' and '.', e.g. com.example.app"
        }
        if let suffix = PushType.knownSuffixes.first(where: { bundleID.hasSuffix($0) }) {
            return "\(quoted(bundleID)) ends in the push-type suffix '\(suffix)'; give the app's bundle id alone"
        }
        return nil
    }
}
