import APNs
import DeviceModel
import Testing

/// DEVICE-SEMANTICS.md 7: the budget of background pushes and the newest-only rule, each test named after its rule.
@Suite(.timeLimit(.minutes(1)))
struct BackgroundBudgetTests {
    static let silent = #"{"aps":{"content-available":1},"n":"x"}"#

    final class Wakes {
        var count = 0
    }

    /// A ready app with the remote-notification mode, counting its wakes.
    private func fixture(_ configuration: DeviceConfiguration = DeviceConfiguration()) -> (DeviceFixture, Wakes) {
        let fixture = DeviceFixture.ready(
            AppConfiguration(bundleID: DeviceFixture.bundleID, backgroundModes: [.remoteNotification]),
            deviceConfiguration: configuration)
        let wakes = Wakes()
        fixture.app.delegate.didReceiveRemoteNotification = { _ in wakes.count += 1 }
        return (fixture, wakes)
    }

    @Test("BACKGROUND-BUDGET (7, U: 3 an hour, 30 a day): the fourth push in an hour waits until the hour has passed")
    func fourthPushInAnHourIsHeld() throws {
        let (fixture, wakes) = fixture()
        for index in 0..<4 {
            try fixture.push(Self.silent, pushType: .background, collapseID: "s\(index)")
            fixture.device.advance(by: 60)
        }
        #expect(wakes.count == 3)
        let held = try #require(fixture.entries(.backgroundBudget).first)
        #expect(held.notificationID == "s3" && held.message.contains("held until 2026-01-01T10:00:00Z"))
        fixture.device.advance(by: 3600)
        #expect(wakes.count == 4)
        #expect(fixture.entries(.backgroundNewestOnly).last?.time.description == "2026-01-01T10:00:00Z")
    }

    @Test("BACKGROUND-BUDGET (7, U): the daily budget holds pushes a full day after the oldest wake counted")
    func dailyBudget() throws {
        let (fixture, wakes) = fixture(
            DeviceConfiguration(backgroundPushBudget: BackgroundPushBudget(perHour: 100, perDay: 2)))
        for index in 0..<3 {
            try fixture.push(Self.silent, pushType: .background, collapseID: "d\(index)")
            fixture.device.advance(by: 3600)
        }
        #expect(wakes.count == 2)
        fixture.device.advance(by: 22 * 3600)
        #expect(wakes.count == 3)
    }

    @Test("BACKGROUND-BUDGET (7, U): an unlimited budget, as under Xcode, wakes for every push")
    func unlimitedBudget() throws {
        let (fixture, wakes) = fixture(DeviceConfiguration(backgroundPushBudget: .unlimited))
        for index in 0..<10 { try fixture.push(Self.silent, pushType: .background, collapseID: "u\(index)") }
        #expect(wakes.count == 10)
    }

    @Test("BACKGROUND-NEWEST-ONLY (7, D): only the newest held push is kept; a force-quit discards it")
    func newestOnlyAndForceQuit() throws {
        let (fixture, wakes) = fixture(DeviceConfiguration(backgroundPushBudget: BackgroundPushBudget(perHour: 1)))
        try fixture.push(Self.silent, pushType: .background, collapseID: "a")
        try fixture.push(Self.silent, pushType: .background, collapseID: "b")
        try fixture.push(Self.silent, pushType: .background, collapseID: "c")
        #expect(fixture.entries(.backgroundNewestOnly).map(\.notificationID) == ["b"])
        fixture.app.forceQuit()
        fixture.device.advance(by: 3600)
        #expect(wakes.count == 1)
        #expect(fixture.entries(.backgroundNewestOnly).last?.message.contains("force-quit") == true)
    }

    @Test("BACKGROUND-NEWEST-ONLY (7, D): launching the app delivers the held push at once")
    func launchDeliversHeldPush() throws {
        let (fixture, wakes) = fixture(DeviceConfiguration(backgroundPushBudget: BackgroundPushBudget(perHour: 1)))
        try fixture.push(Self.silent, pushType: .background, collapseID: "a")
        try fixture.push(Self.silent, pushType: .background, collapseID: "b")
        #expect(wakes.count == 1)
        fixture.app.moveToForeground()
        fixture.app.moveToBackground()
        fixture.app.forceQuit()
        fixture.app.launch()
        #expect(wakes.count == 1, "a force-quit discarded it before the launch")
        try fixture.push(Self.silent, pushType: .background, collapseID: "c")
        fixture.app.launch()
        #expect(wakes.count == 2)
    }
}
