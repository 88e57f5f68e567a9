/// What the linter checks: a payload and the request's header values, as raw as they came (a
/// malformed `apns-priority` is a finding, not a parse failure).
public struct LintRequest: Sendable, Hashable {
    /// Where the payload is going; limits and rules differ.
    public enum Destination: String, Sendable, Hashable {
        /// `POST /3/device/<token>`.
        case device
        /// `POST /4/broadcasts/apps/<bundle-id>`: a Live Activity update or end, up to 5120 bytes.
        case broadcast
        /// An `.apns` file for `xcrun simctl push`: needs "Simulator Target Bundle", up to 4096 bytes.
        case simulatorFile
    }

    public var payload: [UInt8]
    public var pushType: String?
    public var topic: String?
    public var priority: String?
    public var expiration: String?
    public var collapseID: String?
    public var apnsID: String?
    public var token: String?
    public var destination: Destination
    /// The current UNIX time, for checks against it (expiration in the past); nil skips them.
    public var now: Int?

    public init(
        payload: [UInt8], pushType: String? = nil, topic: String? = nil, priority: String? = nil,
        expiration: String? = nil, collapseID: String? = nil, apnsID: String? = nil, token: String? = nil,
        destination: Destination = .device, now: Int? = nil
    ) {
        self.payload = payload
        self.pushType = pushType
        self.topic = topic
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.apnsID = apnsID
        self.token = token
        self.destination = destination
        self.now = now
    }
}

/// What the linter found, and what it worked out on the way.
public struct LintReport: Sendable, Hashable {
    public var findings: [Finding]
    /// The push type the rules were checked against (nil when the header named no valid type).
    public var pushType: PushType?
    /// Whether `pushType` was inferred from the payload because no header named it.
    public var pushTypeWasInferred: Bool
    /// The payload's size in bytes, as APNs counts it.
    public var payloadSize: Int
    /// The limit it was checked against.
    public var payloadLimit: Int

    public var hasErrors: Bool { findings.contains { $0.severity == .error } }

    public func findings(_ severity: Severity) -> [Finding] {
        findings.filter { $0.severity == severity }
    }
}
