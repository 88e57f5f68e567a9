// The Live Activity rules the model applies (DEVICE-SEMANTICS.md 9).

extension DeviceRule {
    public static let activityPushToStartToken = DeviceRule(
        "LA-PUSH-TO-START-TOKEN", "9", .documented,
        "An app gets one push-to-start token per attributes type (pushToStartTokenUpdates), for its backend.",
        source: "Starting and updating Live Activities with ActivityKit push notifications")
    public static let activityStartByPush = DeviceRule(
        "LA-START-PUSH", "9", .documented,
        "A push with event start, an alert, attributes-type and attributes starts the activity and wakes the app "
            + "in the background.", source: "Starting and updating Live Activities with ActivityKit push notifications")
    public static let activityStartInvalid = DeviceRule(
        "LA-START-INVALID", "9", .documented,
        "A start push without an alert, or whose attributes-type is not the token's type, or without attributes or "
            + "content-state, starts nothing.",
        source: "Starting and updating Live Activities with ActivityKit push "
            + "notifications (the alert is mandatory)")
    public static let activityStartForeground = DeviceRule(
        "LA-START-FOREGROUND", "9", .documented,
        "Activity.request works only in the foreground; otherwise it throws ActivityAuthorizationError.visibility.",
        source: "Displaying live data with Live Activities")
    public static let activityUpdateToken = DeviceRule(
        "LA-UPDATE-TOKEN", "9", .documented,
        "A started activity's update token reaches the app through pushTokenUpdates, for its backend to store.",
        source: "Starting and updating Live Activities with ActivityKit push notifications")
    public static let activityPayload = DeviceRule(
        "LA-PAYLOAD", "9", .documented,
        "A Live Activity push needs event (start, update or end) and timestamp; an update needs content-state.",
        source: "Starting and updating Live Activities with ActivityKit push notifications")
    public static let activityUpdate = DeviceRule(
        "LA-UPDATE", "9", .documented,
        "An update replaces the content state, stale date and relevance score; an alert in it is shown.",
        source: "Starting and updating Live Activities with ActivityKit push notifications")
    public static let activityOrder = DeviceRule(
        "LA-ORDER", "9", .undocumented,
        "An update or end whose timestamp is not newer than the last one applied is dropped.",
        source: "Apple: the timestamp lets the system always display the most recent update; default: older "
            + "or equal timestamps are dropped")
    public static let activityEnded = DeviceRule(
        "LA-ENDED", "9", .documented, "Pushes to an ended or dismissed activity are ignored.",
        source: "Displaying live data with Live Activities")
    public static let activityEnd = DeviceRule(
        "LA-END", "9", .documented,
        "An end push ends the activity; it stays visible until its dismissal: dismissal-date in the past means "
            + "at once, a later one at most 4 hours after the end, none (the default policy) 4 hours after the end.",
        source: "Displaying live data with Live Activities (dismissalPolicy)")
    public static let activityDismissed = DeviceRule(
        "LA-DISMISSED", "9", .documented,
        "At its dismissal time an ended activity is removed from the Lock Screen: state dismissed.",
        source: "Displaying live data with Live Activities")
    public static let activityStale = DeviceRule(
        "LA-STALE", "9", .documented, "At its stale date an active activity becomes stale.",
        source: "ActivityState.stale (iOS 16.2)")
    public static let activityLifetime = DeviceRule(
        "LA-LIFETIME", "9", .documented,
        "After 8 hours an activity is ended by the system; after 12 hours it leaves the Lock Screen.",
        source: "Displaying live data with Live Activities")
    public static let activityBudget = DeviceRule(
        "LA-BUDGET", "9", .undocumented,
        "A priority-10 update over the activity's hourly budget is throttled: not applied. Priority 5 is not "
            + "counted; ends are never throttled.",
        source: "Apple: priority 10 counts against a budget, NSSupportsLiveActivitiesFrequentUpdates raises it, "
            + "the user can switch that off; no numbers. Default: per activity, 10 an hour, 230 with frequent "
            + "updates (O: about 230 remaining at level frequent, luka-ios #146), an update over it dropped")
    public static let activityChannel = DeviceRule(
        "LA-CHANNEL", "9", .documented,
        "An activity started with pushType .channel(id) (or a start push with input-push-channel) listens to "
            + "broadcasts on the channel and gets no update token; an id that is not base64 fails the start.",
        source: "PushType.channel(_:) (the id is base64); Starting and updating Live Activities with ActivityKit "
            + "push notifications")
    public static let activityBroadcast = DeviceRule(
        "LA-BROADCAST", "9", .documented,
        "A broadcast on a channel reaches every activity listening to it, applied as a push to its token; it "
            + "cannot start an activity.",
        source: "Starting and updating Live Activities with ActivityKit push notifications (broadcast push)")
}
