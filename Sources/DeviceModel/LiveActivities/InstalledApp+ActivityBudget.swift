// The priority-10 budget of Live Activity updates (DEVICE-SEMANTICS.md 9). Apple: an update at priority 10
// (the default) counts against a budget, one over it is throttled; priority 5 is not counted;
// NSSupportsLiveActivitiesFrequentUpdates raises the budget and the user can switch that off. Apple gives no
// numbers: the model counts per activity, in any hour, and drops an update over the budget.

/// How many priority-10 updates one Live Activity takes in any hour. Apple publishes no numbers; the model takes
/// 10 an hour, and 230 with frequent updates (about 230 "remaining" was seen at level "frequent" in a
/// `liveactivitiesd` dump, luka-ios #146).
public struct LiveActivityBudget: Sendable, Hashable {
    public var perHour: Int
    /// For an app with `supportsLiveActivitiesFrequentUpdates` whose user left frequent updates on.
    public var frequentPerHour: Int

    public init(perHour: Int = 10, frequentPerHour: Int = 230) {
        self.perHour = perHour
        self.frequentPerHour = frequentPerHour
    }

    /// No limit.
    public static let unlimited = LiveActivityBudget(perHour: .max, frequentPerHour: .max)
}

extension InstalledApp {
    /// Whether an update at `priority` may be applied to `activity` now; counts it if so, records the drop if not.
    func withinActivityBudget(_ activity: Activity, priority: Int, via: String) -> Bool {
        guard priority == 10 else { return true }
        let now = context.now
        activity.priorityTenUpdates.removeAll { $0 <= now + -3600 }
        let budget = context.configuration.liveActivityBudget
        let frequent = configuration.supportsLiveActivitiesFrequentUpdates && frequentPushesEnabled
        let limit = frequent ? budget.frequentPerHour : budget.perHour
        guard activity.priorityTenUpdates.count >= limit else {
            activity.priorityTenUpdates.append(now)
            return true
        }
        let freeAt = activity.priorityTenUpdates[activity.priorityTenUpdates.count - limit] + 3600
        context.record(
            .dropped, .activityBudget,
            "update \(via) at priority 10 over the budget (\(limit) an hour"
                + (frequent ? ", frequent updates" : "") + "): throttled, not applied; the next fits at \(freeAt), "
                + "priority 5 is not counted", app: bundleID, notification: activity.id)
        return false
    }
}
