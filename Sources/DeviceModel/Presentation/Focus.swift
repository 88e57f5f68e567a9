import APNs

// Focus (DEVICE-SEMANTICS.md 8, 1b): while a Focus is on, a notification of an app the Focus does not allow
// is silenced (listed in Notification Center, no banner, no sound) unless its level breaks through:
//   passive, active       -> silenced
//   time-sensitive        -> breaks through with the entitlement (else it is active already), the app's
//                            timeSensitiveSetting enabled (the user's allowance) and the Focus allowing it
//   critical              -> always breaks through

/// A Focus the user turned on (Do Not Disturb, Sleep, Work, ...): the apps it allows and whether Time
/// Sensitive notifications break through it.
public struct Focus: Sendable, Hashable {
    public var name: String
    /// Bundle ids the Focus lets through at any level.
    public var allowedApps: Set<String>
    /// The Focus's "Time Sensitive Notifications" switch (on by default in iOS).
    public var allowsTimeSensitive: Bool

    public init(name: String = "Do Not Disturb", allowedApps: Set<String> = [], allowsTimeSensitive: Bool = true) {
        self.name = name
        self.allowedApps = allowedApps
        self.allowsTimeSensitive = allowsTimeSensitive
    }
}

extension InstalledApp {
    /// Applies the Focus, if one is on, to what a notification at `level` may do; records the decision.
    func applyFocus(
        _ options: inout PresentationOptions, level: InterruptionLevel, _ settings: NotificationSettings,
        _ id: String, _ time: DeviceInstant
    ) {
        guard let focus = context.focus, !options.isDisjoint(with: [.banner, .sound]) else { return }
        let through: String? =
            if level == .critical {
                "critical always breaks through"
            } else if focus.allowedApps.contains(bundleID) {
                "the Focus allows the app"
            } else if level == .timeSensitive, settings.timeSensitiveSetting.isEnabled, focus.allowsTimeSensitive {
                "time-sensitive with the entitlement and timeSensitiveSetting enabled breaks through"
            } else {
                nil
            }
        if let through {
            context.record(
                .presented, .focusBreakthrough, "Focus \(focus.name) is on: \(through)", app: bundleID,
                notification: id, at: time)
            return
        }
        let why =
            switch level {
            case .timeSensitive where !settings.timeSensitiveSetting.isEnabled:
                "time-sensitive, but timeSensitiveSetting is \(settings.timeSensitiveSetting)"
            case .timeSensitive: "time-sensitive, but the Focus does not allow Time Sensitive notifications"
            default: "\(level.rawValue) does not break through"
            }
        options.subtract([.banner, .sound])
        context.record(
            .presented, .focusSilenced, "Focus \(focus.name) is on: \(why): silenced (no banner, no sound)",
            app: bundleID, notification: id, at: time)
    }
}
