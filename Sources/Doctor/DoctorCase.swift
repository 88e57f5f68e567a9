import APNs
import DeviceModel

/// Everything known about one notification, gathered from the command line, the emulator's delivery log or
/// the gateway: the doctor's input. Each part is optional; a step with nothing to look at is skipped and
/// says so.
public struct DoctorCase: Sendable {
    /// The request as sent (payload and headers), for the linter and the device model.
    public var request: LintRequest?
    /// APNs's answer to it.
    public var answer: APNsAnswer?
    /// What the emulator knows about the token and the pushes to it around this one.
    public var storage: StorageEvidence?
    /// The device to play the notification on: what the user saw.
    public var profile: DeviceProfile?
    /// Where the parts came from (`lint of the command line`, `emulator delivery log`, ...).
    public var sources: [String]
    /// What a lookup found on its own (the gateway's delivery state), reported with the rest.
    public var lookupFindings: [DoctorFinding]

    public init(
        request: LintRequest? = nil, answer: APNsAnswer? = nil, storage: StorageEvidence? = nil,
        profile: DeviceProfile? = nil, sources: [String] = [], lookupFindings: [DoctorFinding] = []
    ) {
        self.lookupFindings = lookupFindings
        self.request = request
        self.answer = answer
        self.storage = storage
        self.profile = profile
        self.sources = sources
    }
}

/// APNs's answer to a push, as a delivery log or the sender recorded it.
public struct APNsAnswer: Sendable, Hashable {
    /// The HTTP status; 0 when no answer came (the connection failed first).
    public var status: Int
    public var reason: Reason?
    /// The 410's `timestamp`: when APNs last knew the token valid (milliseconds since 1970).
    public var timestamp: Int?
    /// When APNs received the request (milliseconds since 1970).
    public var receivedAt: Int?
    /// The environment the token was issued for, when the emulator knows it (`sandbox`, `production`).
    public var tokenEnvironment: String?
    /// The first 410 the log holds for this token (milliseconds since 1970), when `timestamp` is unknown.
    public var firstUnregisteredAt: Int?

    public init(
        status: Int, reason: Reason? = nil, timestamp: Int? = nil, receivedAt: Int? = nil,
        tokenEnvironment: String? = nil, firstUnregisteredAt: Int? = nil
    ) {
        self.status = status
        self.reason = reason
        self.timestamp = timestamp
        self.receivedAt = receivedAt
        self.tokenEnvironment = tokenEnvironment
        self.firstUnregisteredAt = firstUnregisteredAt
    }
}

/// One entry of the emulator's delivery log (`GET /control/v1/deliveries`, docs/EMULATOR.md).
public struct LoggedPush: Sendable, Hashable {
    public var receivedAt: Int
    public var token: String?
    public var topic: String?
    public var pushType: String?
    public var priority: Int?
    public var collapseID: String?
    public var expiration: Int?
    public var apnsID: String?
    public var uniqueID: String?
    public var status: Int
    public var reason: String?
    /// The payload as the log keeps it (compact JSON).
    public var payload: [UInt8]

    public init(
        receivedAt: Int, token: String? = nil, topic: String? = nil, pushType: String? = nil, priority: Int? = nil,
        collapseID: String? = nil, expiration: Int? = nil, apnsID: String? = nil, uniqueID: String? = nil,
        status: Int, reason: String? = nil, payload: [UInt8] = []
    ) {
        self.receivedAt = receivedAt
        self.token = token
        self.topic = topic
        self.pushType = pushType
        self.priority = priority
        self.collapseID = collapseID
        self.expiration = expiration
        self.apnsID = apnsID
        self.uniqueID = uniqueID
        self.status = status
        self.reason = reason
        self.payload = payload
    }
}

/// What the emulator shows of storage while offline: the push, the pushes it accepted for the same token
/// and app after it, and the simulated device behind the token, if there is one.
public struct StorageEvidence: Sendable, Hashable {
    public var push: LoggedPush
    /// Accepted pushes to the same token and topic received after `push`, oldest first.
    public var later: [LoggedPush]
    /// Whether a simulated device holds the token, and whether it listens now (nil: no such device).
    public var deviceOnline: Bool?

    public init(push: LoggedPush, later: [LoggedPush] = [], deviceOnline: Bool? = nil) {
        self.push = push
        self.later = later
        self.deviceOnline = deviceOnline
    }
}
