/// `UNAuthorizationOptions`: what an app asks for in `requestAuthorization`. Raw values are Apple's.
public struct AuthorizationOptions: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let badge = AuthorizationOptions(rawValue: 1 << 0)
    public static let sound = AuthorizationOptions(rawValue: 1 << 1)
    public static let alert = AuthorizationOptions(rawValue: 1 << 2)
    public static let carPlay = AuthorizationOptions(rawValue: 1 << 3)
    /// Needs Apple's critical-alerts entitlement as well.
    public static let criticalAlert = AuthorizationOptions(rawValue: 1 << 4)
    public static let providesAppNotificationSettings = AuthorizationOptions(rawValue: 1 << 5)
    /// Granted without a prompt; delivery is quiet until the user keeps or turns off the app's notifications.
    public static let provisional = AuthorizationOptions(rawValue: 1 << 6)
    /// Deprecated by Apple and ignored.
    public static let announcement = AuthorizationOptions(rawValue: 1 << 7)
    /// Existed only in iOS 15.0; the time-sensitive entitlement replaced it. Ignored by the model.
    public static let timeSensitive = AuthorizationOptions(rawValue: 1 << 8)

    private static let names: [(AuthorizationOptions, String)] = [
        (.badge, "badge"), (.sound, "sound"), (.alert, "alert"), (.carPlay, "carPlay"),
        (.criticalAlert, "criticalAlert"),
        (.providesAppNotificationSettings, "providesAppNotificationSettings"), (.provisional, "provisional"),
        (.announcement, "announcement"), (.timeSensitive, "timeSensitive"),
    ]

    /// `[alert, sound]`.
    public var description: String {
        "[" + Self.names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
    }
}
