import APNs

/// A device profile: one app on one device and a script to play, read from JSON (kebab-case keys, documented
/// in docs/DEVICE.md, "Device profiles"). `herald device run PROFILE.json` plays one; `ProfileRun` plays one in
/// Swift.
public struct DeviceProfile: Sendable {
    public var app: AppConfiguration
    public var categories: [NotificationCategory]
    /// The app's `UNUserNotificationCenterDelegate`; nil sets none.
    public var delegate: DelegateChoice?
    public var serviceExtension: ServiceExtensionChoice?
    /// Attributes types whose push-to-start tokens the app asks for at launch.
    public var pushToStartTypes: [String]
    public var user: ScriptedUser
    public var deviceConfiguration: DeviceConfiguration
    public var locked: Bool
    public var seed: UInt64
    public var script: [ProfileStep]

    public init(
        app: AppConfiguration, categories: [NotificationCategory] = [], delegate: DelegateChoice? = nil,
        serviceExtension: ServiceExtensionChoice? = nil, pushToStartTypes: [String] = [],
        user: ScriptedUser = ScriptedUser(), deviceConfiguration: DeviceConfiguration = DeviceConfiguration(),
        locked: Bool = false, seed: UInt64 = 1, script: [ProfileStep] = []
    ) {
        self.app = app
        self.categories = categories
        self.delegate = delegate
        self.serviceExtension = serviceExtension
        self.pushToStartTypes = pushToStartTypes
        self.user = user
        self.deviceConfiguration = deviceConfiguration
        self.locked = locked
        self.seed = seed
        self.script = script
    }

    /// Which delegate methods the app implements.
    public struct DelegateChoice: Sendable, Hashable {
        /// What `willPresent` returns; nil: not implemented.
        public var willPresent: PresentationOptions?
        /// Whether `didReceive` is implemented.
        public var didReceive: Bool

        public init(willPresent: PresentationOptions?, didReceive: Bool) {
            self.willPresent = willPresent
            self.didReceive = didReceive
        }
    }

    /// The service extension's behaviour; a rewrite changes only the text fields it names.
    public struct ServiceExtensionChoice: Sendable, Hashable {
        public enum Behaviour: String, Sendable, Hashable, CaseIterable {
            case passThrough = "pass-through"
            case rewrite
            case rewriteOnExpiry = "rewrite-on-expiry"
            case neverCall = "never-call"
            case callTwice = "call-twice"
            case suppress
        }

        public var behaviour: Behaviour
        public var title: String?
        public var subtitle: String?
        public var body: String?
        /// Seconds before a rewrite calls the content handler.
        public var after: Double

        public init(
            behaviour: Behaviour, title: String? = nil, subtitle: String? = nil, body: String? = nil, after: Double = 0
        ) {
            self.behaviour = behaviour
            self.title = title
            self.subtitle = subtitle
            self.body = body
            self.after = after
        }
    }
}

/// One step of a profile's script.
public enum ProfileStep: Sendable, Hashable {
    case launch
    case moveToBackground
    case moveToForeground
    case forceQuit
    case lock
    case unlock
    case requestAuthorization(AuthorizationOptions)
    case register
    /// Waits for `count` pushes from the emulator (an error after `timeout` seconds).
    case waitForPush(count: Int, timeout: Double)
    /// A push reaches the device from the profile itself (runs without an emulator).
    case push(ProfilePush)
    /// The clock moves on: a virtual clock is advanced, a real one waited for.
    case wait(Double)
    case open(notification: String?)
    case chooseAction(String, text: String?, notification: String?)
    case dismiss(notification: String?)
    case addLocal(identifier: String, content: NotificationContent, after: Double?, repeats: Bool)
    case startActivity(attributesType: String, attributes: JSONObject, contentState: JSONObject)
    /// `Activity.request(... pushType: .channel(channelID))`: an activity that listens to broadcasts.
    case startChannelActivity(
        attributesType: String, attributes: JSONObject, contentState: JSONObject, channelID: String)
    case endActivity(dismissImmediately: Bool)
    /// The device's tokens change (a backup restore tells a registered app at once).
    case rotateTokens(TokenRotation)
    /// The user deletes the app and installs it again (a new token at its next registration).
    case reinstall
    /// The user turns a Focus on, or off (nil).
    case focus(Focus?)
    /// A local request with a location trigger.
    case addLocationRequest(identifier: String, content: NotificationContent, trigger: LocationTrigger)
    /// The device moves to a position (location triggers whose region it enters or leaves fire).
    case move(Coordinate)
    /// The user grants (or refuses) the app location authorization.
    case locationAuthorization(LocationAuthorization)
    /// The user turns Scheduled Summary on, at these times of day, and puts the app in it.
    case scheduledSummary(times: [CalendarComponents])
}

/// A push a profile delivers itself.
public struct ProfilePush: Sendable, Hashable {
    /// Which token it goes to.
    public enum Target: Sendable, Hashable {
        /// The app's device token.
        case device
        /// The push-to-start token of an attributes type.
        case pushToStart(String)
        /// The update token of the app's latest activity.
        case latestActivity
        /// A broadcast on this channel (a `liveactivity` push).
        case channel(String)
    }

    public var target: Target
    public var pushType: PushType
    public var collapseID: String?
    public var payload: JSONValue
    /// `apns-priority` (10, 5 or 1).
    public var priority: Int

    public init(
        target: Target = .device, pushType: PushType = .alert, collapseID: String? = nil, payload: JSONValue,
        priority: Int = 10
    ) {
        self.target = target
        self.pushType = pushType
        self.collapseID = collapseID
        self.payload = payload
        self.priority = priority
    }
}
