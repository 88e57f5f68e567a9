/// `UNUserNotificationCenter` for one app on one device: authorization, settings, the delegate and the
/// delivered list.
///
/// Apple's methods are asynchronous; the model's return at once, because the scripted user answers every
/// prompt at once and the model's time moves only with its clock. Every decision goes on the device's
/// timeline.
/// Thread-safety: not thread-safe; owned by its `InstalledApp`.
public final class NotificationCenter {
    let context: DeviceContext
    let app: AppConfiguration
    var authorization = AuthorizationMachine()
    /// Set it before the app finishes launching, as on iOS.
    public var delegate: NotificationCenterDelegate?
    /// `getDeliveredNotifications`: what Notification Center lists, newest first.
    public internal(set) var deliveredNotifications: [DeliveredNotification] = []
    /// The categories from the last `setNotificationCategories`.
    public internal(set) var categories: [NotificationCategory] = []
    /// Local requests waiting for their trigger, oldest added first.
    var pending: [PendingRequest] = []
    /// Numbers the requests in the order they were added (the pending limit drops the lowest).
    var additions = 0
    /// The app that presents what this center delivers.
    weak var owner: InstalledApp?

    init(context: DeviceContext, app: AppConfiguration) {
        self.context = context
        self.app = app
    }

    /// `requestAuthorization(options:)`: prompts the scripted user the first time, reports the stored answer
    /// after. Returns `granted`: whether the app may now deliver notifications.
    @discardableResult
    public func requestAuthorization(options: AuthorizationOptions) -> Bool {
        expireEphemeral()
        let (granted, decisions) = authorization.request(
            options, entitlements: app.entitlements, user: context.user)
        record(decisions)
        return granted
    }

    /// `notificationSettings()`: the current settings (an App Clip's ephemeral grant ends here once its 8 hours
    /// are over).
    public func notificationSettings() -> NotificationSettings {
        expireEphemeral()
        return authorization.settings
    }

    /// The user edits the app's notification settings in the Settings app.
    public func userChangesSettings(_ edit: (inout NotificationSettings) -> Void) {
        expireEphemeral()
        record([authorization.change(edit)])
    }

    /// The user picks Keep or Turn Off on a provisional notification.
    public func userChooses(_ choice: ProvisionalChoice) {
        expireEphemeral()
        record([authorization.choose(choice, scheduledSummaryOn: context.scheduledSummaryOn)])
    }

    /// `removeDeliveredNotifications(withIdentifiers:)`: ids not in Notification Center are ignored.
    public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {
        let removed = Set(identifiers)
        deliveredNotifications.removeAll { removed.contains($0.request.identifier) }
    }

    public func removeAllDeliveredNotifications() {
        deliveredNotifications.removeAll()
    }

    func appClipLaunched() {
        expireEphemeral()
        if let decision = authorization.appClipLaunched(at: context.now) { record([decision]) }
        if let until = authorization.ephemeralUntil {
            context.schedule(at: until) { [weak self] in self?.expireEphemeral() }
        }
    }

    func expireEphemeral() {
        if let decision = authorization.expire(at: context.now) { record([decision]) }
    }

    func record(_ decisions: [Decision]) {
        for decision in decisions {
            context.record(decision.kind, decision.rule, decision.message, app: app.bundleID, at: decision.time)
        }
    }
}
