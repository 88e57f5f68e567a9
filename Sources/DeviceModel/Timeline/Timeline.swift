/// What happened on the device, in order: every decision (a prompt, a token, a notification shown or
/// not, a request dropped) with the rule that decided it.
///
/// `herald device run` prints it; tests read it to check which rule applied.
/// Thread-safety: not thread-safe; owned by the device.
public final class Timeline {
    public private(set) var entries: [TimelineEntry] = []
    /// Called with each entry as it is recorded: `herald device run` prints the timeline as it happens.
    public var onRecord: ((TimelineEntry) -> Void)?

    public init() {}

    func record(
        _ kind: TimelineEntry.Kind, _ rule: DeviceRule, _ message: String, at time: DeviceInstant, app: String,
        notification: String? = nil
    ) {
        let entry = TimelineEntry(
            time: time, app: app, kind: kind, notificationID: notification, rule: rule, message: message)
        entries.append(entry)
        onRecord?(entry)
    }

    /// The entries a rule decided.
    public func entries(decidedBy rule: DeviceRule) -> [TimelineEntry] {
        entries.filter { $0.rule == rule }
    }

    /// The entries about one notification request.
    public func entries(forNotification identifier: String) -> [TimelineEntry] {
        entries.filter { $0.notificationID == identifier }
    }

    /// One line per entry.
    public var text: String {
        entries.map(\.description).joined(separator: "\n")
    }
}

/// One decision on the timeline.
public struct TimelineEntry: Sendable, Hashable, CustomStringConvertible {
    /// What sort of decision.
    public enum Kind: String, Sendable, Hashable {
        case authorization
        case settings
        case registration
        /// A push arrived and was classified.
        case received
        /// The service extension ran, was called back, or ran out of time.
        case serviceExtension = "service-extension"
        /// The user saw (or could find) the notification.
        case presented
        /// The notification reached the device but the user was shown nothing.
        case notShown = "not-shown"
        /// The request went nowhere: no app, bad payload, a late callback.
        case dropped
        /// The app ran code because of the notification.
        case appWoken = "app-woken"
        /// The user did something: tapped, chose an action, dismissed.
        case userAction = "user"
        /// A local request was scheduled, replaced or fired.
        case scheduled
        /// A pending request was removed, by the app or by the pending limit.
        case removed
        /// A Live Activity started, changed state, or was refused.
        case activity
    }

    public let time: DeviceInstant
    /// The app's bundle id; empty for device-wide entries.
    public let app: String
    public let kind: Kind
    /// The notification request's identifier, when the entry is about one.
    public let notificationID: String?
    public let rule: DeviceRule
    /// What happened, in a sentence.
    public let message: String

    /// `2026-01-01T09:00:00Z com.example.app presented [NSE-MODIFIED 3.4 D] id=order-1: ...`.
    public var description: String {
        let app = app.isEmpty ? "device" : app
        let id = notificationID.map { " id=\($0)" } ?? ""
        return "\(time) \(app) \(kind.rawValue) [\(rule.id) \(rule.section) \(rule.label.rawValue)]\(id): \(message)"
    }
}
