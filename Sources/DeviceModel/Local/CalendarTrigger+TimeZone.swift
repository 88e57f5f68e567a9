import APNs
// Only the parts of Foundation this file uses (Calendar, TimeZone, Date; the ICU time zones), not `Foundation`
// itself: every process linking DeviceModel (the `herald` binary) maps what it links at start, and
// libFoundation.so alone added about 4 MB to the resident size of every command.
import FoundationEssentials
import FoundationInternationalization

// Calendar triggers in a named time zone (DEVICE-SEMANTICS.md 6: time zones and DST are U). A trigger whose
// zone is named (`Europe/Berlin`), or that floats with a device whose zone is named, matches through
// Foundation's `Calendar.nextDate(after:matching:matchingPolicy: .nextTime, repeatedTimePolicy: .first)`, the
// call iOS was observed to behave like (radar 32865247):
//   spring forward  02:30 in the skipped hour    -> the first time after the gap (03:00 local)
//   fall back       02:30 twice                  -> once, at the first 02:30 (summer time)

extension CalendarTrigger {
    /// Checks a zone name against the system's time zone database.
    static func checkTimeZone(_ identifier: String) throws(FieldError) {
        guard TimeZone(identifier: identifier) != nil else {
            throw FieldError(
                field: "timeZone", message: "'\(identifier)' is not a time zone name (such as Europe/Berlin)")
        }
    }

    /// The next matching date after `instant` in the zone `identifier`, DST included; nil when none matches
    /// within eight years.
    func nextTriggerDate(after instant: DeviceInstant, inZone identifier: String) -> DeviceInstant? {
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var wanted = DateComponents()
        wanted.year = components.year
        wanted.month = components.month
        wanted.day = components.day
        wanted.weekday = components.weekday
        wanted.hour = components.hour
        wanted.minute = components.minute
        wanted.second = components.second
        // Below the smallest component set, its lowest value (as the fixed-offset matcher does): `hour: 9` is
        // 09:00:00, not any second of that hour.
        if components.second == nil {
            wanted.second = 0
            if components.minute == nil {
                wanted.minute = 0
                if components.hour == nil { wanted.hour = 0 }
            }
        }
        let start = Date(timeIntervalSince1970: instant.secondsSince1970)
        guard
            let next = calendar.nextDate(
                after: start, matching: wanted, matchingPolicy: .nextTime, repeatedTimePolicy: .first,
                direction: .forward),
            next.timeIntervalSince(start) < 366 * 8 * 86_400
        else { return nil }
        return DeviceInstant(secondsSince1970: next.timeIntervalSince1970)
    }
}
