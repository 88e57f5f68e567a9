import APNs
import DeviceModel
import Testing

/// DEVICE-SEMANTICS.md 7: the fetch completion handler of a background wake, each test named after its rule.
@Suite(.timeLimit(.minutes(1)))
struct BackgroundFetchHandlerTests {
    static let silent = #"{"aps":{"content-available":1}}"#

    /// The handlers the app was given, to call when the test says.
    final class Handlers {
        var waiting: [(BackgroundFetchResult) -> Void] = []
    }

    /// A ready app with the remote-notification mode whose delegate keeps each fetch completion handler.
    private func fixture() -> (DeviceFixture, Handlers) {
        let fixture = DeviceFixture.ready(
            AppConfiguration(bundleID: DeviceFixture.bundleID, backgroundModes: [.remoteNotification]))
        let handlers = Handlers()
        fixture.app.delegate.didReceiveRemoteNotificationWithFetchHandler = { _, handler in
            handlers.waiting.append(handler)
        }
        return (fixture, handlers)
    }

    @Test("BACKGROUND-FETCH-HANDLER (7, D): a handler called within 30 s ends the wake; a second call is ignored")
    func calledInTime() throws {
        let (fixture, handlers) = fixture()
        try fixture.push(Self.silent, pushType: .background)
        let handler = try #require(handlers.waiting.first)
        fixture.device.advance(by: 29)
        handler(.newData)
        handler(.noData)
        fixture.device.advance(by: 60)
        let entries = fixture.entries(.backgroundFetchHandler)
        #expect(entries.map(\.kind) == [.appWoken, .dropped])
        #expect(entries.first?.message.contains(".newData in time") == true)
        #expect(entries.last?.message.contains("again (call 2)") == true)
        #expect(fixture.app.state == .background)
        #expect(fixture.entries(.backgroundFetchPenalty).isEmpty)
    }

    @Test("BACKGROUND-FETCH-HANDLER (7, D): not called within 30 s, the app is terminated; a late call is ignored")
    func notCalledInTime() throws {
        let (fixture, handlers) = fixture()
        try fixture.push(Self.silent, pushType: .background)
        fixture.device.advance(by: 45)
        #expect(fixture.app.state == .notRunning)
        let terminated = try #require(fixture.entries(.backgroundFetchHandler).first)
        #expect(terminated.kind == .dropped && terminated.time == fixture.clock.now + -15)
        #expect(terminated.message.contains("terminated"))
        let late = try #require(handlers.waiting.first)
        late(.newData)
        #expect(fixture.entries(.backgroundFetchHandler).last?.message.contains("after the 30 seconds ran out") == true)
    }

    @Test(
        "BACKGROUND-FETCH-PENALTY (7, U: one more wake on the budget): a missed handler makes the budget run out sooner"
    )
    func missedHandlerCountsAgainstTheApp() throws {
        let (fixture, handlers) = fixture()
        try fixture.push(Self.silent, pushType: .background, collapseID: "s0")
        fixture.device.advance(by: 60)
        #expect(fixture.entries(.backgroundFetchPenalty).count == 1)
        // The budget is 3 an hour: the missed call counted twice, so the second push wakes and the third is held.
        try fixture.push(Self.silent, pushType: .background, collapseID: "s1")
        handlers.waiting.last?(.noData)
        try fixture.push(Self.silent, pushType: .background, collapseID: "s2")
        #expect(handlers.waiting.count == 2)
        #expect(fixture.entries(.backgroundBudget).first?.notificationID == "s2")
    }
}
