/// What an app brings to the device: its bundle id, entitlements, background modes and App Clip flags
/// (the parts of its signature and Info.plist that notification behaviour depends on).
public struct AppConfiguration: Sendable, Hashable {
    public var bundleID: String
    public var entitlements: Entitlements
    /// `UIBackgroundModes`.
    public var backgroundModes: Set<BackgroundMode>
    /// An App Clip with `NSAppClipRequestEphemeralUserNotification` set to true.
    public var requestsEphemeralNotifications: Bool
    /// `NSSupportsLiveActivitiesFrequentUpdates`: a larger priority-10 budget for its Live Activities (the user
    /// can switch it off: `InstalledApp.frequentPushesEnabled`).
    public var supportsLiveActivitiesFrequentUpdates: Bool

    public init(
        bundleID: String, entitlements: Entitlements = Entitlements(), backgroundModes: Set<BackgroundMode> = [],
        requestsEphemeralNotifications: Bool = false, supportsLiveActivitiesFrequentUpdates: Bool = false
    ) {
        self.bundleID = bundleID
        self.entitlements = entitlements
        self.backgroundModes = backgroundModes
        self.requestsEphemeralNotifications = requestsEphemeralNotifications
        self.supportsLiveActivitiesFrequentUpdates = supportsLiveActivitiesFrequentUpdates
    }
}

/// The entitlements that change what the device does with notifications.
public struct Entitlements: Sendable, Hashable {
    /// `aps-environment`; without it registration fails.
    public var apsEnvironment: APSEnvironment?
    /// `com.apple.developer.usernotifications.critical-alerts`.
    public var criticalAlerts: Bool
    /// `com.apple.developer.usernotifications.time-sensitive`.
    public var timeSensitive: Bool
    /// `com.apple.developer.usernotifications.filtering`: the service extension may suppress a notification.
    public var filtering: Bool

    public init(
        apsEnvironment: APSEnvironment? = .development, criticalAlerts: Bool = false, timeSensitive: Bool = false,
        filtering: Bool = false
    ) {
        self.apsEnvironment = apsEnvironment
        self.criticalAlerts = criticalAlerts
        self.timeSensitive = timeSensitive
        self.filtering = filtering
    }
}

/// The `aps-environment` entitlement's value: which APNs the app's token belongs to.
public enum APSEnvironment: String, Sendable, Hashable {
    /// The sandbox.
    case development
    case production
}

/// A `UIBackgroundModes` value.
public enum BackgroundMode: String, Sendable, Hashable {
    /// Needed for background (silent) pushes to wake the app.
    case remoteNotification = "remote-notification"
    case voip
    case fetch
    case processing
}

/// Whether the app runs, and where.
public enum AppState: String, Sendable, Hashable {
    /// Installed, never launched since install (or since a reboot).
    case notRunning = "not running"
    case background
    case foreground
    /// Swiped away in the app switcher: no push wakes it until the user launches it again.
    case forceQuit = "force-quit"
}
