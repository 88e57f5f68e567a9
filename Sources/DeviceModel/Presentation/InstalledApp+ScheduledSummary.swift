import APNs

// Scheduled Summary (DEVICE-SEMANTICS.md 8): when the user turned it on (`Device.isScheduledSummaryOn`) and
// put the app in it (the app's scheduledDeliverySetting enabled), passive and active notifications that
// arrive outside the foreground are held; at each summary time (8:00 and 18:00 by default, in the device's
// zone) the held ones are listed at once, quietly, ordered by relevance score (the highest is featured).
// Time-sensitive (with its entitlement) and critical notifications break through and present at once.

extension InstalledApp {
    /// Holds `notification` for the next summary if the summary takes it; true when held.
    func holdForSummary(
        _ notification: DeliveredNotification, level: InterruptionLevel, _ settings: NotificationSettings,
        _ time: DeviceInstant
    ) -> Bool {
        guard context.scheduledSummaryOn, settings.scheduledDeliverySetting.isEnabled, state != .foreground else {
            return false
        }
        let id = notification.request.identifier
        guard level == .passive || level == .active else {
            context.record(
                .presented, .summaryDelivery, "\(level.rawValue) breaks through the scheduled summary", app: bundleID,
                notification: id, at: time)
            return false
        }
        guard let delivery = nextSummaryTime(after: time) else { return false }
        heldForSummary.removeAll { $0.notification.request.identifier == id }
        heldForSummary.append((notification, level))
        context.record(
            .notShown, .summaryDelivery, "in the scheduled summary: held until \(delivery)", app: bundleID,
            notification: id, at: time)
        if summaryArmedFor != delivery {
            summaryArmedFor = delivery
            context.schedule(at: delivery) { [weak self] in self?.deliverSummary(at: delivery) }
        }
        return true
    }

    private func nextSummaryTime(after time: DeviceInstant) -> DeviceInstant? {
        context.scheduledSummaryTimes.compactMap { components in
            (try? CalendarTrigger(dateMatching: components, repeats: true))?.nextTriggerDate(
                after: time, deviceZone: context.timeZoneIdentifier, deviceOffset: context.timeZoneOffset)
        }.min()
    }

    /// Lists what the summary held, highest relevance first (ties: in arrival order), without banner or sound.
    private func deliverSummary(at time: DeviceInstant) {
        guard summaryArmedFor == time else { return }
        summaryArmedFor = nil
        let held = heldForSummary.enumerated().sorted { first, second in
            let left = first.element.notification.request.content.relevanceScore
            let right = second.element.notification.request.content.relevanceScore
            return left != right ? left > right : first.offset < second.offset
        }.map { $0.element }
        heldForSummary = []
        guard let featured = held.first else { return }
        let settings = notificationCenter.notificationSettings()
        // Listed in reverse so that the featured notification ends up on top of Notification Center.
        for (notification, level) in held.reversed() {
            let content = notification.request.content
            let listed = settings.notificationCenterSetting.isEnabled
            let badge = content.badge != nil && settings.badgeSetting.isEnabled ? content.badge : nil
            guard listed || badge != nil else { continue }
            apply(
                Presentation(
                    notification: DeliveredNotification(date: time, request: notification.request), banner: false,
                    listed: listed, sound: nil, badge: badge, interruptionLevel: level, inForeground: false))
        }
        let order = held.map {
            "\($0.notification.request.identifier) (\($0.notification.request.content.relevanceScore))"
        }
        context.record(
            .presented, .summaryOrder,
            "scheduled summary: \(held.count) listed, by relevance score: " + order.joined(separator: ", ")
                + "; featured: \(featured.notification.request.identifier)"
                + render(featured.notification.request.content).quoted, app: bundleID,
            notification: featured.notification.request.identifier, at: time)
    }
}
