/// `2026-01-01T00:00:00.123Z` for milliseconds since 1970 (APNs's 410 timestamps), without
/// Foundation: days to a civil date by Howard Hinnant's `civil_from_days`.
func utcTimestamp(milliseconds: Int) -> String {
    let seconds = milliseconds.quotientAndRemainder(dividingBy: 1000)
    let millis = seconds.remainder < 0 ? seconds.remainder + 1000 : seconds.remainder
    let wholeSeconds = seconds.remainder < 0 ? seconds.quotient - 1 : seconds.quotient
    var days = wholeSeconds / 86_400
    var secondOfDay = wholeSeconds % 86_400
    if secondOfDay < 0 {
        secondOfDay += 86_400
        days -= 1
    }
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthPrime = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
    let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
        + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(millis, 3))Z"
}
