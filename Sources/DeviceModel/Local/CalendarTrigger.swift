import APNs

/// `UNCalendarNotificationTrigger`: fires when the clock matches the date components that are set.
///
/// Matching follows what was observed of iOS (DEVICE-SEMANTICS.md 6, radar 32865247: like
/// `Calendar.nextDate(after:matching:matchingPolicy: .nextTime)`): components larger than the smallest one
/// set and left unset match anything, smaller ones match their lowest value (`hour: 9` fires at 09:00:00 every
/// day); a day the month does not have moves forward to the first day of the next month (`day: 31` in June
/// fires on July 1). A zone is a name (`Europe/Berlin`, daylight saving time included: see
/// CalendarTrigger+TimeZone.swift) or a fixed offset from UTC; with neither the trigger floats with the
/// device's zone (`Device.timeZoneIdentifier`, else `Device.timeZoneOffset`) when the request is added or re-armed.
public struct CalendarTrigger: Sendable, Hashable {
    public let components: CalendarComponents
    public let repeats: Bool
    /// Seconds east of UTC; nil: the named zone, or the device's.
    public let timeZoneOffset: Int?
    /// A time zone name (`Europe/Berlin`), matched with its daylight saving time; nil: the offset, or the device's.
    public let timeZoneIdentifier: String?

    /// Throws for a component out of its range (negative components never match, as on iOS, but the model
    /// refuses them at once so a profile's mistake is named).
    public init(
        dateMatching components: CalendarComponents, repeats: Bool, timeZoneOffset: Int? = nil,
        timeZoneIdentifier: String? = nil
    ) throws(FieldError) {
        let ranges: [(String, Int?, ClosedRange<Int>)] = [
            ("year", components.year, 1970...9999), ("month", components.month, 1...12),
            ("day", components.day, 1...31), ("weekday", components.weekday, 1...7), ("hour", components.hour, 0...23),
            ("minute", components.minute, 0...59), ("second", components.second, 0...59),
        ]
        for (name, value, range) in ranges {
            if let value, !range.contains(value) {
                throw FieldError(field: name, message: "\(value) is outside \(range.lowerBound)...\(range.upperBound)")
            }
        }
        guard ranges.contains(where: { $0.1 != nil }) else {
            throw FieldError(field: "dateComponents", message: "sets no component")
        }
        if let offset = timeZoneOffset, abs(offset) > 14 * 3600 {
            throw FieldError(field: "timeZone", message: "\(offset) s is more than 14 hours from UTC")
        }
        if let timeZoneIdentifier {
            guard timeZoneOffset == nil else {
                throw FieldError(field: "timeZone", message: "give a name or an offset, not both")
            }
            try Self.checkTimeZone(timeZoneIdentifier)
        }
        self.components = components
        self.repeats = repeats
        self.timeZoneOffset = timeZoneOffset
        self.timeZoneIdentifier = timeZoneIdentifier
    }

    /// The zone the trigger matches in, for the timeline: its own, or the device's.
    func zoneDescription(deviceZone: String?, deviceOffset: Int) -> String {
        if let timeZoneIdentifier { return timeZoneIdentifier }
        if let timeZoneOffset { return "UTC\(timeZoneOffset >= 0 ? "+" : "")\(timeZoneOffset) s" }
        return deviceZone.map { "the device's \($0)" }
            ?? "the device's UTC\(deviceOffset >= 0 ? "+" : "")\(deviceOffset) s"
    }

    /// Whether daylight saving time applies: the trigger's zone is named, or it floats with a named device zone.
    func usesNamedZone(deviceZone: String?) -> Bool {
        timeZoneIdentifier != nil || (timeZoneOffset == nil && deviceZone != nil)
    }

    /// `nextTriggerDate()` after `instant`: in the trigger's named zone, else its offset, else the device's named
    /// zone (`deviceZone`), else `deviceOffset`.
    public func nextTriggerDate(after instant: DeviceInstant, deviceZone: String?, deviceOffset: Int = 0)
        -> DeviceInstant?
    {
        if let zone = timeZoneIdentifier ?? (timeZoneOffset == nil ? deviceZone : nil) {
            return nextTriggerDate(after: instant, inZone: zone)
        }
        return nextTriggerDate(after: instant, deviceOffset: deviceOffset)
    }

    /// `nextTriggerDate()` after `instant`, in the trigger's zone (or `deviceOffset` when it has none); nil when
    /// no date matches within eight years (a year that has passed, February 30).
    public func nextTriggerDate(after instant: DeviceInstant, deviceOffset: Int = 0) -> DeviceInstant? {
        let offset = Double(timeZoneOffset ?? deviceOffset)
        let local = instant.secondsSince1970 + offset
        let startDay = Int64((local / 86_400).rounded(.down))
        let c = components
        // Below the smallest component set: its lowest value; above it and unset: anything.
        let seconds = c.second.map { [$0] } ?? [0]
        let minutes = c.minute.map { [$0] } ?? (c.second != nil ? Array(0..<60) : [0])
        let hours = c.hour.map { [$0] } ?? (c.second != nil || c.minute != nil ? Array(0..<24) : [0])
        for day in startDay...(startDay + 366 * 8) {
            guard matches(day: day) else { continue }
            for hour in hours {
                for minute in minutes {
                    for second in seconds {
                        let candidate = Double(day * 86_400 + Int64(hour * 3600 + minute * 60 + second)) - offset
                        if candidate > instant.secondsSince1970 { return DeviceInstant(secondsSince1970: candidate) }
                    }
                }
            }
        }
        return nil
    }

    /// Whether a day (days since 1970 in the trigger's zone) matches year, month, day and weekday, counting a
    /// day the month lacks as the first of the next month.
    private func matches(day: Int64) -> Bool {
        let (year, month, dayOfMonth) = DeviceInstant.civil(fromDays: day)
        let weekday = Int((day + 4) % 7 + 7) % 7 + 1  // 1970-01-01 was a Thursday; Sunday is 1
        if let wanted = components.weekday, wanted != weekday { return false }
        if components.year.map({ Int64($0) == year }) ?? true, components.month.map({ Int64($0) == month }) ?? true,
            components.day.map({ Int64($0) == dayOfMonth }) ?? true
        {
            return true
        }
        // .nextTime: a day the previous month lacks lands on the first of this one.
        guard dayOfMonth == 1, let wantedDay = components.day else { return false }
        let (previousYear, previousMonth, lastDay) = DeviceInstant.civil(fromDays: day - 1)
        return Int64(wantedDay) > lastDay && components.year.map({ Int64($0) == previousYear }) ?? true
            && components.month.map({ Int64($0) == previousMonth }) ?? true
    }
}

/// The date components a calendar trigger matches (`DateComponents`); nil matches anything.
public struct CalendarComponents: Sendable, Hashable {
    public var year: Int?
    public var month: Int?
    public var day: Int?
    /// 1 is Sunday, as in Foundation's Gregorian calendar.
    public var weekday: Int?
    public var hour: Int?
    public var minute: Int?
    public var second: Int?

    public init(
        year: Int? = nil, month: Int? = nil, day: Int? = nil, weekday: Int? = nil, hour: Int? = nil,
        minute: Int? = nil, second: Int? = nil
    ) {
        self.year = year
        self.month = month
        self.day = day
        self.weekday = weekday
        self.hour = hour
        self.minute = minute
        self.second = second
    }
}
