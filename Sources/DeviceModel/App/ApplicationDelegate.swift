/// The parts of `UIApplicationDelegate` that notifications reach, as closures: a nil closure is a method the
/// app does not implement.
public struct ApplicationDelegate {
    /// `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`: the token's bytes.
    public var didRegisterForRemoteNotifications: (([UInt8]) -> Void)?
    /// `application(_:didFailToRegisterForRemoteNotificationsWithError:)`.
    public var didFailToRegisterForRemoteNotifications: ((RegistrationError) -> Void)?
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`: the payload's custom keys.
    public var didReceiveRemoteNotification: ((RemoteNotificationUserInfo) -> Void)?

    public init(
        didRegisterForRemoteNotifications: (([UInt8]) -> Void)? = nil,
        didFailToRegisterForRemoteNotifications: ((RegistrationError) -> Void)? = nil,
        didReceiveRemoteNotification: ((RemoteNotificationUserInfo) -> Void)? = nil
    ) {
        self.didRegisterForRemoteNotifications = didRegisterForRemoteNotifications
        self.didFailToRegisterForRemoteNotifications = didFailToRegisterForRemoteNotifications
        self.didReceiveRemoteNotification = didReceiveRemoteNotification
    }
}

/// Why registration failed, with the text iOS puts in the error.
public enum RegistrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The app is not signed with `aps-environment`.
    case missingAPSEnvironment

    public var description: String {
        switch self {
        case .missingAPSEnvironment: "no valid \u{201C}aps-environment\u{201D} entitlement string found for application"
        }
    }
}
