import APNs
import DeviceModel
import Testing

/// DEVICE-SEMANTICS.md 6: calendar triggers (LOCAL-CALENDAR, U: .nextTime matching as observed, fixed offsets).
@Suite(.timeLimit(.minutes(1)))
struct CalendarTriggerTests {
    /// 2026-01-01T09:00:00Z, a Thursday: the virtual clock's start.
    static let start = DeviceInstant(secondsSince1970: 1_767_258_000)
    /// 2026-06-15T00:00:00Z.
    static let midJune = DeviceInstant(secondsSince1970: 1_781_481_600)

    static let cases: [(CalendarComponents, DeviceInstant, Int?, String)] = [
        (CalendarComponents(hour: 9), start, nil, "2026-01-02T09:00:00Z"),
        (CalendarComponents(minute: 30), start, nil, "2026-01-01T09:30:00Z"),
        (CalendarComponents(second: 15), start, nil, "2026-01-01T09:00:15Z"),
        (CalendarComponents(weekday: 2, hour: 8), start, nil, "2026-01-05T08:00:00Z"),
        (CalendarComponents(day: 31), midJune, nil, "2026-07-01T00:00:00Z"),
        (CalendarComponents(month: 2, day: 30, hour: 7), start, nil, "2026-03-01T07:00:00Z"),
        (CalendarComponents(year: 2027, month: 1, day: 1), start, nil, "2027-01-01T00:00:00Z"),
        (CalendarComponents(hour: 9), start, 3600, "2026-01-02T08:00:00Z"),
        (CalendarComponents(hour: 9), start, -5 * 3600, "2026-01-01T14:00:00Z"),
    ]

    @Test(
        "LOCAL-CALENDAR (6, U: .nextTime, fixed offsets): the next date matching the components set",
        arguments: cases)
    func nextDate(_ components: CalendarComponents, _ after: DeviceInstant, _ offset: Int?, _ expected: String) throws {
        let trigger = try CalendarTrigger(dateMatching: components, repeats: false, timeZoneOffset: offset)
        #expect(trigger.nextTriggerDate(after: after)?.description == expected)
    }

    @Test("LOCAL-CALENDAR (6, U): a trigger without a zone floats with the device's; a repeating one re-arms")
    func repeatingInTheDeviceZone() throws {
        let fixture = DeviceFixture.ready()
        fixture.device.timeZoneOffset = 2 * 3600
        let trigger = try CalendarTrigger(dateMatching: CalendarComponents(hour: 12, minute: 0), repeats: true)
        try fixture.app.notificationCenter.add(
            NotificationRequest(
                identifier: "lunch", content: NotificationContent(title: "Lunch"), trigger: .calendar(trigger)))
        #expect(
            fixture.app.notificationCenter.nextTriggerDate(ofPendingRequest: "lunch")?.description
                == "2026-01-01T10:00:00Z")
        fixture.device.advance(by: 2 * 86_400)
        #expect(
            fixture.app.presentations.map(\.notification.date.description) == [
                "2026-01-01T10:00:00Z", "2026-01-02T10:00:00Z",
            ])
        #expect(fixture.app.notificationCenter.pendingNotificationRequests().count == 1)
    }

    @Test("LOCAL-CALENDAR (6, U): components no date matches never fire; out-of-range components are refused")
    func neverAndInvalid() throws {
        let fixture = DeviceFixture.ready()
        let past = try CalendarTrigger(dateMatching: CalendarComponents(year: 2020), repeats: false)
        #expect(past.nextTriggerDate(after: Self.start) == nil)
        try fixture.app.notificationCenter.add(
            NotificationRequest(identifier: "old", content: NotificationContent(title: "Old"), trigger: .calendar(past))
        )
        #expect(fixture.entries(.localCalendar).last?.message.contains("never fires") == true)
        #expect(fixture.app.notificationCenter.pendingNotificationRequests().isEmpty)
        #expect(throws: FieldError.self) {
            try CalendarTrigger(dateMatching: CalendarComponents(hour: 24), repeats: false)
        }
        #expect(throws: FieldError.self) { try CalendarTrigger(dateMatching: CalendarComponents(), repeats: false) }
    }
}
