// The system's budget for background pushes (DEVICE-SEMANTICS.md 7): a few wakes an hour and a daily budget
// (the numbers are U: `DeviceConfiguration.backgroundPushBudget`). A push over budget is held, and only the
// newest one: a later push replaces it, a force-quit discards it, a launch delivers it at once, and otherwise
// it wakes the app when the budget allows again.

extension InstalledApp {
    /// Whether the app may be woken now; if not, holds `request` (the newest only) and schedules its wake.
    func withinBackgroundBudget(_ request: NotificationRequest) -> Bool {
        let now = context.now
        backgroundWakes.removeAll { $0 <= now + -86_400 }
        guard let freeAt = nextBackgroundWake(after: now) else { return true }
        if let held = heldBackgroundPush {
            context.record(
                .dropped, .backgroundNewestOnly,
                "a newer background push arrived: the held one is discarded (only the newest is kept)", app: bundleID,
                notification: held.identifier)
        }
        heldBackgroundPush = request
        let budget = context.configuration.backgroundPushBudget
        context.record(
            .notShown, .backgroundBudget,
            "over the background budget (\(budget.perHour) an hour, \(budget.perDay) a day): held until \(freeAt)",
            app: bundleID, notification: request.identifier)
        context.schedule(at: freeAt) { [weak self] in
            guard let self, self.heldBackgroundPush == request else { return }
            self.deliverHeldBackgroundPush(because: "the budget allows it again")
        }
        return false
    }

    /// When the budget next allows a wake; nil when it allows one now.
    private func nextBackgroundWake(after now: DeviceInstant) -> DeviceInstant? {
        let budget = context.configuration.backgroundPushBudget
        let lastHour = backgroundWakes.filter { $0 > now + -3600 }
        var free: DeviceInstant?
        if lastHour.count >= budget.perHour, budget.perHour >= 0 {
            free = lastHour[lastHour.count - budget.perHour] + 3600
        }
        if backgroundWakes.count >= budget.perDay, budget.perDay >= 0 {
            let day = backgroundWakes[backgroundWakes.count - budget.perDay] + 86_400
            free = max(free ?? day, day)
        }
        return free
    }

    func deliverHeldBackgroundPush(because why: String) {
        guard let held = heldBackgroundPush else { return }
        heldBackgroundPush = nil
        context.record(
            .appWoken, .backgroundNewestOnly, "the held background push is delivered: \(why)", app: bundleID,
            notification: held.identifier)
        wakeInBackground(held)
    }

    func discardHeldBackgroundPush(because why: String) {
        guard let held = heldBackgroundPush else { return }
        heldBackgroundPush = nil
        context.record(
            .dropped, .backgroundNewestOnly, "the held background push is discarded: \(why)", app: bundleID,
            notification: held.identifier)
    }
}

extension InstalledApp {
    /// The system ends an app that did not call its fetch completion handler in time; the missed call counts as
    /// one more wake against the budget (Apple: apps that use much power are woken less; how much is U).
    func terminatedForMissedFetchHandler() {
        if state != .forceQuit { state = .notRunning }
        backgroundWakes.append(context.now)
    }
}
