/// `UNNotificationSetting`: one switch in the app's notification settings. Raw values are Apple's.
public enum NotificationSetting: Int, Sendable, Hashable, CustomStringConvertible {
    /// The app never asked for it, so Settings shows no switch.
    case notSupported = 0
    case disabled = 1
    case enabled = 2

    public var isEnabled: Bool { self == .enabled }

    public var description: String {
        switch self {
        case .notSupported: "notSupported"
        case .disabled: "disabled"
        case .enabled: "enabled"
        }
    }
}

/// `UNAlertStyle`: how an alert appears while the device is unlocked.
public enum AlertStyle: Int, Sendable, Hashable {
    case none = 0
    case banner = 1
    case alert = 2
}

/// `UNShowPreviewsSetting`: when the body is shown.
public enum ShowPreviewsSetting: Int, Sendable, Hashable {
    case always = 0
    case whenAuthenticated = 1
    case never = 2
}

/// `UNNotificationSettings`: the app's authorization and every switch the user controls.
///
/// The user may change any of it at any time (`NotificationCenter.userChangesSettings`); the model reads it
/// afresh for every notification.
public struct NotificationSettings: Sendable, Hashable {
    public var authorizationStatus: AuthorizationStatus = .notDetermined
    public var alertSetting: NotificationSetting = .notSupported
    public var soundSetting: NotificationSetting = .notSupported
    public var badgeSetting: NotificationSetting = .notSupported
    public var lockScreenSetting: NotificationSetting = .notSupported
    public var notificationCenterSetting: NotificationSetting = .notSupported
    public var carPlaySetting: NotificationSetting = .notSupported
    public var announcementSetting: NotificationSetting = .notSupported
    public var criticalAlertSetting: NotificationSetting = .notSupported
    public var timeSensitiveSetting: NotificationSetting = .notSupported
    /// Enabled while the app's notifications go to the Scheduled Summary.
    public var scheduledDeliverySetting: NotificationSetting = .notSupported
    public var directMessagesSetting: NotificationSetting = .notSupported
    public var alertStyle: AlertStyle = .none
    public var showPreviewsSetting: ShowPreviewsSetting = .always
    public var providesAppNotificationSettings = false

    public init() {}
}
