/// Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01, UTC).
///
/// Works in 400-year eras (146 097 days each), with the year starting on 1 March so the leap
/// day is the last day of the year; that makes the day-of-year to month mapping a fixed linear
/// formula. The approach follows Howard Hinnant's "chrono-Compatible Low-Level Date Algorithms".
/// All arithmetic is Int64 and total: every Int64 millisecond instant maps to a civil date.
enum CivilDate {
    static let msPerSecond: Int64 = 1_000
    static let msPerMinute: Int64 = 60_000
    static let msPerHour: Int64 = 3_600_000
    static let msPerDay: Int64 = 86_400_000

    private static let daysPerEra: Int64 = 146_097
    /// Days from 0000-03-01 (day 0 of era 0) to 1970-01-01.
    private static let epochShift: Int64 = 719_468

    /// Division rounding toward negative infinity (Swift's `/` truncates toward zero).
    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    static func isLeapYear(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// Days in `month` (1-12) of `year`; 0 for a month out of range.
    static func daysInMonth(year: Int64, month: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: return 31
        case 4, 6, 9, 11: return 30
        case 2: return isLeapYear(year) ? 29 : 28
        default: return 0
        }
    }

    static func isValid(year: Int64, month: Int, day: Int) -> Bool {
        day >= 1 && day <= daysInMonth(year: year, month: month)
    }

    /// Days since 1970-01-01 of a valid civil date.
    static func days(year: Int64, month: Int, day: Int) -> Int64 {
        // Shift to a March-based year: January and February belong to the previous year.
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yearOfEra = y - era * 400  // 0...399
        let marchMonth = Int64(month > 2 ? month - 3 : month + 9)  // 0 = March
        let dayOfYear = (153 * marchMonth + 2) / 5 + Int64(day) - 1  // 0...365
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * daysPerEra + dayOfEra - epochShift
    }

    /// The civil date of a day number (days since 1970-01-01).
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + epochShift
        let era = floorDiv(z, daysPerEra)
        let dayOfEra = z - era * daysPerEra  // 0...146096
        // Remove the leap days accumulated so far (one per 4 years, minus centuries, plus the
        // 400th) so that a plain division by 365 gives the year of the era.
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchMonth = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * marchMonth + 2) / 5 + 1)
        let month = Int(marchMonth < 10 ? marchMonth + 3 : marchMonth - 9)
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// ISO weekday of a day number: 1 = Monday ... 7 = Sunday (1970-01-01 was a Thursday).
    static func isoWeekday(days: Int64) -> Int {
        Int((days + 3) - floorDiv(days + 3, 7) * 7) + 1
    }

    /// Epoch milliseconds of a valid civil date and time of day in UTC.
    static func epochMillis(
        year: Int64, month: Int, day: Int, hour: Int = 0, minute: Int = 0,
        second: Int = 0, millisecond: Int = 0
    ) -> Int64 {
        days(year: year, month: month, day: day) * msPerDay
            + Int64(hour) * msPerHour + Int64(minute) * msPerMinute
            + Int64(second) * msPerSecond + Int64(millisecond)
    }
}
