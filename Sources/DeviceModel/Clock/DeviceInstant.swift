/// A moment on the device's clock: seconds since 1970-01-01 00:00 UTC.
///
/// Apple's `Date` counts from 2001; the model counts from 1970 because APNs timestamps
/// (`timestamp`, `stale-date`, `apns-expiration`) do, so pushes and the clock compare without conversion.
public struct DeviceInstant: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var secondsSince1970: Double

    public init(secondsSince1970: Double) {
        self.secondsSince1970 = secondsSince1970
    }

    public static func < (lhs: DeviceInstant, rhs: DeviceInstant) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    /// The instant `seconds` later.
    public static func + (lhs: DeviceInstant, seconds: Double) -> DeviceInstant {
        DeviceInstant(secondsSince1970: lhs.secondsSince1970 + seconds)
    }

    /// The seconds from `rhs` to `lhs`.
    public static func - (lhs: DeviceInstant, rhs: DeviceInstant) -> Double {
        lhs.secondsSince1970 - rhs.secondsSince1970
    }

    /// UTC in ISO 8601 (`2026-12-01T13:45:00Z`, with milliseconds when the instant has a fraction), as the
    /// timeline prints it.
    public var description: String {
        let whole = secondsSince1970.rounded(.down)
        guard whole.magnitude < 1e15 else { return "\(secondsSince1970)s" }
        let seconds = Int64(whole)
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        let (year, month, day) = Self.civil(fromDays: days)
        let milliseconds = Int(((secondsSince1970 - whole) * 1000).rounded())
        let time =
            "\(pad(secondOfDay / 3600)):\(pad(secondOfDay % 3600 / 60)):\(pad(secondOfDay % 60))"
            + (milliseconds > 0 && milliseconds < 1000 ? "." + pad(milliseconds, width: 3) : "")
        return "\(pad(year, width: 4))-\(pad(month))-\(pad(day))T\(time)Z"
    }

    /// Year, month and day of the proleptic Gregorian calendar for a count of days since 1970-01-01
    /// (Howard Hinnant's `civil_from_days`).
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

private func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
    let remainder = value % divisor
    return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
}

private func pad(_ value: some BinaryInteger, width: Int = 2) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
