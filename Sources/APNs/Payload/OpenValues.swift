/// The `interruption-level` key: how insistently the device presents the notification.
/// Open: a level Apple adds later survives decoding.
public struct InterruptionLevel: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Added to the list silently; no sound, no screen wake.
    public static let passive: InterruptionLevel = "passive"
    /// The default: sound and screen wake.
    public static let active: InterruptionLevel = "active"
    /// Breaks through Focus; needs the Time Sensitive Notifications capability.
    public static let timeSensitive: InterruptionLevel = "time-sensitive"
    /// Breaks through Focus and the mute switch; needs Apple's critical alerts entitlement.
    public static let critical: InterruptionLevel = "critical"

    public static let documented: [InterruptionLevel] = [.passive, .active, .timeSensitive, .critical]
}

/// The `event` key of a Live Activity push. Open, like `InterruptionLevel`.
public struct LiveActivityEvent: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public static let start: LiveActivityEvent = "start"
    public static let update: LiveActivityEvent = "update"
    public static let end: LiveActivityEvent = "end"

    public static let documented: [LiveActivityEvent] = [.start, .update, .end]
}
