import APNs

/// How one notification reached the user: what showed, what sounded, what the badge became.
public struct Presentation: Sendable, Hashable {
    public var notification: DeliveredNotification
    /// A banner (or an entry on the lock screen while the device is locked).
    public var banner: Bool
    /// Listed in Notification Center (and in `deliveredNotifications`).
    public var listed: Bool
    /// The sound played, nil for none.
    public var sound: NotificationSound?
    /// The badge set, nil when left as it was.
    public var badge: Int?
    /// The level the system applied (a missing entitlement downgrades to active).
    public var interruptionLevel: InterruptionLevel
    /// Whether the app was in the foreground (and `willPresent` chose).
    public var inForeground: Bool

    /// `banner, list, sound default, badge 3`.
    public var summary: String {
        var parts: [String] = []
        if banner { parts.append("banner") }
        if listed { parts.append("list") }
        if let sound { parts.append("sound \(sound)") }
        if let badge { parts.append("badge \(badge)") }
        for attachment in notification.request.content.attachments {
            parts.append("\(attachment.kind.rawValue) \(attachment.identifier)")
        }
        return parts.isEmpty ? "nothing" : parts.joined(separator: ", ")
    }
}
