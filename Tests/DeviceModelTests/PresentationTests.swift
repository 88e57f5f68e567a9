import APNs
import DeviceModel
import Testing

/// DEVICE-SEMANTICS.md 1c, 3.8, 4 and 8: what the user is shown, each test named after its rule.
@Suite(.timeLimit(.minutes(1)))
struct PresentationTests {
    @Test("PRESENT-SETTINGS (1c, D): in the background, alert, sound and badge settings decide")
    func backgroundPresentationFollowsSettings() throws {
        let fixture = DeviceFixture.ready()
        try fixture.push(#"{"aps":{"alert":{"title":"Order","body":"Shipped"},"sound":"default","badge":3}}"#)
        let shown = try #require(fixture.lastPresentation)
        #expect(shown.banner && shown.listed && shown.sound == .default && shown.badge == 3)
        #expect(fixture.app.badgeCount == 3)
        #expect(fixture.app.notificationCenter.deliveredNotifications.map(\.request.identifier) == ["n1"])
        let entry = try #require(fixture.entries(.presentSettings).last)
        #expect(entry.kind == .presented)
        #expect(entry.message.contains(#""Order" / "Shipped""#))
    }

    @Test("PRESENT-SETTINGS (1c, D): only the parts the app was granted happen")
    func onlyGrantedPartsHappen() throws {
        let fixture = DeviceFixture.ready(options: [.alert])
        try fixture.push(#"{"aps":{"alert":"hi","sound":"default","badge":3}}"#)
        let shown = try #require(fixture.lastPresentation)
        #expect(shown.banner && shown.sound == nil && shown.badge == nil)
        #expect(fixture.app.badgeCount == 0)
    }

    @Test("PRESENT-SETTINGS (1c, D): locked, the lock screen setting decides the banner; the list still gets it")
    func lockedDeviceFollowsLockScreenSetting() throws {
        let fixture = DeviceFixture.ready()
        fixture.app.notificationCenter.userChangesSettings { $0.lockScreenSetting = .disabled }
        fixture.device.isLocked = true
        try fixture.push(#"{"aps":{"alert":"hi"}}"#)
        let shown = try #require(fixture.lastPresentation)
        #expect(!shown.banner && shown.listed)
    }

    @Test("PRESENT-SETTINGS (1c, D): provisional notifications go quietly to Notification Center only")
    func provisionalIsQuiet() throws {
        let fixture = DeviceFixture.ready(options: [.alert, .sound, .badge, .provisional])
        try fixture.push(#"{"aps":{"alert":"hi","sound":"default","badge":1}}"#)
        let shown = try #require(fixture.lastPresentation)
        #expect(!shown.banner && shown.listed && shown.sound == nil && shown.badge == nil)
    }

    @Test("PRESENT-SETTINGS (1c, D): with nothing allowed the notification is recorded as not shown")
    func nothingAllowedIsNotShown() throws {
        let fixture = DeviceFixture.ready()
        fixture.app.notificationCenter.userChangesSettings {
            $0.alertSetting = .disabled
            $0.notificationCenterSetting = .disabled
        }
        try fixture.push(#"{"aps":{"alert":"hi"}}"#)
        #expect(fixture.app.presentations.isEmpty)
        #expect(fixture.device.timeline.entries.last?.kind == .notShown)
    }

    @Test("BADGE (3.8, D): 0 hides the badge, a number sets it, none leaves it")
    func badgeValues() throws {
        let fixture = DeviceFixture.ready()
        try fixture.push(#"{"aps":{"badge":5}}"#)
        #expect(fixture.app.badgeCount == 5)
        try fixture.push(#"{"aps":{"alert":"no badge key"}}"#)
        #expect(fixture.app.badgeCount == 5)
        try fixture.push(#"{"aps":{"badge":0}}"#)
        #expect(fixture.app.badgeCount == 0)
    }

    @Test("FG-WILL-PRESENT (4, D): in the foreground willPresent chooses; [] silences completely")
    func foregroundWillPresentChooses() throws {
        let fixture = DeviceFixture.ready()
        var options: PresentationOptions = [.banner, .sound]
        var seen: [String] = []
        fixture.app.notificationCenter.delegate = NotificationCenterDelegate(willPresent: {
            seen.append($0.request.identifier)
            return options
        })
        fixture.app.moveToForeground()
        try fixture.push(#"{"aps":{"alert":"hi","sound":"default","badge":2}}"#)
        let shown = try #require(fixture.lastPresentation)
        #expect(shown.inForeground && shown.banner && !shown.listed && shown.sound == .default && shown.badge == nil)
        // PRESENT-NOT-LISTED (4, U: not listed)
        #expect(fixture.app.notificationCenter.deliveredNotifications.isEmpty)
        #expect(fixture.entries(.presentNotListed).count == 1)

        options = []
        try fixture.push(#"{"aps":{"alert":"quiet"}}"#, collapseID: "n2")
        #expect(seen == ["n1", "n2"])
        #expect(fixture.app.presentations.count == 1)
        let entry = try #require(fixture.device.timeline.entries.last)
        #expect(entry.kind == .notShown && entry.message == "app in foreground and willPresent returned []: not shown")
    }

    @Test("FG-WILL-PRESENT (4, D): .alert means banner and list")
    func alertOptionMeansBannerAndList() throws {
        let fixture = DeviceFixture.ready()
        fixture.app.notificationCenter.delegate = NotificationCenterDelegate(willPresent: { _ in .alert })
        fixture.app.moveToForeground()
        try fixture.push(#"{"aps":{"alert":"hi"}}"#)
        #expect(fixture.lastPresentation?.banner == true && fixture.lastPresentation?.listed == true)
    }

    @Test("FG-NOT-IMPLEMENTED (4, D): a delegate without willPresent silences foreground notifications")
    func delegateWithoutWillPresent() throws {
        let fixture = DeviceFixture.ready()
        fixture.app.notificationCenter.delegate = NotificationCenterDelegate(didReceive: { _ in })
        fixture.app.moveToForeground()
        try fixture.push(#"{"aps":{"alert":"hi"}}"#)
        #expect(fixture.app.presentations.isEmpty)
        #expect(fixture.entries(.foregroundNotImplemented).count == 1)
    }

    @Test("FG-NO-DELEGATE (4, U: not shown, configurable): no delegate in the foreground")
    func noDelegateInForeground() throws {
        let hidden = DeviceFixture.ready()
        hidden.app.moveToForeground()
        try hidden.push(#"{"aps":{"alert":"hi"}}"#)
        #expect(hidden.app.presentations.isEmpty)
        #expect(hidden.entries(.foregroundNoDelegate).first?.kind == .notShown)

        let shown = DeviceFixture.ready(
            deviceConfiguration: DeviceConfiguration(foregroundWithoutDelegate: .presentAsInBackground))
        shown.app.moveToForeground()
        try shown.push(#"{"aps":{"alert":"hi"}}"#)
        #expect(shown.lastPresentation?.banner == true)
        #expect(shown.entries(.foregroundNoDelegate).first?.kind == .presented)
    }

    @Test("LEVEL-NO-ENTITLEMENT (1b, U: active): time-sensitive and critical without entitlement count as active")
    func levelsWithoutEntitlement() throws {
        let fixture = DeviceFixture.ready()
        try fixture.push(#"{"aps":{"alert":"a","interruption-level":"time-sensitive"}}"#)
        #expect(fixture.lastPresentation?.interruptionLevel == .active)
        try fixture.push(#"{"aps":{"alert":"b","interruption-level":"critical"}}"#, collapseID: "n2")
        #expect(fixture.lastPresentation?.interruptionLevel == .active)
        #expect(fixture.entries(.levelWithoutEntitlement).count == 2)

        let entitled = DeviceFixture.ready(
            AppConfiguration(bundleID: DeviceFixture.bundleID, entitlements: Entitlements(timeSensitive: true)))
        try entitled.push(#"{"aps":{"alert":"a","interruption-level":"time-sensitive"}}"#)
        #expect(entitled.lastPresentation?.interruptionLevel == .timeSensitive)
    }

    @Test("SOUND-CRITICAL (1b, U: regular sound): a critical sound needs the entitlement and the granted setting")
    func criticalSound() throws {
        let payload = #"{"aps":{"alert":"fire","sound":{"critical":1,"name":"siren.caf","volume":0.8}}}"#
        let plain = DeviceFixture.ready()
        try plain.push(payload)
        #expect(plain.lastPresentation?.sound == .named("siren.caf"))

        let entitled = DeviceFixture.ready(
            AppConfiguration(bundleID: DeviceFixture.bundleID, entitlements: Entitlements(criticalAlerts: true)),
            options: [.alert, .sound, .criticalAlert])
        try entitled.push(payload)
        #expect(entitled.lastPresentation?.sound == .critical(name: "siren.caf", volume: 0.8))
    }

    @Test("LEVEL-CRITICAL (8, D): a critical notification without a sound plays the default critical sound")
    func criticalWithoutSound() throws {
        let fixture = DeviceFixture.ready(
            AppConfiguration(bundleID: DeviceFixture.bundleID, entitlements: Entitlements(criticalAlerts: true)),
            options: [.alert, .sound, .criticalAlert])
        try fixture.push(#"{"aps":{"alert":"flood warning","interruption-level":"critical"}}"#)
        #expect(fixture.lastPresentation?.interruptionLevel == .critical)
        #expect(fixture.lastPresentation?.sound == .critical(name: nil, volume: nil))
        try fixture.push(#"{"aps":{"alert":"ordinary"}}"#, collapseID: "n2")
        #expect(fixture.lastPresentation?.sound == nil)
    }

    @Test("PRESENT-PASSIVE (8, D): a passive notification is listed without banner or sound")
    func passiveIsListedQuietly() throws {
        let fixture = DeviceFixture.ready()
        try fixture.push(#"{"aps":{"alert":"fyi","sound":"default","interruption-level":"passive"}}"#)
        let shown = try #require(fixture.lastPresentation)
        #expect(!shown.banner && shown.listed && shown.sound == nil)
    }

    @Test("PUSH-IDENTIFIER (3.2, D): a reused identifier replaces the listed notification and moves it to the top")
    func reusedIdentifierReplaces() throws {
        let fixture = DeviceFixture.ready()
        try fixture.push(#"{"aps":{"alert":"first"}}"#, collapseID: "a")
        try fixture.push(#"{"aps":{"alert":"other"}}"#, collapseID: "b")
        try fixture.push(#"{"aps":{"alert":"first, updated"}}"#, collapseID: "a")
        let listed = fixture.app.notificationCenter.deliveredNotifications
        #expect(listed.map(\.request.identifier) == ["a", "b"])
        #expect(listed.first?.request.content.body == "first, updated")
    }
}
