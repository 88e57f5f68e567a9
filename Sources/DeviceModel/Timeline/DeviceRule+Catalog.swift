// Every rule the device model applies, grouped as in DEVICE-SEMANTICS.md.

extension DeviceRule {
    // 1a. Authorization
    public static let authInitial = DeviceRule(
        "AUTH-INITIAL", "1a", .documented, "An app is notDetermined until its first requestAuthorization.",
        source: "authorizationStatus")
    public static let authPrompt = DeviceRule(
        "AUTH-PROMPT", "1a", .documented,
        "The first request without .provisional prompts the user; the answer is stored as authorized or denied.",
        source: "requestAuthorization(options:completionHandler:)")
    public static let authStored = DeviceRule(
        "AUTH-STORED", "1a", .documented, "Later requests never prompt; they report the stored state.",
        source: "requestAuthorization(options:completionHandler:)")
    public static let authProvisional = DeviceRule(
        "AUTH-PROVISIONAL", "1a", .documented,
        "The first request with .provisional is granted without a prompt: notifications arrive quietly, in "
            + "Notification Center only.", source: "Asking permission to use notifications")
    public static let authProvisionalPrompt = DeviceRule(
        "AUTH-PROVISIONAL-PROMPT", "1a", .undocumented,
        "A request without .provisional while provisional shows the standard prompt.",
        source: "default: prompt (widely observed)")
    public static let authProvisionalKeep = DeviceRule(
        "AUTH-PROVISIONAL-KEEP", "1a", .undocumented,
        "Keep, Deliver Immediately: the app is authorized, but alerts, sounds and badges stay off.",
        source: "Apple documents the quiet delivery, not the status; default: authorized with banner, sound and "
            + "badge off")
    public static let authProvisionalSummary = DeviceRule(
        "AUTH-PROVISIONAL-SUMMARY", "1a", .documented,
        "Keep, Deliver in Scheduled Summary, offered only while Scheduled Summary is on.",
        source: "Asking permission to use notifications")
    public static let authProvisionalTurnOff = DeviceRule(
        "AUTH-PROVISIONAL-TURN-OFF", "1a", .documented, "Turn Off, confirmed: denied.",
        source: "Asking permission to use notifications")
    public static let authSettingsChanged = DeviceRule(
        "AUTH-SETTINGS-CHANGED", "1a", .documented, "The user can change the status or any setting at any time.",
        source: "UNNotificationSettings")
    public static let authEphemeral = DeviceRule(
        "AUTH-EPHEMERAL", "1a", .documented,
        "An App Clip with NSAppClipRequestEphemeralUserNotification is ephemeral for up to 8 hours after each launch.",
        source: "Enabling notifications in App Clips")
    public static let authEphemeralExpired = DeviceRule(
        "AUTH-EPHEMERAL-EXPIRED", "1a", .undocumented,
        "8 hours after the launch the App Clip's ephemeral authorization ends.",
        source: "default: the status returns to notDetermined until the next launch")
    public static let authEphemeralOverridden = DeviceRule(
        "AUTH-EPHEMERAL-OVERRIDDEN", "1a", .documented,
        "A denied request, or notifications turned off on the App Clip card, overrides ephemeral authorization.",
        source: "Enabling notifications in App Clips")
    public static let authUnrequestedOption = DeviceRule(
        "AUTH-UNREQUESTED-OPTION", "1c", .undocumented,
        "A setting whose option the app never requested is notSupported.",
        source: "default: notSupported (Settings shows no switch for it)")

    // 1b. Critical alerts and Time Sensitive
    public static let authCritical = DeviceRule(
        "AUTH-CRITICAL", "1b", .documented,
        "Critical alerts need the critical-alerts entitlement and the .criticalAlert option; asking shows a "
            + "separate prompt (O).", source: "criticalAlert; Critical Alerts entitlement")
    public static let authTimeSensitive = DeviceRule(
        "AUTH-TIME-SENSITIVE", "1b", .documented,
        "Time Sensitive needs the time-sensitive entitlement, not an option; there is no prompt.",
        source: "UNAuthorizationOptions.timeSensitive (deprecated)")
    public static let levelWithoutEntitlement = DeviceRule(
        "LEVEL-NO-ENTITLEMENT", "1b", .undocumented,
        "A time-sensitive or critical notification without the entitlement (and, for critical, the granted "
            + "setting) is presented as active.", source: "default: downgrade to active")

    // 2. Registration
    public static let registrationIndependent = DeviceRule(
        "REG-INDEPENDENT", "2", .documented,
        "Registering for remote notifications does not depend on authorization.",
        source: "registerForRemoteNotifications()")
    public static let registrationToken = DeviceRule(
        "REG-TOKEN", "2", .documented,
        "Registration hands the app its token as bytes, unique per app and device; registering again returns the "
            + "same token.", source: "Registering your app with APNs")
    public static let registrationNoEntitlement = DeviceRule(
        "REG-NO-ENTITLEMENT", "2", .documented, "Without the aps-environment entitlement registration fails.",
        source: "Registering your app with APNs")
    public static let registrationOfflineFirst = DeviceRule(
        "REG-OFFLINE-FIRST", "2", .observed,
        "A first-ever registration while the device is offline calls neither callback.",
        source: "developer posts (CSDN, juejin)")
    public static let registrationRotation = DeviceRule(
        "REG-ROTATION", "2", .documented,
        "The token changes after a backup restore, on a new device, after an OS reinstall or erase; after a "
            + "restore UIKit calls the delegate unprompted.",
        source: "application(_:didRegisterForRemoteNotificationsWithDeviceToken:)")
    public static let registrationReinstall = DeviceRule(
        "REG-REINSTALL", "2", .undocumented, "A reinstalled app gets a new token.",
        source: "observed since iOS 9; default: new token, the old one no longer reaches the app")
    public static let registrationEnvironment = DeviceRule(
        "REG-ENVIRONMENT", "2", .observed, "Sandbox and production tokens differ.", source: "developer reports")
    public static let tokenNotCurrent = DeviceRule(
        "REG-TOKEN-NOT-CURRENT", "2", .undocumented,
        "A push to a token the device no longer (or never) handed out reaches no app.",
        source: "default: dropped; APNs would answer 400 BadDeviceToken or 410 Unregistered")

    // 3. The remote pipeline
    public static let pushPayload = DeviceRule(
        "PUSH-PAYLOAD", "3", .undocumented, "A payload that is not a JSON object with an aps dictionary shows nothing.",
        source: "APNs refuses such payloads; default: dropped")
    public static let pushTypeNotModelled = DeviceRule(
        "PUSH-TYPE-NOT-MODELLED", "3", .undocumented,
        "Push types other than alert, background, liveactivity and voip are not modelled yet.",
        source: "default: recorded and dropped")
    public static let pushIdentifier = DeviceRule(
        "PUSH-IDENTIFIER", "3.2", .documented,
        "apns-collapse-id becomes the request's identifier; otherwise the system assigns one.",
        source: "Sending notification requests to APNs")
    public static let classifyAlert = DeviceRule(
        "CLASSIFY-ALERT", "3.3", .documented, "alert, sound or badge makes an alert notification.",
        source: "Generating a remote notification")
    public static let classifyBackground = DeviceRule(
        "CLASSIFY-BACKGROUND", "3.3", .documented, "content-available:1 alone makes a background update.",
        source: "Pushing background updates to your App")
    public static let classifyAlertAndBackground = DeviceRule(
        "CLASSIFY-ALERT-BACKGROUND", "3.3", .documented,
        "An alert with content-available:1 is shown and also wakes the app.",
        source: "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)")
    public static let classifyNothing = DeviceRule(
        "CLASSIFY-NOTHING", "3.3", .undocumented,
        "aps without alert, sound, badge or content-available shows nothing and wakes nothing.",
        source: "default: nothing happens")
    public static let unauthorizedSilent = DeviceRule(
        "PUSH-UNAUTHORIZED", "2", .documented,
        "Without authorization the system delivers remote notifications silently: nothing is shown.",
        source: "registerForRemoteNotifications()")
    public static let backgroundFetchHandler = DeviceRule(
        "BACKGROUND-FETCH-HANDLER", "7", .documented,
        "A woken app must call the fetch completion handler within 30 seconds, or it is terminated; a late or "
            + "second call is ignored.",
        source: "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)")
    public static let backgroundFetchPenalty = DeviceRule(
        "BACKGROUND-FETCH-PENALTY", "7", .undocumented,
        "A fetch completion handler not called in time counts against the app: one more wake on its background "
            + "budget.",
        source: "Apple: apps that use significant power processing remote notifications may not always be woken; "
            + "how much less is not said. Default: the missed call counts as one more wake")
    public static let backgroundWake = DeviceRule(
        "BACKGROUND-WAKE", "7", .documented,
        "content-available:1 wakes the app through didReceiveRemoteNotification, if it has the remote-notification "
            + "background mode, was launched once and was not force-quit.",
        source: "Pushing background updates to your App")

    // 3.4 The notification service extension
    public static let serviceExtensionRuns = DeviceRule(
        "NSE-RUNS", "3.4", .documented,
        "The service extension runs only with mutable-content:1, alert text and alerts enabled.",
        source: "Modifying content in newly delivered notifications")
    public static let serviceExtensionModified = DeviceRule(
        "NSE-MODIFIED", "3.4", .documented, "The content the extension hands back is shown.",
        source: "didReceive(_:withContentHandler:)")
    public static let serviceExtensionTimeLimit = DeviceRule(
        "NSE-TIME-LIMIT", "3.4", .documented,
        "After 30 seconds serviceExtensionTimeWillExpire is called; if the handler is still not called, the "
            + "original content is shown.", source: "serviceExtensionTimeWillExpire()")
    public static let serviceExtensionNoAlertText = DeviceRule(
        "NSE-NO-ALERT-TEXT", "3.4", .documented,
        "Content handed back without alert text is ignored and the original is shown.",
        source: "Modifying content in newly delivered notifications")
    public static let serviceExtensionFiltered = DeviceRule(
        "NSE-FILTERED", "3.4", .documented,
        "With the filtering entitlement, empty content handed back for an alert push suppresses the notification.",
        source: "com.apple.developer.usernotifications.filtering")
    public static let serviceExtensionHandlerOnce = DeviceRule(
        "NSE-HANDLER-ONCE", "3.4", .undocumented, "Only the first call of the content handler counts.",
        source: "Apple documents one call; default: a later call is ignored and reported")

    // 3.9, 4. Presentation
    public static let foregroundWillPresent = DeviceRule(
        "FG-WILL-PRESENT", "4", .documented,
        "In the foreground the delegate's willPresent chooses banner, list, sound and badge; [] silences the "
            + "notification.", source: "userNotificationCenter(_:willPresent:withCompletionHandler:)")
    public static let foregroundNotImplemented = DeviceRule(
        "FG-NOT-IMPLEMENTED", "4", .documented, "A delegate without willPresent counts as returning [].",
        source: "userNotificationCenter(_:willPresent:withCompletionHandler:)")
    public static let foregroundNoDelegate = DeviceRule(
        "FG-NO-DELEGATE", "4", .undocumented,
        "With no delegate, a notification arriving in the foreground is not shown (configurable).",
        source: "Apple says the original options are used; many reports say nothing shows; default: not shown")
    public static let presentSettings = DeviceRule(
        "PRESENT-SETTINGS", "1c", .documented,
        "Outside the foreground the settings decide: a banner needs alerts on and an alert style (the lock screen "
            + "setting when locked), the list needs Notification Center, sound and badge their settings.",
        source: "UNNotificationSettings")
    public static let presentNotListed = DeviceRule(
        "PRESENT-NOT-LISTED", "4", .undocumented,
        "A notification presented without the list option is not added to the delivered list.",
        source: "observed: not listed; default: not listed")
    public static let presentPassive = DeviceRule(
        "PRESENT-PASSIVE", "8", .documented, "A passive notification is listed without a banner or a sound.",
        source: "UNNotificationInterruptionLevel")
    public static let summaryDelivery = DeviceRule(
        "SUMMARY-DELIVERY", "8", .documented,
        "With Scheduled Summary on and the app in it, passive and active notifications arriving outside the "
            + "foreground are held for the next summary time; time-sensitive and critical ones break through.",
        source: "UNNotificationInterruptionLevel (time-sensitive breaks through Summary); WWDC21 10091; the "
            + "summary times are the user's (the model: 8:00 and 18:00, Device.scheduledSummaryTimes)")
    public static let summaryOrder = DeviceRule(
        "SUMMARY-ORDER", "8", .undocumented,
        "At a summary time the held notifications are listed quietly, the highest relevance score first and "
            + "featured; ties in arrival order.",
        source: "Apple: relevanceScore sorts an app's notifications and the highest is featured in the summary; "
            + "what else decides is not said. Default: relevance score, then arrival")
    public static let groupThread = DeviceRule(
        "GROUP-THREAD", "5", .observed,
        "Notification Center groups notifications without a thread-id per app, the others per (app, thread); "
            + "the newest leads its group.", source: "WWDC18 710 (wwdcnotes)")
    public static let groupSummary = DeviceRule(
        "GROUP-SUMMARY", "5", .observed,
        "Under a group's lead: the category's categorySummaryFormat with %u the number of the others (each counting "
            + "its summary-arg-count) and %@ their summary-args; without a format, 'N more notifications'.",
        source: "categorySummaryFormat, summaryArgument (D, iOS 12-14; iOS 15 ignores the argument); the default "
            + "text is O (mackuba.eu)")
    public static let focusSilenced = DeviceRule(
        "FOCUS-SILENCED", "8", .documented,
        "While a Focus is on, passive and active notifications of apps it does not allow are silenced: listed, no "
            + "banner, no sound; so is a time-sensitive one the user or the Focus does not let through.",
        source: "UNNotificationInterruptionLevel (active does not break through system controls); Focus")
    public static let focusBreakthrough = DeviceRule(
        "FOCUS-BREAKTHROUGH", "8", .documented,
        "Critical notifications always break through a Focus; time-sensitive ones with the entitlement, the app's "
            + "timeSensitiveSetting and the Focus allowing them; any level of an app the Focus allows.",
        source: "UNNotificationInterruptionLevel.timeSensitive, .critical; Time Sensitive entitlement")
    public static let levelCritical = DeviceRule(
        "LEVEL-CRITICAL", "8", .documented,
        "A critical notification that names no sound plays the default critical sound.",
        source: "UNNotificationInterruptionLevel.critical")
    public static let soundCriticalNotAllowed = DeviceRule(
        "SOUND-CRITICAL", "1b", .undocumented,
        "A critical sound plays as critical only with the entitlement and criticalAlertSetting enabled.",
        source: "default: otherwise it plays as a regular sound")
    public static let badgeRule = DeviceRule(
        "BADGE", "3.8", .documented, "A badge of 0 hides the number, a positive one sets it, none leaves it.",
        source: "UNNotificationContent.badge")
}

extension DeviceRule {
    // 4, 5. Categories, actions and responses
    public static let categoriesReplace = DeviceRule(
        "CAT-REPLACE", "5", .documented, "setNotificationCategories replaces every category the app registered before.",
        source: "Declaring your actionable notification types")
    public static let categoryIdentifiers = DeviceRule(
        "CAT-IDENTIFIERS", "5", .undocumented,
        "Category ids are unique and non-empty; action ids are unique across all categories.",
        source:
            "Apple states the rule, not what breaking it does; default: the offending category or action is left out")
    public static let categoryButtons = DeviceRule(
        "CAT-BUTTONS", "5", .documented,
        "Buttons appear only for a registered category; a banner offers the first two actions, the expanded view up "
            + "to 10.", source: "UNNotificationCategory.actions")
    public static let actionDefault = DeviceRule(
        "ACTION-DEFAULT", "4", .documented,
        "Tapping the notification opens the app in the foreground with UNNotificationDefaultActionIdentifier.",
        source: "UNNotificationDefaultActionIdentifier")
    public static let actionOptions = DeviceRule(
        "ACTION-OPTIONS", "4", .documented,
        "An action launches the app in the background; .foreground brings it forward (unlocking), "
            + ".authenticationRequired unlocks first, .destructive only changes the button's look.",
        source: "UNNotificationActionOptions")
    public static let actionTextInput = DeviceRule(
        "ACTION-TEXT-INPUT", "4", .documented, "A text input action hands the app what the user typed as userText.",
        source: "UNTextInputNotificationResponse")
    public static let actionDismiss = DeviceRule(
        "ACTION-DISMISS", "4", .documented,
        "An explicit dismiss reaches the app only when the category has .customDismissAction.",
        source: "UNNotificationDismissActionIdentifier")
    public static let actionNotHandled = DeviceRule(
        "ACTION-NOT-HANDLED", "4", .documented,
        "Without didReceive on the delegate, the user's actions never reach the app.",
        source: "userNotificationCenter(_:didReceive:withCompletionHandler:)")
    public static let actionUnavailable = DeviceRule(
        "ACTION-UNAVAILABLE", "5", .undocumented,
        "The user can act only on a notification in Notification Center, with a button its category offers.",
        source: "default: any other action is recorded and ignored")

    // 6. Local notifications
    public static let localNotAllowed = DeviceRule(
        "LOCAL-NOT-ALLOWED", "1a", .undocumented,
        "add() fails with notificationsNotAllowed when denied, and succeeds silently when notDetermined.",
        source: "UNError.notificationsNotAllowed is documented, not when it is thrown; default as stated")
    public static let localTimeInterval = DeviceRule(
        "LOCAL-TIME-INTERVAL", "6", .observed,
        "A time interval must be greater than 0, and at least 60 seconds when it repeats; otherwise the trigger "
            + "cannot be made.", source: "the limits are documented; the exception is observed")
    public static let localScheduled = DeviceRule(
        "LOCAL-SCHEDULED", "6", .documented,
        "A request waits for its trigger; a nil trigger delivers now; a repeating trigger fires again until removed.",
        source: "UNNotificationRequest init(identifier:content:trigger:)")
    public static let localReplace = DeviceRule(
        "LOCAL-REPLACE", "6", .documented, "Adding a request with a pending request's identifier replaces it.",
        source: "UNNotificationRequest init(identifier:content:trigger:)")
    public static let localPendingLimit = DeviceRule(
        "LOCAL-PENDING-LIMIT", "6", .observed,
        "At most 64 requests stay pending; adding another silently drops the one added longest ago.",
        source: "radar 38065340; flutter_local_notifications#2275")
    public static let localRemoved = DeviceRule(
        "LOCAL-REMOVED", "6", .documented,
        "removePendingNotificationRequests cancels what has not fired; ids that are not pending are ignored.",
        source: "removePendingNotificationRequests(withIdentifiers:)")
}

extension DeviceRule {
    // 7. Background (silent) pushes
    public static let backgroundBudget = DeviceRule(
        "BACKGROUND-BUDGET", "7", .undocumented,
        "Background pushes are throttled: past the budget the app is not woken until the budget allows again.",
        source: "Apple: two or three an hour, and a daily power budget; default: 3 wakes in any hour, 30 in any "
            + "24 hours (DeviceConfiguration.backgroundPushBudget)")
    public static let backgroundNewestOnly = DeviceRule(
        "BACKGROUND-NEWEST-ONLY", "7", .documented,
        "The device holds only the newest background push: a newer one replaces it, a force-quit discards it, a "
            + "launch delivers it at once.", source: "Pushing background updates to your App")
}

extension DeviceRule {
    // 10. PushKit VoIP
    public static let voipRegistry = DeviceRule(
        "VOIP-REGISTRY", "10", .documented,
        "A PKPushRegistry for .voIP gets its own token; VoIP pushes need the voip background mode and are never "
            + "displayed.", source: "PKPushRegistry; Supporting PushKit Notifications")
    public static let voipReportCall = DeviceRule(
        "VOIP-REPORT-CALL", "10", .documented,
        "Each VoIP push must be reported to CallKit as an incoming call before the handler returns; otherwise the "
            + "app is terminated.", source: "pushRegistry(_:didReceiveIncomingPushWith:for:completion:)")
    public static let voipCutOff = DeviceRule(
        "VOIP-CUT-OFF", "10", .undocumented,
        "After repeated failures to report a call the system stops launching the app for VoIP pushes.",
        source: "Apple documents the cut-off, not when; default: after 3 unreported pushes in a row, until a "
            + "reinstall (DeviceConfiguration.voipFailuresBeforeCutOff)")
}

extension DeviceRule {
    // 3.5 Attachments
    public static let attachmentTypes = DeviceRule(
        "ATTACHMENT-TYPES", "3.5", .documented,
        "An attachment is audio (up to 5 MB), an image (10 MB) or a movie (50 MB) of the listed types; others fail "
            + "with attachmentUnrecognizedType, wrong sizes with attachmentInvalidFileSize.",
        source: "UNNotificationAttachment")
    public static let attachmentURL = DeviceRule(
        "ATTACHMENT-URL", "3.5", .documented,
        "An attachment's URL must be a file URL (attachmentInvalidURL); a file that does not decode is "
            + "attachmentCorrupt. The error comes from the initializer, so no request carries a bad file.",
        source: "UNNotificationAttachment init(identifier:url:options:); UNError")
}

extension DeviceRule {
    // 6. Calendar triggers
    public static let localCalendar = DeviceRule(
        "LOCAL-CALENDAR", "6", .undocumented,
        "A calendar trigger fires at the next date matching the components set; unset larger components match "
            + "anything, unset smaller ones their lowest value; a day the month lacks moves to the next month's first; "
            + "a repeating one re-arms after each firing.",
        source: "matching is documented only as 'components that are set'; default: .nextTime, as observed "
            + "(radar 32865247); a trigger without a zone floats with the device's; fixed offsets, no DST")
    public static let localLocation = DeviceRule(
        "LOCAL-LOCATION", "6", .documented,
        "A location trigger fires when the device enters (notifyOnEntry) or leaves (notifyOnExit) its circular "
            + "region; a repeating one stays pending.", source: "UNLocationNotificationTrigger, CLCircularRegion")
    public static let localLocationAuthorization = DeviceRule(
        "LOCAL-LOCATION-AUTH", "6", .documented,
        "A location trigger needs when-in-use (or always) location authorization; without it a crossing fires "
            + "nothing.", source: "UNLocationNotificationTrigger (the app must have when-in-use authorization)")
    public static let localLocationCrossing = DeviceRule(
        "LOCAL-LOCATION-CROSSING", "6", .undocumented,
        "Only a crossing of the region's edge fires; the device's first position places it without crossing.",
        source: "Apple: crossings go through heuristics and are not instant; the model fires at the move that "
            + "crosses, at once, and never for where the device already is")
    public static let localCalendarZone = DeviceRule(
        "LOCAL-CALENDAR-ZONE", "6", .undocumented,
        "A calendar trigger in a named time zone matches with its daylight saving time: a time the spring-forward "
            + "gap skips fires at the first time after the gap, a time the fall-back repeats fires once, the first.",
        source: "time zones and DST are undocumented; default: Calendar.nextDate(after:matching:matchingPolicy: "
            + ".nextTime, repeatedTimePolicy: .first), the call iOS was observed to follow (radar 32865247)")
}
