import Testing
@testable import QuarryCore

@Suite struct CivilDateTests {
    /// Walks the calendar one day at a time the naive way (1600-03-01 ... 2400-12-31) and checks
    /// both conversions against it, crossing every kind of leap and non-leap century.
    @Test func agreesWithANaiveDayByDayWalk() {
        var year: Int64 = 1600, month = 3, day = 1
        var expected = CivilDate.days(year: 1600, month: 3, day: 1)
        var mismatches = 0
        while year <= 2400 {
            if CivilDate.days(year: year, month: month, day: day) != expected { mismatches += 1 }
            let back = CivilDate.civil(fromDays: expected)
            if back.year != year || back.month != month || back.day != day { mismatches += 1 }
            expected += 1
            day += 1
            if day > CivilDate.daysInMonth(year: year, month: month) {
                day = 1
                month += 1
                if month > 12 { month = 1; year += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    @Test(arguments: [
        (Int64(1970), 1, 1, Int64(0)),
        (1969, 12, 31, -1),
        (2000, 3, 1, 11_017),
        (2015, 3, 23, 16_517),
        (0, 1, 1, -719_528),
        (9999, 12, 31, 2_932_896),
    ])
    func knownDayNumbers(year: Int64, month: Int, day: Int, days: Int64) {
        #expect(CivilDate.days(year: year, month: month, day: day) == days)
        let back = CivilDate.civil(fromDays: days)
        #expect(back.year == year && back.month == month && back.day == day)
    }

    @Test func leapYears() {
        #expect(CivilDate.isLeapYear(2000))
        #expect(CivilDate.isLeapYear(2016))
        #expect(!CivilDate.isLeapYear(1900))
        #expect(!CivilDate.isLeapYear(2015))
        #expect(CivilDate.isValid(year: 2016, month: 2, day: 29))
        #expect(!CivilDate.isValid(year: 2015, month: 2, day: 29))
        #expect(!CivilDate.isValid(year: 2015, month: 4, day: 31))
        #expect(!CivilDate.isValid(year: 2015, month: 13, day: 1))
        #expect(!CivilDate.isValid(year: 2015, month: 1, day: 0))
    }

    @Test func weekdays() {
        #expect(CivilDate.isoWeekday(days: 0) == 4)  // 1970-01-01, Thursday
        #expect(CivilDate.isoWeekday(days: -1) == 3)
        #expect(CivilDate.isoWeekday(days: 16_517) == 1)  // 2015-03-23, Monday
        #expect(CivilDate.isoWeekday(days: 16_516) == 7)
    }

    @Test func floorDivision() {
        #expect(CivilDate.floorDiv(7, 2) == 3)
        #expect(CivilDate.floorDiv(-7, 2) == -4)
        #expect(CivilDate.floorDiv(-8, 2) == -4)
        #expect(CivilDate.floorDiv(-1, CivilDate.msPerDay) == -1)
        #expect(CivilDate.floorDiv(Int64.min, CivilDate.msPerDay) == -106_751_991_168)
    }

    /// Every Int64 instant maps to some date without trapping.
    @Test func extremeDayNumbersDoNotTrap() {
        for ms in [Int64.min, Int64.max] {
            let days = CivilDate.floorDiv(ms, CivilDate.msPerDay)
            let civil = CivilDate.civil(fromDays: days)
            #expect(CivilDate.days(year: civil.year, month: civil.month, day: civil.day) == days)
        }
    }
}
