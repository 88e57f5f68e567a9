import DeviceModel
import Testing

@Suite(.timeLimit(.minutes(1)))
struct DeviceInstantTests {
    @Test(
        "instants print as UTC ISO 8601, as the timeline shows them",
        arguments: [
            (0.0, "1970-01-01T00:00:00Z"),
            (1_767_258_000, "2026-01-01T09:00:00Z"),
            (951_782_400, "2000-02-29T00:00:00Z"),
            (1.5, "1970-01-01T00:00:01.500Z"),
            (-1, "1969-12-31T23:59:59Z"),
        ])
    func description(_ seconds: Double, _ expected: String) {
        #expect(DeviceInstant(secondsSince1970: seconds).description == expected)
    }

    @Test("a virtual clock moves only forward")
    func virtualClockMovesForward() {
        let clock = VirtualClock(start: DeviceInstant(secondsSince1970: 100))
        clock.advance(by: -5)
        clock.advance(by: .nan)
        #expect(clock.now.secondsSince1970 == 100)
        clock.advance(by: 5)
        #expect(clock.now.secondsSince1970 == 105)
    }
}
