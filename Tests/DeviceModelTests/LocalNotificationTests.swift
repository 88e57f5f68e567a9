import APNs
import DeviceModel
import Testing

/// DEVICE-SEMANTICS.md 6: local notifications with time-interval triggers, each test named after its rule.
@Suite(.timeLimit(.minutes(1)))
struct LocalNotificationTests {
    private func request(_ id: String, after seconds: Double, repeats: Bool = false) throws -> NotificationRequest {
        NotificationRequest(
            identifier: id, content: NotificationContent(title: "Reminder", body: id),
            trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: seconds, repeats: repeats)))
    }

    @Test(
        "LOCAL-TIME-INTERVAL (6, O): the interval must be > 0, and >= 60 s when repeating",
        arguments: [
            (0.0, false), (-1, false), (30, true), (59.9, true),
        ])
    func invalidIntervalsThrow(_ interval: Double, _ repeats: Bool) {
        #expect(throws: FieldError.self) { try TimeIntervalTrigger(timeInterval: interval, repeats: repeats) }
    }

    @Test("LOCAL-TIME-INTERVAL (6, O): the error names the field and the rule")
    func intervalErrorNamesTheRule() {
        do {
            _ = try TimeIntervalTrigger(timeInterval: 30, repeats: true)
            Issue.record("accepted")
        } catch {
            #expect(error.field == "timeInterval")
            #expect(error.message.contains("at least 60 seconds"))
        }
        #expect((try? TimeIntervalTrigger(timeInterval: 60, repeats: true)) != nil)
        #expect((try? TimeIntervalTrigger(timeInterval: 1, repeats: false)) != nil)
    }

    @Test("LOCAL-SCHEDULED (6, D): a request fires after its interval on the model clock; a nil trigger fires now")
    func firesOnTheModelClock() throws {
        let fixture = DeviceFixture.ready()
        let center = fixture.app.notificationCenter
        let start = fixture.clock.now
        try center.add(try request("r1", after: 90))
        #expect(center.pendingNotificationRequests().map(\.identifier) == ["r1"])
        fixture.device.advance(by: 89)
        #expect(fixture.app.presentations.isEmpty)
        fixture.device.advance(by: 1)
        #expect(fixture.lastPresentation?.notification.date == start + 90)
        #expect(center.pendingNotificationRequests().isEmpty)

        try center.add(NotificationRequest(identifier: "now", content: NotificationContent(body: "now"), trigger: nil))
        #expect(fixture.lastPresentation?.notification.request.identifier == "now")
    }

    @Test("LOCAL-SCHEDULED (6, D): a repeating trigger fires every interval until removed, each at its own time")
    func repeatingFiresUntilRemoved() throws {
        let fixture = DeviceFixture.ready()
        let center = fixture.app.notificationCenter
        let start = fixture.clock.now
        try center.add(try request("every-minute", after: 60, repeats: true))
        fixture.device.advance(by: 180)
        #expect(fixture.app.presentations.map(\.notification.date) == [start + 60, start + 120, start + 180])
        #expect(center.nextTriggerDate(ofPendingRequest: "every-minute") == start + 240)
        center.removePendingNotificationRequests(withIdentifiers: ["every-minute", "never-added"])
        fixture.device.advance(by: 600)
        #expect(fixture.app.presentations.count == 3)
        #expect(fixture.entries(.localRemoved).count == 1, "the unknown id is ignored")
    }

    @Test("LOCAL-REPLACE (6, D): adding a pending identifier again replaces the request and its trigger")
    func replaceByIdentifier() throws {
        let fixture = DeviceFixture.ready()
        let center = fixture.app.notificationCenter
        try center.add(try request("r", after: 60))
        try center.add(
            NotificationRequest(
                identifier: "r", content: NotificationContent(body: "replaced"),
                trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: 120, repeats: false))))
        fixture.device.advance(by: 60)
        #expect(fixture.app.presentations.isEmpty, "the first trigger is gone")
        fixture.device.advance(by: 60)
        #expect(fixture.app.presentations.map(\.notification.request.content.body) == ["replaced"])
        #expect(fixture.entries(.localReplace).count == 1)
    }

    @Test("LOCAL-PENDING-LIMIT (6, O): the 65th pending request drops the one added longest ago")
    func pendingLimitDropsOldestAdded() throws {
        let fixture = DeviceFixture.ready()
        let center = fixture.app.notificationCenter
        // Added first but firing last: the limit goes by order of addition, not by fire date.
        try center.add(try request("first", after: 10_000))
        for index in 1...64 { try center.add(try request("r\(index)", after: Double(index * 60))) }
        let pending = center.pendingNotificationRequests().map(\.identifier)
        #expect(pending.count == NotificationCenter.pendingLimit)
        #expect(!pending.contains("first") && pending.first == "r1" && pending.last == "r64")
        #expect(fixture.entries(.localPendingLimit).map(\.notificationID) == ["first"])
    }

    @Test("LOCAL-NOT-ALLOWED (1a, U: error when denied, silent when notDetermined)")
    func addWhileUnauthorized() throws {
        let denied = DeviceFixture(user: ScriptedUser(authorizationAnswer: .dontAllow))
        denied.app.notificationCenter.requestAuthorization(options: [.alert])
        #expect(throws: NotificationCenterError.notificationsNotAllowed) {
            try denied.app.notificationCenter.add(try request("r", after: 60))
        }
        #expect(denied.app.notificationCenter.pendingNotificationRequests().isEmpty)

        let undetermined = DeviceFixture()
        try undetermined.app.notificationCenter.add(try request("r", after: 60))
        undetermined.device.advance(by: 60)
        #expect(undetermined.app.presentations.isEmpty)
        #expect(undetermined.entries(.localNotAllowed).last?.kind == .notShown)
    }

    @Test("LOCAL-REMOVED (6, D): removing delivered notifications ignores ids not in Notification Center")
    func removeDelivered() throws {
        let fixture = DeviceFixture.ready()
        let center = fixture.app.notificationCenter
        try center.add(NotificationRequest(identifier: "a", content: NotificationContent(body: "a"), trigger: nil))
        try center.add(NotificationRequest(identifier: "b", content: NotificationContent(body: "b"), trigger: nil))
        center.removeDeliveredNotifications(withIdentifiers: ["a", "zzz"])
        #expect(center.deliveredNotifications.map(\.request.identifier) == ["b"])
    }
}
