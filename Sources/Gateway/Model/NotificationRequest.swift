import APNs

/// A notification as `POST /v1/apps/{bundle-id}/notifications` accepts it: whom to, the APNs headers,
/// the payload (JSON bytes, checked and linted before it gets here), when, and an idempotency key.
public struct NotificationRequest: Sendable, Hashable {
    /// Whom a notification goes to. Lists are kept as given; the store drops repeats.
    public enum Recipients: Sendable, Hashable {
        /// These tokens; a token the gateway knows goes to its environment and only while active,
        /// an unknown one to the request's `environment`.
        case tokens([DeviceToken])
        /// Every active device of these users.
        case users([String])
        /// Every active device carrying any of these tags (each device once).
        case tags([String])
        /// The update token of one Live Activity.
        case activity(String)
        /// The push-to-start tokens of these users for one attributes type.
        case pushToStart(users: [String], attributesType: String)
        /// One broadcast to a channel (one delivery row).
        case channel(ChannelID)
    }

    public var bundleID: String
    public var to: Recipients
    public var pushType: PushType
    /// nil: APNs's default for the push type.
    public var priority: Priority?
    public var expiration: Expiration?
    public var collapseID: CollapseID?
    /// The JSON payload, as sent.
    public var payload: [UInt8]
    /// Milliseconds since 1970 at which to send; nil or past: now.
    public var sendAt: Int?
    /// The same key (per app) returns the same notification and sends nothing again.
    public var idempotencyKey: String?
    /// The environment of tokens the gateway does not know, and of a channel: the app's default.
    public var environment: Environment

    public init(
        bundleID: String, to: Recipients, pushType: PushType, priority: Priority? = nil, expiration: Expiration? = nil,
        collapseID: CollapseID? = nil, payload: [UInt8], sendAt: Int? = nil, idempotencyKey: String? = nil,
        environment: Environment = .production
    ) {
        self.bundleID = bundleID
        self.to = to
        self.pushType = pushType
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.payload = payload
        self.sendAt = sendAt
        self.idempotencyKey = idempotencyKey
        self.environment = environment
    }
}
