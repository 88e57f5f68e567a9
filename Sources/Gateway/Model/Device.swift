import APNs

/// What an app uploads on every launch (`PUT /v1/apps/{bundle-id}/devices/{token}`): the store adds
/// the time and the status.
public struct DeviceRegistration: Sendable, Hashable {
    public var bundleID: String
    /// Any even number of hex digits: Apple says not to assume a length.
    public var token: DeviceToken
    public var environment: Environment
    public var user: String?
    /// Sorted, without repeats (as both stores return them).
    public var tags: [String]
    public var locale: String?
    public var appVersion: String?

    public init(
        bundleID: String, token: DeviceToken, environment: Environment, user: String? = nil, tags: [String] = [],
        locale: String? = nil, appVersion: String? = nil
    ) {
        self.bundleID = bundleID
        self.token = token
        self.environment = environment
        self.user = user
        self.tags = Set(tags).sorted()
        self.locale = locale
        self.appVersion = appVersion
    }
}

/// A device as the gateway stores it: the last registration, when it was made, and whether APNs
/// still takes the token.
public struct Device: Sendable, Hashable {
    public var registration: DeviceRegistration
    /// Milliseconds since 1970 of the last upload; the pruning rule compares APNs's 410 timestamp with it.
    public var registeredAt: Int
    public var status: TokenStatus
    /// Why the token is not active (nil while it is).
    public var statusReason: String?

    public init(
        registration: DeviceRegistration, registeredAt: Int, status: TokenStatus = .active, statusReason: String? = nil
    ) {
        self.registration = registration
        self.registeredAt = registeredAt
        self.status = status
        self.statusReason = statusReason
    }

    public var bundleID: String { registration.bundleID }
    public var token: DeviceToken { registration.token }
    public var environment: Environment { registration.environment }
    public var user: String? { registration.user }
    public var tags: [String] { registration.tags }
}
