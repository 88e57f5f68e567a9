/// `UNUserNotificationCenterDelegate`, as closures: a nil closure is a method the app does not implement,
/// which matters (a delegate without `willPresent` silences foreground notifications).
public struct NotificationCenterDelegate {
    /// `userNotificationCenter(_:willPresent:withCompletionHandler:)`: the options for a notification that
    /// arrives while the app is in the foreground.
    public var willPresent: ((DeliveredNotification) -> PresentationOptions)?
    /// `userNotificationCenter(_:didReceive:withCompletionHandler:)`: the user acted on a notification.
    public var didReceive: ((NotificationResponse) -> Void)?

    public init(
        willPresent: ((DeliveredNotification) -> PresentationOptions)? = nil,
        didReceive: ((NotificationResponse) -> Void)? = nil
    ) {
        self.willPresent = willPresent
        self.didReceive = didReceive
    }
}

/// `UNNotificationResponse` (and `UNTextInputNotificationResponse` when `userText` is set).
public struct NotificationResponse: Sendable, Hashable {
    public var notification: DeliveredNotification
    public var actionIdentifier: String
    /// What the user typed, for a text input action.
    public var userText: String?

    public init(notification: DeliveredNotification, actionIdentifier: String, userText: String? = nil) {
        self.notification = notification
        self.actionIdentifier = actionIdentifier
        self.userText = userText
    }

    /// `UNNotificationDefaultActionIdentifier`: the user opened the app from the notification.
    public static let defaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
    /// `UNNotificationDismissActionIdentifier`: an explicit dismiss, for categories with `customDismissAction`.
    public static let dismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"
}
