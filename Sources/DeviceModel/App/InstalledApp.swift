import APNs

/// One app on the device: its configuration, its `NotificationCenter`, its delegates and what the system
/// keeps for it (state, token, badge, what it presented).
///
/// Lifecycle: made by `Device.install`; lives as long as the device.
/// Thread-safety: not thread-safe; runs on the device's task.
public final class InstalledApp {
    let context: DeviceContext
    public private(set) var configuration: AppConfiguration
    public private(set) var notificationCenter: NotificationCenter
    /// The app's `UIApplicationDelegate` methods.
    public var delegate = ApplicationDelegate()
    /// The app's notification service extension, if it ships one.
    public var serviceExtension: (any NotificationServiceExtension)?
    public internal(set) var state: AppState = .notRunning
    /// Whether the user ever launched the app since it was installed.
    public private(set) var hasLaunched = false
    /// The number on the app's icon; 0 shows none.
    public internal(set) var badgeCount = 0
    /// Every presentation of a notification, in order.
    public internal(set) var presentations: [Presentation] = []
    /// Counts the app's tokens: a reinstall or a device-wide change makes a new one.
    var tokenGeneration: UInt64 = 0
    /// The token the device handed out and still delivers to; nil until registration.
    public internal(set) var deviceToken: [UInt8]?
    /// The app's Live Activities, oldest first, dismissed ones included.
    public internal(set) var activities: [Activity] = []
    /// Push-to-start tokens by attributes type.
    public internal(set) var pushToStartTokens: [String: [UInt8]] = [:]
    /// What the app hears about its Live Activities.
    public var activityObserver = ActivityObserver()
    /// `ActivityAuthorizationInfo.frequentPushesEnabled`: the user's switch for the larger budget of an app with
    /// `supportsLiveActivitiesFrequentUpdates`.
    public var frequentPushesEnabled = true
    /// When the app was woken for background pushes, within the last day (the budget counts them).
    var backgroundWakes: [DeviceInstant] = []
    /// The newest background push held back by the budget; it wakes the app when the budget allows.
    var heldBackgroundPush: NotificationRequest?
    /// Notifications held for the next scheduled summary, in arrival order, with the level they arrived at.
    var heldForSummary: [(notification: DeliveredNotification, level: InterruptionLevel)] = []
    /// When the held notifications are to be listed; nil when nothing waits.
    var summaryArmedFor: DeviceInstant?
    /// `CLLocationManager.authorizationStatus`: what the user granted; location triggers need when-in-use.
    public var locationAuthorization: LocationAuthorization = .notDetermined {
        didSet {
            context.record(
                .settings, .localLocationAuthorization, "location authorization \(locationAuthorization.rawValue)",
                app: bundleID)
        }
    }
    /// PushKit: the app's VoIP push handling; nil until it creates its `PKPushRegistry`.
    public var pushRegistry: PushRegistry?
    /// VoIP pushes in a row the app did not report as calls.
    var unreportedVoIPPushes = 0

    init(context: DeviceContext, configuration: AppConfiguration) {
        self.context = context
        self.configuration = configuration
        self.notificationCenter = NotificationCenter(context: context, app: configuration)
        notificationCenter.owner = self
        context.record(.authorization, .authInitial, "installed: status notDetermined", app: bundleID)
    }

    public var bundleID: String { configuration.bundleID }

    /// The token as lowercase hex, what a backend stores; nil until registration.
    public var deviceTokenHex: String? { deviceToken.map(hex) }

    /// The user launches the app into the foreground.
    public func launch() {
        state = .foreground
        hasLaunched = true
        if configuration.requestsEphemeralNotifications { notificationCenter.appClipLaunched() }
        deliverHeldBackgroundPush(because: "the app launched")
    }

    /// The user leaves the app; it runs on in the background.
    public func moveToBackground() {
        if state == .foreground { state = .background }
    }

    /// The user comes back to a running app.
    public func moveToForeground() {
        if state == .background { state = .foreground } else if state != .foreground { launch() }
    }

    /// The user swipes the app away in the app switcher.
    public func forceQuit() {
        state = .forceQuit
        discardHeldBackgroundPush(because: "the user force-quit the app")
    }

    /// The user deletes the app and installs it again: a new token, settings and notifications gone.
    public func reinstall() {
        tokenGeneration &+= 1
        deviceToken = nil
        heldBackgroundPush = nil
        heldForSummary = []
        summaryArmedFor = nil
        backgroundWakes = []
        unreportedVoIPPushes = 0
        pushRegistry = nil
        state = .notRunning
        hasLaunched = false
        badgeCount = 0
        notificationCenter = NotificationCenter(context: context, app: configuration)
        notificationCenter.owner = self
        context.record(
            .registration, .registrationReinstall,
            "reinstalled: status notDetermined; the old token no longer reaches the app, the next registration "
                + "hands out a new one", app: bundleID)
    }
}
