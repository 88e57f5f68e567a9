import APNs

/// `UNNotificationContent`: what a notification says and does.
public struct NotificationContent: Sendable, Hashable {
    public var title: String
    public var subtitle: String
    public var body: String
    /// nil leaves the app's badge as it is; 0 hides it.
    public var badge: Int?
    public var sound: NotificationSound?
    public var categoryIdentifier: String
    public var threadIdentifier: String
    /// For a remote notification, the whole payload (`aps` included), as iOS hands it to the app.
    public var userInfo: JSONObject
    public var interruptionLevel: InterruptionLevel
    /// 0 to 1: which of the app's notifications the summary features.
    public var relevanceScore: Double
    public var targetContentIdentifier: String?
    public var filterCriteria: String?
    /// `summary-arg` (`summaryArgument`): what `%@` of the category's summary format names (iOS 12 to 14).
    public var summaryArgument = ""
    /// `summary-arg-count` (`summaryArgumentCount`): how many items this notification counts for in `%u`; 1.
    public var summaryArgumentCount = 1
    /// Files shown with the notification (a service extension or a local request adds them).
    public var attachments: [NotificationAttachment] = []

    public init(
        title: String = "", subtitle: String = "", body: String = "", badge: Int? = nil,
        sound: NotificationSound? = nil,
        categoryIdentifier: String = "", threadIdentifier: String = "", userInfo: JSONObject = JSONObject(),
        interruptionLevel: InterruptionLevel = .active, relevanceScore: Double = 0,
        targetContentIdentifier: String? = nil,
        filterCriteria: String? = nil
    ) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.badge = badge
        self.sound = sound
        self.categoryIdentifier = categoryIdentifier
        self.threadIdentifier = threadIdentifier
        self.userInfo = userInfo
        self.interruptionLevel = interruptionLevel
        self.relevanceScore = relevanceScore
        self.targetContentIdentifier = targetContentIdentifier
        self.filterCriteria = filterCriteria
    }

    /// Whether there is text to show in an alert: a title, subtitle or body.
    public var hasAlertText: Bool {
        !title.isEmpty || !subtitle.isEmpty || !body.isEmpty
    }

    /// Whether this is `UNNotificationContent()` as it comes: nothing to show, sound or badge.
    var isEmpty: Bool {
        !hasAlertText && badge == nil && sound == nil
    }
}

/// `UNNotificationSound`.
public enum NotificationSound: Sendable, Hashable, CustomStringConvertible {
    case `default`
    /// A file in the app bundle or `Library/Sounds`.
    case named(String)
    /// `defaultCritical` when `name` is nil, `criticalSoundNamed(_:withAudioVolume:)` otherwise.
    case critical(name: String?, volume: Double?)

    public var isCritical: Bool {
        if case .critical = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .default: "default"
        case .named(let name): name
        case .critical(let name, let volume):
            "critical \(name ?? "default")" + (volume.map { " at volume \($0)" } ?? "")
        }
    }
}
