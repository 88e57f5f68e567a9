extension NotificationCenter {
    /// `setNotificationCategories(_:)`: replaces every category registered before. A category with an empty
    /// or repeated id, and an action whose id another action already has, are left out and recorded.
    public func setNotificationCategories(_ newCategories: [NotificationCategory]) {
        var kept: [NotificationCategory] = []
        var categoryIDs: Set<String> = []
        var actionIDs: Set<String> = []
        var decisions: [Decision] = []
        for var category in newCategories {
            guard !category.identifier.isEmpty, categoryIDs.insert(category.identifier).inserted else {
                let why = category.identifier.isEmpty ? "an empty id" : "the id \"\(category.identifier)\" again"
                decisions.append(
                    Decision(kind: .settings, rule: .categoryIdentifiers, message: "category with \(why): left out"))
                continue
            }
            category.actions = category.actions.filter { action in
                if actionIDs.insert(action.identifier).inserted { return true }
                decisions.append(
                    Decision(
                        kind: .settings, rule: .categoryIdentifiers,
                        message: "action \(action) in category \(category.identifier): the id is already used, left out"
                    ))
                return false
            }
            kept.append(category)
        }
        let replaced = categories.map(\.identifier)
        categories = kept
        decisions.insert(
            Decision(
                kind: .settings, rule: .categoriesReplace,
                message: "categories set: [\(kept.map(\.identifier).joined(separator: ", "))]"
                    + (replaced.isEmpty ? "" : ", replacing [\(replaced.joined(separator: ", "))]")), at: 0)
        record(decisions)
    }

    /// The buttons a delivered notification offers: none without a registered category, the first two on a
    /// banner, up to ten expanded.
    public func actions(for notification: DeliveredNotification, inBanner: Bool) -> [NotificationAction] {
        guard let category = category(of: notification) else { return [] }
        let limit = inBanner ? NotificationCategory.bannerActionLimit : NotificationCategory.expandedActionLimit
        return Array(category.actions.prefix(limit))
    }

    func category(of notification: DeliveredNotification) -> NotificationCategory? {
        let identifier = notification.request.content.categoryIdentifier
        guard !identifier.isEmpty else { return nil }
        return categories.first { $0.identifier == identifier }
    }
}
