import APNs

/// `UNNotificationRequest`: an identifier, the content and what triggers it.
///
/// A remote notification's identifier is its `apns-collapse-id`, or one the system assigned.
public struct NotificationRequest: Sendable, Hashable {
    public var identifier: String
    public var content: NotificationContent
    /// nil delivers at once (a local request added without a trigger).
    public var trigger: NotificationTrigger?

    public init(identifier: String, content: NotificationContent, trigger: NotificationTrigger?) {
        self.identifier = identifier
        self.content = content
        self.trigger = trigger
    }
}

/// What delivers a request: `UNNotificationTrigger`'s subclasses, as cases.
public enum NotificationTrigger: Sendable, Hashable {
    /// `UNPushNotificationTrigger`: the request came from APNs.
    case push
    /// `UNTimeIntervalNotificationTrigger`.
    case timeInterval(TimeIntervalTrigger)
    /// `UNCalendarNotificationTrigger`.
    case calendar(CalendarTrigger)
    /// `UNLocationNotificationTrigger`.
    case location(LocationTrigger)
}

/// `UNNotification`: a request the system delivered, and when.
///
/// Not named `Notification`: Foundation has one, and Herald's APNs module keeps one for its own targets.
public struct DeliveredNotification: Sendable, Hashable {
    public var date: DeviceInstant
    public var request: NotificationRequest

    public init(date: DeviceInstant, request: NotificationRequest) {
        self.date = date
        self.request = request
    }
}

/// `userInfo` of `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`: the whole payload.
public typealias RemoteNotificationUserInfo = JSONObject
