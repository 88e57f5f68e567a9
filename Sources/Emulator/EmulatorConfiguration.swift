import APNs
import Keys

/// What an emulator accepts: the teams' keys, the apps' bundle ids, and how it behaves where
/// Apple leaves room.
public struct EmulatorConfiguration: Sendable {
    /// A provider key the emulator trusts (the public half of a team's .p8).
    public struct ProviderKey: Sendable {
        /// Where a key may be used (Apple lets a key be limited to one environment).
        public enum Environment: String, Sendable, CaseIterable {
            case sandbox, production, both
        }

        public let keyID: String
        public let teamID: String
        public let publicKey: P256PublicKey
        /// The bundle ids the key's team owns; empty: any. A token for another topic answers 403
        /// InvalidProviderToken (the topic is not covered by the key).
        public var bundleIDs: Set<String>
        /// A key for the other environment answers 403 BadEnvironmentKeyIdInToken.
        public var environment: Environment

        public init(
            keyID: String, teamID: String, publicKey: P256PublicKey, bundleIDs: Set<String> = [],
            environment: Environment = .both
        ) {
            self.keyID = keyID
            self.teamID = teamID
            self.publicKey = publicKey
            self.bundleIDs = bundleIDs
            self.environment = environment
        }
    }

    public var keys: [ProviderKey]
    /// Bundle ids pushes may go to; empty accepts any (answers TopicDisallowed otherwise).
    public var bundleIDs: Set<String>
    /// MAX_CONCURRENT_STREAMS before a provider token has been accepted on a connection (APNs: 1).
    public var initialMaxConcurrentStreams: UInt32
    /// MAX_CONCURRENT_STREAMS once a provider token has been accepted (APNs: about 1000).
    public var authenticatedMaxConcurrentStreams: UInt32
    /// Answers carry `apns-unique-id`, as Apple's sandbox does.
    public var sandbox: Bool
    /// Most entries kept in the delivery log; the oldest are dropped first.
    public var deliveryLogCapacity: Int
    /// How the header and payload checks behave where Apple is silent.
    public var policy: DevicePushPolicy
    /// Pushes accepted per device token per second; more answer 429 TooManyRequests. nil: no limit.
    public var perTokenRateLimit: Int?
    /// Connections idle this long get GOAWAY `{"reason":"IdleTimeout"}` and are closed; nil: never.
    public var idleTimeout: Duration?
    /// Broadcast channels one app may hold (APNs: 10,000); one more answers CannotCreateChannelConfig.
    public var channelLimitPerApp: Int = 10_000
    /// How broadcast and channel checks behave where Apple is silent (`bundleIDs` and certificate
    /// topics fill in `allowedBundleIDs`).
    public var broadcastPolicy = BroadcastPolicy()
    /// Strict tokens: only tokens of registered simulated devices are accepted (an unknown token or
    /// one of the other environment is 400 BadDeviceToken, one of another app 400
    /// DeviceTokenNotForTopic). Off (open mode), any well-formed token is accepted and logged.
    public var strictTokens = false
    /// How the delivery log is written to the emulator's store, when it has one.
    public var deliveryLogWriteBehind = DeliveryLogWriteBehind()
    /// Connections that send no request this long after they are accepted get GOAWAY
    /// `{"reason":"IdleTimeout"}` and are closed (a client that connects and idles holds memory);
    /// nil: held until `idleTimeout`.
    public var firstRequestTimeout: Duration? = .seconds(10)
    /// Connections open at once; each one beyond is accepted and closed at once. nil: no limit
    /// but the process's descriptor limit.
    public var maximumConnections: Int? = 10_000
    /// Faults declared at once (`POST /control/v1/faults`); one more answers 409 TooManyFaults.
    public var faultLimit = FaultInjector.defaultLimit
    /// Tokens marked unregistered at once (`POST /control/v1/devices/<token>/unregister`); one
    /// more answers 409 TooManyUnregisteredTokens. Tokens of unregistered simulated devices count
    /// too, but are never refused (the device is gone either way).
    public var unregisteredTokenLimit = TokenRegistry.defaultLimit
    /// When set, `/control/v1/` and `/device/v1/` requests must carry `authorization: bearer
    /// <token>` (401 otherwise). The provider API keeps its own credentials.
    public var controlToken: String?

    public init(
        keys: [ProviderKey], bundleIDs: Set<String> = [], initialMaxConcurrentStreams: UInt32 = 1,
        authenticatedMaxConcurrentStreams: UInt32 = 1000, sandbox: Bool = true, deliveryLogCapacity: Int = 100_000,
        policy: DevicePushPolicy = DevicePushPolicy(), perTokenRateLimit: Int? = nil
    ) {
        self.keys = keys
        self.bundleIDs = bundleIDs
        self.initialMaxConcurrentStreams = initialMaxConcurrentStreams
        self.authenticatedMaxConcurrentStreams = authenticatedMaxConcurrentStreams
        self.sandbox = sandbox
        self.deliveryLogCapacity = deliveryLogCapacity
        self.policy = policy
        self.perTokenRateLimit = perTokenRateLimit
    }
}
