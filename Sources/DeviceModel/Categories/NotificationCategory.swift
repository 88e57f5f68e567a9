/// `UNNotificationCategoryOptions`. Raw values are Apple's.
public struct NotificationCategoryOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// An explicit dismiss reaches the app's `didReceive` with `dismissActionIdentifier`.
    public static let customDismissAction = NotificationCategoryOptions(rawValue: 1 << 0)
    public static let allowInCarPlay = NotificationCategoryOptions(rawValue: 1 << 1)
    public static let hiddenPreviewsShowTitle = NotificationCategoryOptions(rawValue: 1 << 2)
    public static let hiddenPreviewsShowSubtitle = NotificationCategoryOptions(rawValue: 1 << 3)
    /// Deprecated by Apple and ignored.
    public static let allowAnnouncement = NotificationCategoryOptions(rawValue: 1 << 4)
}

/// `UNNotificationCategory`: a type of notification the app declares, with its buttons.
public struct NotificationCategory: Sendable, Hashable {
    public var identifier: String
    public var actions: [NotificationAction]
    public var intentIdentifiers: [String]
    /// Shown instead of the body when previews are hidden; `%u` is the number in the thread.
    public var hiddenPreviewsBodyPlaceholder: String?
    /// The group summary's format.
    public var categorySummaryFormat: String?
    public var options: NotificationCategoryOptions

    public init(
        identifier: String, actions: [NotificationAction], intentIdentifiers: [String] = [],
        hiddenPreviewsBodyPlaceholder: String? = nil, categorySummaryFormat: String? = nil,
        options: NotificationCategoryOptions = []
    ) {
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intentIdentifiers
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
        self.categorySummaryFormat = categorySummaryFormat
        self.options = options
    }

    /// How many buttons a banner offers.
    public static let bannerActionLimit = 2
    /// How many buttons the expanded notification offers when space allows.
    public static let expandedActionLimit = 10
}
