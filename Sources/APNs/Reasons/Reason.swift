/// A reason APNs gives for rejecting a request (the `reason` in the JSON error body).
///
/// An open set: every documented reason is a static member, and a reason Apple adds later is kept
/// as it came (`Reason(rawValue:)` never fails). What each reason means, its status and how to react
/// live in one table, `Reason.table`, which the client, the emulator, retries and pruning all read.
public struct Reason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        // Apple has been seen spelling this one both ways; keep one name.
        self.rawValue = rawValue == "BadEnvironmentKeyInToken" ? "BadEnvironmentKeyIdInToken" : rawValue
    }

    public init(_ rawValue: String) {
        self.init(rawValue: rawValue)
    }

    public var description: String { rawValue }

    /// The table row for this reason; nil for one Apple has not documented.
    public var info: ReasonInfo? { Reason.table[self] }

    /// Whether Herald knows this reason.
    public var isDocumented: Bool { info != nil }

    /// The HTTP status APNs answers with this reason (nil if undocumented).
    public var status: Int? { info?.status }

    /// Whether resending the same request later may succeed.
    public var isRetryable: Bool { info?.retry == .withBackoff }

    /// Whether the device token should be removed from the provider's store.
    public var prunesToken: Bool { info?.prunesToken ?? false }
}

extension Reason {
    // 400
    public static let badCollapseId = Reason("BadCollapseId")
    public static let badDeviceToken = Reason("BadDeviceToken")
    public static let badExpirationDate = Reason("BadExpirationDate")
    public static let badMessageId = Reason("BadMessageId")
    public static let badPriority = Reason("BadPriority")
    public static let badTopic = Reason("BadTopic")
    public static let deviceTokenNotForTopic = Reason("DeviceTokenNotForTopic")
    public static let duplicateHeaders = Reason("DuplicateHeaders")
    public static let idleTimeout = Reason("IdleTimeout")
    public static let invalidPushType = Reason("InvalidPushType")
    public static let missingDeviceToken = Reason("MissingDeviceToken")
    public static let missingTopic = Reason("MissingTopic")
    public static let payloadEmpty = Reason("PayloadEmpty")
    public static let topicDisallowed = Reason("TopicDisallowed")
    // 400, broadcast and channel management
    public static let featureNotEnabled = Reason("FeatureNotEnabled")
    public static let missingChannelId = Reason("MissingChannelId")
    public static let badChannelId = Reason("BadChannelId")
    public static let channelNotRegistered = Reason("ChannelNotRegistered")
    public static let badRequestParams = Reason("BadRequestParams")
    public static let badRequestPayload = Reason("BadRequestPayload")
    public static let missingPushType = Reason("MissingPushType")
    public static let cannotCreateChannelConfig = Reason("CannotCreateChannelConfig")
    // 403
    public static let badCertificate = Reason("BadCertificate")
    public static let badCertificateEnvironment = Reason("BadCertificateEnvironment")
    public static let expiredProviderToken = Reason("ExpiredProviderToken")
    public static let forbidden = Reason("Forbidden")
    public static let invalidProviderToken = Reason("InvalidProviderToken")
    public static let missingProviderToken = Reason("MissingProviderToken")
    public static let unrelatedKeyIdInToken = Reason("UnrelatedKeyIdInToken")
    public static let badEnvironmentKeyIdInToken = Reason("BadEnvironmentKeyIdInToken")
    public static let topicMismatch = Reason("TopicMismatch")
    // 404, 405
    public static let badPath = Reason("BadPath")
    public static let methodNotAllowed = Reason("MethodNotAllowed")
    // 410
    public static let expiredToken = Reason("ExpiredToken")
    public static let unregistered = Reason("Unregistered")
    // 413
    public static let payloadTooLarge = Reason("PayloadTooLarge")
    // 429
    public static let tooManyProviderTokenUpdates = Reason("TooManyProviderTokenUpdates")
    public static let tooManyRequests = Reason("TooManyRequests")
    // 500, 503
    public static let internalServerError = Reason("InternalServerError")
    public static let serviceUnavailable = Reason("ServiceUnavailable")
    public static let shutdown = Reason("Shutdown")
}
