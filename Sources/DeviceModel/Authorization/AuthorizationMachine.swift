// The authorization state machine of DEVICE-SEMANTICS.md section 1a, one app's worth:
//
//   notDetermined --request [no .provisional]--> prompt --Allow--> authorized
//        |                                              \--Don't Allow--> denied
//        |--request [.provisional]--> provisional --request [no .provisional]--> prompt (as above)
//        |                                |--Keep: Deliver Immediately--> authorized (quiet)
//        |                                |--Keep: Scheduled Summary (if on)--> authorized (summary)
//        |                                \--Turn Off--> denied
//        \--App Clip launch (ephemeral asked)--> ephemeral --8 h later--> notDetermined
//   any --user changes Settings--> any
//   authorized, denied: a request reports the stored answer and never prompts.
//
// Events return the decisions they made; `NotificationCenter` records them on the timeline.

/// One decision of the state machine, for the timeline.
struct Decision {
    let kind: TimelineEntry.Kind
    let rule: DeviceRule
    let message: String
    /// When it took effect, if not now.
    var time: DeviceInstant? = nil
}

struct AuthorizationMachine {
    private(set) var settings = NotificationSettings()
    /// Whether the separate critical alerts prompt has been shown.
    private var criticalAlertAsked = false
    /// When the current ephemeral authorization ends.
    private(set) var ephemeralUntil: DeviceInstant?
    /// A denied prompt or the App Clip card's switch ends ephemeral authorization for good.
    private var ephemeralOverridden = false

    /// `requestAuthorization(options:)`: returns `granted` and the decisions.
    mutating func request(
        _ options: AuthorizationOptions, entitlements: Entitlements, user: ScriptedUser
    ) -> (granted: Bool, decisions: [Decision]) {
        var decisions: [Decision] = []
        switch settings.authorizationStatus {
        case .notDetermined where options.contains(.provisional):
            grantProvisionally(options)
            decisions.append(
                Decision(
                    kind: .authorization, rule: .authProvisional,
                    message: "requested \(options) with provisional: granted without a prompt, status provisional"))
        case .notDetermined, .ephemeral:
            decisions.append(prompt(options, answer: user.authorizationAnswer, rule: .authPrompt))
        case .provisional where !options.contains(.provisional):
            decisions.append(prompt(options, answer: user.authorizationAnswer, rule: .authProvisionalPrompt))
        case .provisional, .authorized, .denied:
            decisions.append(
                Decision(
                    kind: .authorization, rule: .authStored,
                    message: "requested \(options): no prompt, the stored status \(settings.authorizationStatus)"))
        }
        decisions += criticalAlert(options, entitled: entitlements.criticalAlerts, answer: user.criticalAlertAnswer)
        decisions += timeSensitive(options, entitled: entitlements.timeSensitive)
        return (settings.authorizationStatus.allowsDelivery, decisions)
    }

    private mutating func prompt(_ options: AuthorizationOptions, answer: PromptAnswer, rule: DeviceRule) -> Decision {
        let requested = options.subtracting([.provisional, .criticalAlert, .announcement, .timeSensitive])
        switch answer {
        case .allow:
            settings = Self.granted(requested, previous: settings)
            ephemeralUntil = nil
        case .dontAllow:
            settings = Self.refused(requested, previous: settings)
            ephemeralUntil = nil
            ephemeralOverridden = true
        }
        return Decision(
            kind: .authorization, rule: rule,
            message:
                "prompt for \(requested): the user answered \(answer.rawValue), status \(settings.authorizationStatus)")
    }

    private mutating func grantProvisionally(_ options: AuthorizationOptions) {
        var quiet = Self.granted(options, previous: settings)
        quiet.authorizationStatus = .provisional
        quiet.alertStyle = .none
        quiet.lockScreenSetting = quiet.alertSetting == .notSupported ? .notSupported : .disabled
        quiet.notificationCenterSetting = quiet.alertSetting == .notSupported ? .notSupported : .enabled
        if quiet.soundSetting == .enabled { quiet.soundSetting = .disabled }
        if quiet.badgeSetting == .enabled { quiet.badgeSetting = .disabled }
        settings = quiet
    }

    private mutating func criticalAlert(
        _ options: AuthorizationOptions, entitled: Bool, answer: PromptAnswer
    ) -> [Decision] {
        guard options.contains(.criticalAlert) else { return [] }
        guard entitled else {
            return [
                Decision(
                    kind: .authorization, rule: .authCritical,
                    message: "criticalAlert requested without the critical-alerts entitlement: not granted, "
                        + "criticalAlertSetting \(settings.criticalAlertSetting)")
            ]
        }
        guard settings.authorizationStatus.allowsDelivery, !criticalAlertAsked else { return [] }
        criticalAlertAsked = true
        settings.criticalAlertSetting = answer == .allow ? .enabled : .disabled
        return [
            Decision(
                kind: .authorization, rule: .authCritical,
                message: "critical alerts prompt: the user answered \(answer.rawValue), "
                    + "criticalAlertSetting \(settings.criticalAlertSetting)")
        ]
    }

    private mutating func timeSensitive(_ options: AuthorizationOptions, entitled: Bool) -> [Decision] {
        let setting: NotificationSetting =
            entitled && settings.authorizationStatus.allowsDelivery ? .enabled : settings.timeSensitiveSetting
        defer { settings.timeSensitiveSetting = setting }
        if setting != settings.timeSensitiveSetting {
            return [
                Decision(
                    kind: .authorization, rule: .authTimeSensitive,
                    message: "time-sensitive entitlement: timeSensitiveSetting enabled without a prompt")
            ]
        }
        if options.contains(.timeSensitive), !entitled {
            return [
                Decision(
                    kind: .authorization, rule: .authTimeSensitive,
                    message: "timeSensitive option ignored: time sensitive needs the entitlement")
            ]
        }
        return []
    }

    /// The user's choice on a provisional notification.
    mutating func choose(_ choice: ProvisionalChoice, scheduledSummaryOn: Bool) -> Decision {
        guard settings.authorizationStatus == .provisional else {
            return Decision(
                kind: .authorization, rule: .authProvisional,
                message: "\(choice.rawValue) ignored: only a provisional app's notifications offer it "
                    + "(status \(settings.authorizationStatus))")
        }
        switch choice {
        case .deliverImmediately:
            settings.authorizationStatus = .authorized
            return Decision(
                kind: .authorization, rule: .authProvisionalKeep,
                message: "\(choice.rawValue): status authorized, banner, sound and badge stay off")
        case .deliverInScheduledSummary:
            guard scheduledSummaryOn else {
                return Decision(
                    kind: .authorization, rule: .authProvisionalSummary,
                    message: "\(choice.rawValue) not offered: Scheduled Summary is off; status stays provisional")
            }
            settings.authorizationStatus = .authorized
            settings.scheduledDeliverySetting = .enabled
            return Decision(
                kind: .authorization, rule: .authProvisionalSummary,
                message: "\(choice.rawValue): status authorized, scheduledDeliverySetting enabled")
        case .turnOff:
            settings = Self.refused([], previous: settings)
            return Decision(kind: .authorization, rule: .authProvisionalTurnOff, message: "Turn Off: status denied")
        }
    }

    /// The user edits the app's settings in the Settings app.
    mutating func change(_ edit: (inout NotificationSettings) -> Void) -> Decision {
        let before = settings
        edit(&settings)
        if settings.authorizationStatus == .denied { ephemeralOverridden = true }
        let changes = settings.changes(from: before)
        return Decision(
            kind: .settings, rule: .authSettingsChanged,
            message: changes.isEmpty ? "the user opened Settings and changed nothing" : "the user changed " + changes)
    }

    /// An App Clip that asks for ephemeral notifications launched.
    mutating func appClipLaunched(at now: DeviceInstant) -> Decision? {
        guard !ephemeralOverridden else {
            return Decision(
                kind: .authorization, rule: .authEphemeralOverridden,
                message: "App Clip launched: no ephemeral authorization, the user turned notifications off")
        }
        guard settings.authorizationStatus == .notDetermined || settings.authorizationStatus == .ephemeral else {
            return nil
        }
        let until = now + Self.ephemeralDuration
        ephemeralUntil = until
        settings = Self.granted([.alert, .sound, .badge], previous: settings)
        settings.authorizationStatus = .ephemeral
        return Decision(
            kind: .authorization, rule: .authEphemeral, message: "App Clip launched: status ephemeral until \(until)")
    }

    /// Ends ephemeral authorization whose 8 hours are over.
    mutating func expire(at now: DeviceInstant) -> Decision? {
        guard settings.authorizationStatus == .ephemeral, let until = ephemeralUntil, now >= until else { return nil }
        ephemeralUntil = nil
        settings = NotificationSettings()
        return Decision(
            kind: .authorization, rule: .authEphemeralExpired,
            message: "8 hours since the App Clip's launch: status notDetermined", time: until)
    }

    static let ephemeralDuration: Double = 8 * 3600

    /// Settings after the user allowed `options`: each requested switch on, the others notSupported.
    private static func granted(_ options: AuthorizationOptions, previous: NotificationSettings) -> NotificationSettings
    {
        var settings = previous
        settings.authorizationStatus = .authorized
        func setting(_ option: AuthorizationOptions) -> NotificationSetting {
            options.contains(option) ? .enabled : .notSupported
        }
        settings.alertSetting = setting(.alert)
        settings.soundSetting = setting(.sound)
        settings.badgeSetting = setting(.badge)
        settings.carPlaySetting = setting(.carPlay)
        settings.lockScreenSetting = setting(.alert)
        settings.notificationCenterSetting = setting(.alert)
        settings.alertStyle = options.contains(.alert) ? .banner : .none
        settings.providesAppNotificationSettings = options.contains(.providesAppNotificationSettings)
        return settings
    }

    /// Settings after the user refused: every switch the app asked for (or had) off.
    private static func refused(_ options: AuthorizationOptions, previous: NotificationSettings) -> NotificationSettings
    {
        var settings = granted(options, previous: previous)
        settings.authorizationStatus = .denied
        for path in [
            \NotificationSettings.alertSetting, \.soundSetting, \.badgeSetting, \.carPlaySetting, \.lockScreenSetting,
            \.notificationCenterSetting, \.criticalAlertSetting, \.timeSensitiveSetting,
        ] where settings[keyPath: path] != .notSupported || previous[keyPath: path] != .notSupported {
            settings[keyPath: path] = .disabled
        }
        settings.alertStyle = .none
        return settings
    }
}
