/// The parts of `UIApplicationDelegate` that notifications reach, as closures: a nil closure is a method the
/// app does not implement.
public struct ApplicationDelegate {
    /// `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`: the token's bytes.
    public var didRegisterForRemoteNotifications: (([UInt8]) -> Void)?
    /// `application(_:didFailToRegisterForRemoteNotificationsWithError:)`.
    public var didFailToRegisterForRemoteNotifications: ((RegistrationError) -> Void)?
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)` for an app that calls the handler
    /// before it returns: the payload's custom keys.
    public var didReceiveRemoteNotification: ((RemoteNotificationUserInfo) -> Void)?
    /// The same method with its fetch completion handler, which the app must call within 30 seconds on the
    /// device's clock (later, or never: the app is terminated). Set, it is called instead of
    /// `didReceiveRemoteNotification`.
    public var didReceiveRemoteNotificationWithFetchHandler:
        ((RemoteNotificationUserInfo, @escaping (BackgroundFetchResult) -> Void) -> Void)?

    public init(
        didRegisterForRemoteNotifications: (([UInt8]) -> Void)? = nil,
        didFailToRegisterForRemoteNotifications: ((RegistrationError) -> Void)? = nil,
        didReceiveRemoteNotification: ((RemoteNotificationUserInfo) -> Void)? = nil,
        didReceiveRemoteNotificationWithFetchHandler: (
            (RemoteNotificationUserInfo, @escaping (BackgroundFetchResult) -> Void) -> Void
        )? = nil
    ) {
        self.didRegisterForRemoteNotifications = didRegisterForRemoteNotifications
        self.didFailToRegisterForRemoteNotifications = didFailToRegisterForRemoteNotifications
        self.didReceiveRemoteNotification = didReceiveRemoteNotification
        self.didReceiveRemoteNotificationWithFetchHandler = didReceiveRemoteNotificationWithFetchHandler
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
