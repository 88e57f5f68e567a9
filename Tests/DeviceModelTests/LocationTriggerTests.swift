import APNs
import DeviceModel
import Testing

/// DEVICE-SEMANTICS.md 6: location triggers, each test named after its rule.
@Suite(.timeLimit(.minutes(1)))
struct LocationTriggerTests {
    /// The office, and points 50 m and 2 km from it.
    static let office = Coordinate(latitude: 52.5200, longitude: 13.4050)
    static let inside = Coordinate(latitude: 52.5204, longitude: 13.4050)
    static let away = Coordinate(latitude: 52.5380, longitude: 13.4050)

    private func fixture(
        _ authorization: LocationAuthorization = .authorizedWhenInUse, entry: Bool = true, exit: Bool = false,
        repeats: Bool = false
    ) throws -> DeviceFixture {
        let fixture = DeviceFixture.ready()
        fixture.app.locationAuthorization = authorization
        let region = CircularRegion(
            identifier: "office", center: Self.office, radius: 100, notifyOnEntry: entry, notifyOnExit: exit)
        try fixture.app.notificationCenter.add(
            NotificationRequest(
                identifier: "arrive", content: NotificationContent(title: "Office", body: "Check in"),
                trigger: .location(try LocationTrigger(region: region, repeats: repeats))))
        return fixture
    }

    @Test("LOCAL-LOCATION (6, D): entering the region fires an entry trigger once; leaving fires an exit trigger")
    func entryAndExit() throws {
        let fixture = try fixture(exit: true, repeats: true)
        fixture.device.move(to: Self.away)
        #expect(fixture.app.presentations.isEmpty)
        fixture.device.move(to: Self.inside)
        fixture.device.move(to: Self.away)
        let fired = fixture.entries(.localLocation).map(\.message).filter { $0.hasSuffix("trigger fired") }
        #expect(fired == ["entered region office: trigger fired", "left region office: trigger fired"])
        #expect(fixture.app.presentations.count == 2)
        #expect(fixture.app.notificationCenter.pendingNotificationRequests().count == 1)

        let once = try self.fixture()
        once.device.move(to: Self.away)
        once.device.move(to: Self.inside)
        once.device.move(to: Self.away)
        once.device.move(to: Self.inside)
        #expect(once.app.presentations.count == 1)
        #expect(once.app.notificationCenter.pendingNotificationRequests().isEmpty)
    }

    @Test("LOCAL-LOCATION-AUTH (6, D): without when-in-use location authorization a crossing fires nothing")
    func needsLocationAuthorization() throws {
        let fixture = try fixture(.denied)
        fixture.device.move(to: Self.away)
        fixture.device.move(to: Self.inside)
        #expect(fixture.app.presentations.isEmpty)
        #expect(fixture.entries(.localLocationAuthorization).last?.message.contains("denied") == true)
        fixture.app.locationAuthorization = .authorizedAlways
        fixture.device.move(to: Self.away)
        fixture.device.move(to: Self.inside)
        #expect(fixture.app.presentations.count == 1)
    }

    @Test("LOCAL-LOCATION-CROSSING (6, U: crossings only): the first position inside the region fires nothing")
    func firstPositionIsNoCrossing() throws {
        let fixture = try fixture()
        fixture.device.move(to: Self.inside)
        #expect(fixture.app.presentations.isEmpty)
        #expect(throws: FieldError.self) {
            try LocationTrigger(
                region: CircularRegion(identifier: "r", center: Self.office, radius: 0), repeats: false)
        }
        #expect(throws: FieldError.self) {
            try LocationTrigger(
                region: CircularRegion(
                    identifier: "r", center: Self.office, radius: 10, notifyOnEntry: false, notifyOnExit: false),
                repeats: false)
        }
    }
}
