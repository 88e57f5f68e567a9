@testable import HeraldCLI
import Testing

@Suite struct UTCTimestampTests {
    @Test(arguments: [
        (0, "1970-01-01T00:00:00.000Z"),
        (1_767_225_600_123, "2026-01-01T00:00:00.123Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (4_107_542_399_999, "2100-02-28T23:59:59.999Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
    ])
    func formatsMillisecondsAsUTC(milliseconds: Int, expected: String) {
        #expect(utcTimestamp(milliseconds: milliseconds) == expected)
    }
}
