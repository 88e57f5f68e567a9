import APNs
import DeviceModel
import Testing

/// DEVICE-SEMANTICS.md section 1: the authorization state machine, each test named after its rule.
@Suite(.timeLimit(.minutes(1)))
struct AuthorizationTests {
    @Test("AUTH-INITIAL (1a, D): an installed app is notDetermined until it asks")
    func installedAppIsNotDetermined() {
        let fixture = DeviceFixture()
        #expect(fixture.app.notificationCenter.notificationSettings().authorizationStatus == .notDetermined)
        #expect(fixture.entries(.authInitial).count == 1)
    }

    @Test("AUTH-PROMPT (1a, D): the first request prompts once; Allow is stored as authorized with what was asked")
    func firstRequestPromptsAndAllowIsStored() {
        let fixture = DeviceFixture()
        let center = fixture.app.notificationCenter
        #expect(center.requestAuthorization(options: [.alert, .sound]))
        let settings = center.notificationSettings()
        #expect(settings.authorizationStatus == .authorized)
        #expect(settings.alertSetting == .enabled && settings.soundSetting == .enabled)
        #expect(settings.alertStyle == .banner)
        #expect(fixture.entries(.authPrompt).count == 1)
    }

    @Test("AUTH-UNREQUESTED-OPTION (1c, U: notSupported): a setting the app never asked for is notSupported")
    func unrequestedOptionIsNotSupported() {
        let fixture = DeviceFixture()
        fixture.app.notificationCenter.requestAuthorization(options: [.alert])
        let settings = fixture.app.notificationCenter.notificationSettings()
        #expect(settings.badgeSetting == .notSupported && settings.soundSetting == .notSupported)
    }

    @Test("AUTH-PROMPT (1a, D): Don't Allow is stored as denied, granted is false")
    func dontAllowIsStoredAsDenied() {
        let fixture = DeviceFixture(user: ScriptedUser(authorizationAnswer: .dontAllow))
        let center = fixture.app.notificationCenter
        #expect(!center.requestAuthorization(options: [.alert, .badge]))
        let settings = center.notificationSettings()
        #expect(settings.authorizationStatus == .denied)
        #expect(settings.alertSetting == .disabled && settings.badgeSetting == .disabled)
    }

    @Test("AUTH-STORED (1a, D): later requests never prompt and report the stored answer, whatever the user would say")
    func laterRequestsReportTheStoredAnswer() {
        let fixture = DeviceFixture(user: ScriptedUser(authorizationAnswer: .dontAllow))
        let center = fixture.app.notificationCenter
        center.requestAuthorization(options: [.alert])
        fixture.device.user = ScriptedUser(authorizationAnswer: .allow)
        #expect(!center.requestAuthorization(options: [.alert, .sound]), "still denied: no second prompt")
        #expect(center.requestAuthorization(options: [.alert]) == false)
        #expect(fixture.entries(.authPrompt).count == 1)
        #expect(fixture.entries(.authStored).count == 2)
        #expect(center.notificationSettings().authorizationStatus == .denied)
    }

    @Test("AUTH-PROVISIONAL (1a, D): .provisional is granted without a prompt, quietly")
    func provisionalIsGrantedWithoutPrompt() {
        let fixture = DeviceFixture(user: ScriptedUser(authorizationAnswer: .dontAllow))
        let center = fixture.app.notificationCenter
        #expect(center.requestAuthorization(options: [.alert, .sound, .badge, .provisional]))
        let settings = center.notificationSettings()
        #expect(settings.authorizationStatus == .provisional)
        #expect(settings.alertStyle == .none && settings.lockScreenSetting == .disabled)
        #expect(settings.notificationCenterSetting == .enabled)
        #expect(settings.soundSetting == .disabled && settings.badgeSetting == .disabled)
        #expect(fixture.entries(.authPrompt).isEmpty, "the scripted Don't Allow was never asked")
    }

    @Test("AUTH-PROVISIONAL-PROMPT (1a, U: prompt): a request without .provisional while provisional prompts")
    func provisionalThenFullRequestPrompts() {
        let fixture = DeviceFixture()
        let center = fixture.app.notificationCenter
        center.requestAuthorization(options: [.alert, .provisional])
        #expect(center.requestAuthorization(options: [.alert, .sound]))
        #expect(center.notificationSettings().authorizationStatus == .authorized)
        #expect(center.notificationSettings().alertStyle == .banner)
        #expect(fixture.entries(.authProvisionalPrompt).count == 1)
    }

    @Test("AUTH-PROVISIONAL-KEEP (1a, U: authorized, still quiet): Keep, Deliver Immediately")
    func keepDeliverImmediately() {
        let fixture = DeviceFixture()
        let center = fixture.app.notificationCenter
        center.requestAuthorization(options: [.alert, .sound, .provisional])
        center.userChooses(.deliverImmediately)
        let settings = center.notificationSettings()
        #expect(settings.authorizationStatus == .authorized)
        #expect(settings.alertStyle == .none && settings.soundSetting == .disabled)
    }

    @Test("AUTH-PROVISIONAL-SUMMARY (1a, D): Deliver in Scheduled Summary only while the summary is on")
    func keepInSummaryOnlyWhenSummaryIsOn() {
        let fixture = DeviceFixture()
        let center = fixture.app.notificationCenter
        center.requestAuthorization(options: [.alert, .provisional])
        center.userChooses(.deliverInScheduledSummary)
        #expect(center.notificationSettings().authorizationStatus == .provisional, "not offered: summary is off")
        fixture.device.isScheduledSummaryOn = true
        center.userChooses(.deliverInScheduledSummary)
        #expect(center.notificationSettings().authorizationStatus == .authorized)
        #expect(center.notificationSettings().scheduledDeliverySetting == .enabled)
        #expect(fixture.entries(.authProvisionalSummary).count == 2)
    }

    @Test("AUTH-PROVISIONAL-TURN-OFF (1a, D): Turn Off makes the app denied; the choice needs provisional")
    func turnOffDenies() {
        let fixture = DeviceFixture()
        let center = fixture.app.notificationCenter
        center.userChooses(.turnOff)
        #expect(center.notificationSettings().authorizationStatus == .notDetermined, "nothing to turn off yet")
        center.requestAuthorization(options: [.alert, .provisional])
        center.userChooses(.turnOff)
        #expect(center.notificationSettings().authorizationStatus == .denied)
        #expect(center.notificationSettings().alertSetting == .disabled)
    }

    @Test("AUTH-SETTINGS-CHANGED (1a, D): the user changes any setting at any time, and the next push follows it")
    func userChangesSettingsAtAnyTime() throws {
        let fixture = DeviceFixture.ready()
        fixture.app.notificationCenter.userChangesSettings { $0.soundSetting = .disabled }
        try fixture.push(#"{"aps":{"alert":"hi","sound":"default"}}"#)
        #expect(fixture.lastPresentation?.sound == nil)
        #expect(fixture.lastPresentation?.banner == true)
        let change = try #require(fixture.entries(.authSettingsChanged).last)
        #expect(change.message.contains("soundSetting enabled -> disabled"))

        fixture.app.notificationCenter.userChangesSettings { $0.authorizationStatus = .denied }
        try fixture.push(#"{"aps":{"alert":"again"}}"#, collapseID: "n2")
        #expect(fixture.app.presentations.count == 1, "denied in Settings: nothing shown")
    }

    @Test("AUTH-EPHEMERAL (1a, D): an App Clip asking for it is ephemeral for 8 hours after each launch")
    func appClipIsEphemeralForEightHours() {
        let fixture = DeviceFixture(
            AppConfiguration(bundleID: "com.example.app.Clip", requestsEphemeralNotifications: true))
        let center = fixture.app.notificationCenter
        let start = fixture.clock.now
        fixture.app.launch()
        #expect(center.notificationSettings().authorizationStatus == .ephemeral)
        fixture.device.advance(by: 8 * 3600 - 1)
        #expect(center.notificationSettings().authorizationStatus == .ephemeral)
        fixture.device.advance(by: 1)
        // AUTH-EPHEMERAL-EXPIRED (U: back to notDetermined until the next launch)
        #expect(center.notificationSettings().authorizationStatus == .notDetermined)
        #expect(fixture.entries(.authEphemeralExpired).map(\.time) == [start + 8 * 3600])
        fixture.app.launch()
        #expect(center.notificationSettings().authorizationStatus == .ephemeral, "each launch starts 8 hours again")
    }

    @Test("AUTH-EPHEMERAL-OVERRIDDEN (1a, D): a denied prompt ends an App Clip's ephemeral authorization for good")
    func deniedRequestOverridesEphemeral() {
        let fixture = DeviceFixture(
            AppConfiguration(bundleID: "com.example.app.Clip", requestsEphemeralNotifications: true),
            user: ScriptedUser(authorizationAnswer: .dontAllow))
        let center = fixture.app.notificationCenter
        fixture.app.launch()
        #expect(!center.requestAuthorization(options: [.alert]))
        fixture.app.launch()
        #expect(center.notificationSettings().authorizationStatus == .denied)
        #expect(fixture.entries(.authEphemeralOverridden).count == 1)
    }

    @Test("AUTH-CRITICAL (1b, D): critical alerts need the entitlement and the option, with a separate prompt")
    func criticalAlertsNeedEntitlementAndOption() {
        let without = DeviceFixture()
        without.app.notificationCenter.requestAuthorization(options: [.alert, .criticalAlert])
        #expect(without.app.notificationCenter.notificationSettings().criticalAlertSetting == .notSupported)

        let entitled = DeviceFixture(
            AppConfiguration(bundleID: "com.example.app", entitlements: Entitlements(criticalAlerts: true)))
        entitled.app.notificationCenter.requestAuthorization(options: [.alert])
        #expect(entitled.app.notificationCenter.notificationSettings().criticalAlertSetting == .notSupported)
        entitled.app.notificationCenter.requestAuthorization(options: [.alert, .criticalAlert])
        #expect(entitled.app.notificationCenter.notificationSettings().criticalAlertSetting == .enabled)
        #expect(entitled.entries(.authCritical).count == 1, "one critical prompt")

        let refused = DeviceFixture(
            AppConfiguration(bundleID: "com.example.app", entitlements: Entitlements(criticalAlerts: true)),
            user: ScriptedUser(criticalAlertAnswer: .dontAllow))
        refused.app.notificationCenter.requestAuthorization(options: [.alert, .criticalAlert])
        #expect(refused.app.notificationCenter.notificationSettings().authorizationStatus == .authorized)
        #expect(refused.app.notificationCenter.notificationSettings().criticalAlertSetting == .disabled)
    }

    @Test("AUTH-TIME-SENSITIVE (1b, D): time sensitive comes with the entitlement, not the option, without a prompt")
    func timeSensitiveNeedsTheEntitlement() {
        let optionOnly = DeviceFixture()
        optionOnly.app.notificationCenter.requestAuthorization(options: [.alert, .timeSensitive])
        #expect(optionOnly.app.notificationCenter.notificationSettings().timeSensitiveSetting == .notSupported)

        let entitled = DeviceFixture(
            AppConfiguration(bundleID: "com.example.app", entitlements: Entitlements(timeSensitive: true)))
        entitled.app.notificationCenter.requestAuthorization(options: [.alert])
        #expect(entitled.app.notificationCenter.notificationSettings().timeSensitiveSetting == .enabled)
        #expect(entitled.entries(.authPrompt).count == 1, "the one standard prompt, none for time sensitive")
    }
}
