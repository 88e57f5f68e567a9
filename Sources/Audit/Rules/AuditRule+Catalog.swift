import APNs

extension AuditRule {
    public static let parse = AuditRule(
        "AUDIT-PARSE", .error, "A Swift file must parse for its notification code to be checked.",
        fix: "Fix the syntax error swiftc reports, or leave the file out.")
    public static let registerAuthorization = AuditRule(
        "AUDIT-REGISTER-AUTHORIZATION", .warning,
        "registerForRemoteNotifications() is called whatever the authorization: without it, pushes still arrive silently.",
        fix: "Call registerForRemoteNotifications() at every launch, outside the authorization check.")
    public static let tokenString = AuditRule(
        "AUDIT-TOKEN-STRING", .error,
        "The device token is binary: String(data:encoding:), description or interpolation does not give its hex.",
        fix: "Send deviceToken.map { String(format: \"%02x\", $0) }.joined().")
    public static let tokenUpload = AuditRule(
        "AUDIT-TOKEN-UPLOAD", .warning,
        "Every didRegisterForRemoteNotificationsWithDeviceToken sends the token on: it changes without notice.",
        fix: "Upload the token on every path of the callback, even when it looks unchanged.")
    public static let delegateLate = AuditRule(
        "AUDIT-DELEGATE-LATE", .warning,
        "The notification center's delegate is set in App.init or application(_:didFinishLaunchingWithOptions:).",
        fix: "Set UNUserNotificationCenter.current().delegate before launch finishes, not later or in a closure.")
    public static let delegateUnset = AuditRule(
        "AUDIT-DELEGATE-UNSET", .warning,
        "A UNUserNotificationCenterDelegate does nothing until it is the notification center's delegate.",
        fix: "Assign it to UNUserNotificationCenter.current().delegate at launch.")
    public static let willPresent = AuditRule(
        "AUDIT-WILL-PRESENT", .warning,
        "The notification center's delegate implements willPresent: without it, foreground notifications vanish.",
        fix:
            "Implement userNotificationCenter(_:willPresent:withCompletionHandler:) and return [.banner, .list, .sound]."
    )
    public static let didReceive = AuditRule(
        "AUDIT-DID-RECEIVE", .warning,
        "The notification center's delegate implements didReceive: without it, taps and actions are lost.",
        fix: "Implement userNotificationCenter(_:didReceive:withCompletionHandler:) and call the handler.")
    public static let delegateHandler = AuditRule(
        "AUDIT-DELEGATE-HANDLER", .error,
        "willPresent and didReceive call their completion handler exactly once on every path.",
        fix: "Call completionHandler once on each path, including early returns.")
    public static let categories = AuditRule(
        "AUDIT-CATEGORIES", .warning,
        "Notification categories are registered at launch: a category not yet registered shows no actions.",
        fix: "Call setNotificationCategories(_:) in App.init or application(_:didFinishLaunchingWithOptions:).")
    public static let backgroundMode = AuditRule(
        "AUDIT-BACKGROUND-MODE", .error,
        "Silent pushes need the remote-notification background mode in Info.plist.",
        fix: "Add remote-notification to UIBackgroundModes (Signing & Capabilities: Background Modes).")
    public static let fetchHandler = AuditRule(
        "AUDIT-FETCH-HANDLER", .error,
        "didReceiveRemoteNotification calls its completion handler exactly once on every path, with a result.",
        fix: "Call completionHandler(.newData), (.noData) or (.failed) once on each path, failures included.")
    public static let serviceHandler = AuditRule(
        "AUDIT-NSE-HANDLER", .error,
        "A service extension calls its content handler exactly once on every path of didReceive(_:withContentHandler:).",
        fix: "Call contentHandler once on each path, download failures included; pass the original content on error.")
    public static let serviceExpire = AuditRule(
        "AUDIT-NSE-EXPIRE", .warning,
        "serviceExtensionTimeWillExpire() delivers the best attempt through the stored content handler.",
        fix: "Implement serviceExtensionTimeWillExpire() and call the stored contentHandler with the best content.")
    public static let voipReport = AuditRule(
        "AUDIT-VOIP-REPORT", .error,
        "Every VoIP push is reported to CallKit (reportNewIncomingCall) before its completion, on every path.",
        fix:
            "Call CXProvider.reportNewIncomingCall(with:update:completion:) first on each path; else iOS kills the app."
    )
    public static let apsEnvironment = AuditRule(
        "AUDIT-APS-ENVIRONMENT", .error,
        "An app that registers for remote notifications has aps-environment (development or production) in its entitlements.",
        fix: "Add the Push Notifications capability, which sets aps-environment.")

    /// Every rule, in the order docs/AUDIT-RULES.md lists them.
    public static let all: [AuditRule] = [
        .parse, .registerAuthorization, .tokenString, .tokenUpload, .delegateLate, .delegateUnset, .willPresent,
        .didReceive, .delegateHandler, .categories, .backgroundMode, .fetchHandler, .serviceHandler, .serviceExpire,
        .voipReport, .apsEnvironment,
    ]
}
