import APNs
import DeviceModel
import Testing

/// DEVICE-SEMANTICS.md 8: Focus by interruption level, each test named after its rule.
@Suite(.timeLimit(.minutes(1)))
struct FocusTests {
    /// A ready app with both entitlements, authorized for alerts, sounds and critical alerts, under a Focus.
    private func fixture(
        timeSensitive: Bool = true, focus: Focus = Focus(name: "Work")
    ) -> DeviceFixture {
        let fixture = DeviceFixture.ready(
            AppConfiguration(
                bundleID: DeviceFixture.bundleID,
                entitlements: Entitlements(criticalAlerts: true, timeSensitive: timeSensitive)),
            options: [.alert, .sound, .badge, .criticalAlert])
        fixture.device.focus = focus
        return fixture
    }

    private func level(_ level: String, sound: String = #""sound":"default""#) -> String {
        #"{"aps":{"alert":{"title":"T","body":"B"},\#(sound),"interruption-level":"\#(level)"}}"#
    }

    @Test("FOCUS-SILENCED (8, D): under a Focus an active notification is listed without banner or sound")
    func activeSilenced() throws {
        let fixture = fixture()
        try fixture.push(level("active"))
        let presentation = try #require(fixture.lastPresentation)
        #expect(!presentation.banner && presentation.sound == nil && presentation.listed)
        #expect(fixture.entries(.focusSilenced).first?.message.contains("Focus Work is on: active") == true)
        fixture.device.focus = nil
        try fixture.push(level("active"), collapseID: "n2")
        #expect(fixture.lastPresentation?.banner == true && fixture.lastPresentation?.sound != nil)
    }

    @Test("FOCUS-BREAKTHROUGH (8, D): time-sensitive breaks through with the entitlement and the user's allowance")
    func timeSensitiveBreaksThrough() throws {
        let fixture = fixture()
        try fixture.push(level("time-sensitive"))
        #expect(fixture.lastPresentation?.banner == true && fixture.lastPresentation?.sound != nil)
        #expect(fixture.entries(.focusBreakthrough).count == 1)

        fixture.app.notificationCenter.userChangesSettings { $0.timeSensitiveSetting = .disabled }
        try fixture.push(level("time-sensitive"), collapseID: "n2")
        #expect(fixture.lastPresentation?.banner == false)
        #expect(fixture.entries(.focusSilenced).last?.message.contains("timeSensitiveSetting is disabled") == true)
    }

    @Test(
        "FOCUS-SILENCED (8, D): time-sensitive without the entitlement, or through a Focus that refuses it, is silenced"
    )
    func timeSensitiveWithoutEntitlement() throws {
        let fixture = fixture(timeSensitive: false)
        try fixture.push(level("time-sensitive"))
        #expect(fixture.lastPresentation?.banner == false)
        #expect(fixture.entries(.levelWithoutEntitlement).count == 1)

        let strict = self.fixture(focus: Focus(name: "Sleep", allowsTimeSensitive: false))
        try strict.push(level("time-sensitive"))
        #expect(strict.lastPresentation?.banner == false)
        #expect(strict.entries(.focusSilenced).first?.message.contains("does not allow Time Sensitive") == true)
    }

    @Test("FOCUS-BREAKTHROUGH (8, D): critical always breaks through; an app the Focus allows does at any level")
    func criticalAndAllowedApps() throws {
        let fixture = fixture(focus: Focus(name: "Sleep", allowsTimeSensitive: false))
        try fixture.push(level("critical", sound: #""sound":{"critical":1,"name":"alarm.caf","volume":1}"#))
        #expect(fixture.lastPresentation?.banner == true && fixture.lastPresentation?.sound != nil)
        fixture.device.focus = Focus(name: "Work", allowedApps: [DeviceFixture.bundleID])
        try fixture.push(level("active"), collapseID: "n2")
        #expect(fixture.lastPresentation?.banner == true)
        #expect(fixture.entries(.focusBreakthrough).map(\.message).last?.contains("allows the app") == true)
    }
}
