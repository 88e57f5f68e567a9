import APNs

/// A push-to-start token: starts Live Activities of one attributes type on one device (iOS 17.2+).
/// Uploading it again (or a new one) replaces nothing else: a user may have several devices.
public struct PushToStartToken: Sendable, Hashable {
    public var bundleID: String
    public var token: DeviceToken
    public var environment: Environment
    public var user: String?
    /// The ActivityKit attributes type name, as the payload's `attributes-type` names it.
    public var attributesType: String
    public var registeredAt: Int
    public var status: TokenStatus
    public var statusReason: String?

    public init(
        bundleID: String, token: DeviceToken, environment: Environment, user: String?, attributesType: String,
        registeredAt: Int, status: TokenStatus = .active, statusReason: String? = nil
    ) {
        self.bundleID = bundleID
        self.token = token
        self.environment = environment
        self.user = user
        self.attributesType = attributesType
        self.registeredAt = registeredAt
        self.status = status
        self.statusReason = statusReason
    }
}

/// The update token of one running Live Activity: one per activity id; a new upload replaces it
/// (ActivityKit hands out a new token when the activity's token changes).
public struct ActivityToken: Sendable, Hashable {
    public var bundleID: String
    /// The app's id for the activity (`Activity.id`).
    public var activityID: String
    public var token: DeviceToken
    public var environment: Environment
    public var user: String?
    public var registeredAt: Int
    public var status: TokenStatus
    public var statusReason: String?

    public init(
        bundleID: String, activityID: String, token: DeviceToken, environment: Environment, user: String?,
        registeredAt: Int, status: TokenStatus = .active, statusReason: String? = nil
    ) {
        self.bundleID = bundleID
        self.activityID = activityID
        self.token = token
        self.environment = environment
        self.user = user
        self.registeredAt = registeredAt
        self.status = status
        self.statusReason = statusReason
    }
}
