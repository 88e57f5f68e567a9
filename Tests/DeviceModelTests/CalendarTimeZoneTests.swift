import APNs
import DeviceModel
import Testing

/// DEVICE-SEMANTICS.md 6: calendar triggers in named time zones, daylight saving time included
/// (LOCAL-CALENDAR-ZONE, U: Calendar.nextDate with .nextTime and the first of a repeated time).
/// Europe/Berlin in 2026: 02:00 CET jumps to 03:00 CEST on March 29; 03:00 CEST falls back to 02:00 CET on
/// October 25, so 02:30 is skipped in March and happens twice in October.
@Suite(.timeLimit(.minutes(1)))
struct CalendarTimeZoneTests {
    static let everyDayAt0230 = CalendarComponents(hour: 2, minute: 30)

    private func next(after seconds: Double, zone: String = "Europe/Berlin") throws -> String? {
        let trigger = try CalendarTrigger(dateMatching: Self.everyDayAt0230, repeats: true, timeZoneIdentifier: zone)
        return trigger.nextTriggerDate(after: DeviceInstant(secondsSince1970: seconds), deviceZone: nil)?.description
    }

    @Test(
        "LOCAL-CALENDAR-ZONE (6, U: .nextTime): 02:30 in the spring-forward gap fires at 03:00 CEST, then 02:30 again")
    func springForward() throws {
        // 2026-03-28T12:00:00Z, then the gap day's firing.
        #expect(try next(after: 1_774_699_200) == "2026-03-29T01:00:00Z")
        #expect(try next(after: 1_774_746_000) == "2026-03-30T00:30:00Z")
    }

    @Test("LOCAL-CALENDAR-ZONE (6, U: repeated time, the first): 02:30 on the fall-back day fires once, in summer time")
    func fallBack() throws {
        // 2026-10-24T12:00:00Z: the first 02:30 (CEST, 00:30Z); after it, the next day's 02:30 CET, not the repeat.
        #expect(try next(after: 1_792_843_200) == "2026-10-25T00:30:00Z")
        #expect(try next(after: 1_792_888_200) == "2026-10-26T01:30:00Z")
    }

    @Test("LOCAL-CALENDAR-ZONE (6, U): an unknown zone name is an error naming it; a name and an offset are refused")
    func badZone() {
        #expect(throws: FieldError.self) { try next(after: 0, zone: "Mars/Olympus_Mons") }
        #expect(throws: FieldError.self) {
            try CalendarTrigger(
                dateMatching: Self.everyDayAt0230, repeats: false, timeZoneOffset: 3600,
                timeZoneIdentifier: "Europe/Berlin")
        }
        let device = Device()
        #expect(throws: FieldError.self) { try device.setTimeZone(identifier: "Nowhere/At_All") }
        #expect(device.timeZoneIdentifier == nil)
    }

    @Test(
        "LOCAL-CALENDAR-ZONE (6, U): a repeating trigger without a zone floats with the device's named zone across DST")
    func floatsWithTheDevice() throws {
        let clock = VirtualClock(start: DeviceInstant(secondsSince1970: 1_774_699_200))
        let device = Device(clock: clock)
        try device.setTimeZone(identifier: "Europe/Berlin")
        let app = device.install(AppConfiguration(bundleID: DeviceFixture.bundleID))
        app.launch()
        app.notificationCenter.requestAuthorization(options: [.alert])
        try app.notificationCenter.add(
            NotificationRequest(
                identifier: "night", content: NotificationContent(title: "Backup", body: "Runs now"),
                trigger: .calendar(try CalendarTrigger(dateMatching: Self.everyDayAt0230, repeats: true))))
        #expect(
            app.notificationCenter.nextTriggerDate(ofPendingRequest: "night")?.description == "2026-03-29T01:00:00Z")
        let scheduled = device.timeline.entries(decidedBy: .localCalendarZone)
        #expect(scheduled.first?.message.contains("the device's Europe/Berlin") == true)
        device.advance(by: 2 * 86_400)
        let fired = device.timeline.entries.filter { $0.message == "trigger fired" }.map(\.time.description)
        #expect(fired == ["2026-03-29T01:00:00Z", "2026-03-30T00:30:00Z"])
    }
}
