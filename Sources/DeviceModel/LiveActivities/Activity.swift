import APNs

/// ActivityKit's `Activity`: one Live Activity of an app, its content and where it is in its life.
///
/// ```
///  start (push or request) --> active --stale date--> stale
///                                |  ^ update            |
///                                |  +-------------------+
///                                v end (push, or 8 h)
///                              ended (visible, frozen) --dismissal (or 12 h)--> dismissed
/// ```
/// Lifecycle: made by the system (a push-to-start push, or `InstalledApp.requestActivity`); kept in
/// `InstalledApp.activities` after it is dismissed, as a record.
/// Thread-safety: not thread-safe; runs on the device's task.
public final class Activity {
    /// The system's identifier (a UUID).
    public let id: String
    /// The attributes type's name (`attributes-type` in a push).
    public let attributesType: String
    /// The static attributes the activity was started with.
    public let attributes: JSONObject
    public internal(set) var contentState: JSONObject
    public internal(set) var activityState: ActivityState = .active
    /// The update token (`pushType: .token`), once the system handed it to the app.
    public internal(set) var pushToken: [UInt8]?
    public internal(set) var staleDate: DeviceInstant?
    public internal(set) var relevanceScore: Double
    /// The `timestamp` of the last push applied (seconds since 1970); nil for an activity started in the app
    /// and not updated by push yet.
    public internal(set) var lastTimestamp: Double?
    public let startedAt: DeviceInstant
    public internal(set) var endedAt: DeviceInstant?
    /// When the ended activity leaves the Lock Screen.
    public internal(set) var dismissalDate: DeviceInstant?
    /// The broadcast channel the activity listens to (`pushType: .channel(id)`); nil: updates come to its token.
    public internal(set) var channelID: String?
    /// When priority-10 updates were applied, within the last hour (the budget counts them).
    var priorityTenUpdates: [DeviceInstant] = []

    init(
        id: String, attributesType: String, attributes: JSONObject, contentState: JSONObject,
        staleDate: DeviceInstant?, relevanceScore: Double, timestamp: Double?, startedAt: DeviceInstant
    ) {
        self.id = id
        self.attributesType = attributesType
        self.attributes = attributes
        self.contentState = contentState
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
        self.lastTimestamp = timestamp
        self.startedAt = startedAt
    }

    /// The update token as lowercase hex, what a backend stores; nil until the system handed it over.
    public var pushTokenHex: String? { pushToken.map(hex) }

    /// How long an activity stays active before the system ends it.
    public static let activeLifetime: Double = 8 * 3600
    /// How long it may stay on the Lock Screen in all, from its start.
    public static let maximumLifetime: Double = 12 * 3600
    /// How long an ended activity stays on the Lock Screen under the default dismissal policy.
    public static let defaultDismissalDelay: Double = 4 * 3600
}

/// `ActivityState`.
public enum ActivityState: String, Sendable, Hashable {
    case active
    /// Past its stale date (iOS 16.2).
    case stale
    /// Ended: visible, frozen, until dismissed.
    case ended
    /// Removed from the Lock Screen.
    case dismissed
}

/// ActivityKit's `PushType`: how an activity gets its pushes.
public enum ActivityPushType: Sendable, Hashable {
    /// `.token`: an update token the app hands to its backend.
    case token
    /// `.channel(id)` (iOS 18): broadcasts on the channel, base64 as APNs made it.
    case channel(String)
}

/// `ActivityUIDismissalPolicy`, for an activity the app ends itself.
public enum ActivityDismissalPolicy: Sendable, Hashable {
    /// Up to 4 hours after the end.
    case `default`
    case immediate
    /// At the given time, but never later than 4 hours after the end.
    case after(DeviceInstant)
}

/// `ActivityAuthorizationError`, the cases the model raises.
public enum ActivityAuthorizationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Requested while the app was not in the foreground.
    case visibility
    /// `pushType: .channel(id)` with an id that is not base64, as APNs hands channel ids out.
    case invalidChannelID(String)

    public var description: String {
        switch self {
        case .visibility: "visibility: an activity can be started only while the app is in the foreground"
        case .invalidChannelID(let id): "the channel id '\(id)' is not base64: the activity does not start"
        }
    }
}

/// What the app hears about its activities: ActivityKit's async sequences, as closures.
public struct ActivityObserver {
    /// `Activity.pushTokenUpdates`: the activity's update token, for the backend.
    public var pushTokenUpdate: ((Activity, [UInt8]) -> Void)?
    /// `Activity.activityUpdates` (a push-to-start activity reaches the app this way).
    public var activityStarted: ((Activity) -> Void)?

    public init(
        pushTokenUpdate: ((Activity, [UInt8]) -> Void)? = nil, activityStarted: ((Activity) -> Void)? = nil
    ) {
        self.pushTokenUpdate = pushTokenUpdate
        self.activityStarted = activityStarted
    }
}
