// Grouping in Notification Center (DEVICE-SEMANTICS.md 5): notifications without a thread-id make one
// group per app, those with one a group per (app, thread); the newest leads. Under the lead, the group's
// summary: the category's `categorySummaryFormat` with `%u` (how many more, each counting its
// summary-arg-count) and `%@` (their summary-args), or "N more notifications" without a format.

/// One stack of notifications in Notification Center.
public struct NotificationGroup: Sendable, Hashable {
    public var bundleID: String
    /// The thread (`thread-id`); empty: the app's group for notifications without one.
    public var threadIdentifier: String
    /// Newest first: the first one leads the stack.
    public var notifications: [DeliveredNotification]
    /// The line under the leading notification; empty for a group of one.
    public var summaryText: String

    public init(
        bundleID: String, threadIdentifier: String, notifications: [DeliveredNotification], summaryText: String
    ) {
        self.bundleID = bundleID
        self.threadIdentifier = threadIdentifier
        self.notifications = notifications
        self.summaryText = summaryText
    }
}

extension NotificationCenter {
    /// The delivered notifications as Notification Center stacks them: by thread, groups ordered by their newest
    /// notification, each with its summary text.
    public func notificationGroups() -> [NotificationGroup] {
        var order: [String] = []
        var members: [String: [DeliveredNotification]] = [:]
        for notification in deliveredNotifications.sorted(by: { $0.date > $1.date }) {
            let thread = notification.request.content.threadIdentifier
            if members[thread] == nil { order.append(thread) }
            members[thread, default: []].append(notification)
        }
        return order.map { thread in
            let stack = members[thread] ?? []
            return NotificationGroup(
                bundleID: app.bundleID, threadIdentifier: thread, notifications: stack,
                summaryText: summaryText(for: stack))
        }
    }

    /// The summary under a group's lead; empty for a group of one.
    private func summaryText(for stack: [DeliveredNotification]) -> String {
        let others = stack.dropFirst()
        guard !others.isEmpty else { return "" }
        let lead = stack[0].request.content
        let count = others.reduce(0) { $0 + $1.request.content.summaryArgumentCount }
        guard let format = categories.first(where: { $0.identifier == lead.categoryIdentifier })?.categorySummaryFormat
        else {
            return count == 1 ? "1 more notification" : "\(count) more notifications"
        }
        var arguments: [String] = []
        for notification in others {
            let argument = notification.request.content.summaryArgument
            if !argument.isEmpty, !arguments.contains(argument) { arguments.append(argument) }
        }
        let names =
            arguments.count <= 1
            ? arguments.first ?? "" : arguments.dropLast().joined(separator: ", ") + " and " + (arguments.last ?? "")
        return format.replacing("%u", with: "\(count)").replacing("%@", with: names)
    }
}
