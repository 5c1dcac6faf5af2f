import Testing
@testable import QuarryCore

@Suite struct DatePatternTests {
    @Test func abuttingNumbersTakeExactlyTheirCount() throws {
        let pattern = try #require(DatePattern("yyyyMMdd"))
        #expect(
            pattern.tokens == [
                .number(.year, minDigits: 4, maxDigits: 4),
                .number(.month, minDigits: 2, maxDigits: 2),
                .number(.day, minDigits: 2, maxDigits: 2),
            ])
    }

    @Test func separatedNumbersTakeOneToTheirNaturalWidth() throws {
        let pattern = try #require(DatePattern("yyyy-M-d, E"))
        #expect(
            pattern.tokens == [
                .number(.year, minDigits: 4, maxDigits: 4), .literal(Array("-".utf8)),
                .number(.month, minDigits: 1, maxDigits: 2), .literal(Array("-".utf8)),
                .number(.day, minDigits: 1, maxDigits: 2), .literal(Array(", ".utf8)),
                .weekdayName,
            ])
        #expect(
            try #require(DatePattern("yyyy-DDD")).tokens.last
                == .number(.dayOfYear, minDigits: 1, maxDigits: 3))
    }

    @Test func quotedTextIsLiteralAndMergesWithPunctuation() throws {
        let pattern = try #require(DatePattern("d MMMMM yyyy, HH'h' mm'm' ss's'"))
        #expect(
            pattern.tokens == [
                .number(.day, minDigits: 1, maxDigits: 2), .literal(Array(" ".utf8)), .monthName,
                .literal(Array(" ".utf8)), .number(.year, minDigits: 4, maxDigits: 4),
                .literal(Array(", ".utf8)), .number(.hour, minDigits: 1, maxDigits: 2),
                .literal(Array("h ".utf8)), .number(.minute, minDigits: 1, maxDigits: 2),
                .literal(Array("m ".utf8)), .number(.second, minDigits: 1, maxDigits: 2),
                .literal(Array("s".utf8)),
            ])
    }

    @Test func doubledQuotesAreOneQuote() throws {
        let pattern = try #require(DatePattern("HH 'o''clock' ''yyyy"))
        #expect(
            pattern.tokens == [
                .number(.hour, minDigits: 1, maxDigits: 2), .literal(Array(" o'clock '".utf8)),
                .number(.year, minDigits: 4, maxDigits: 4),
            ])
        let expected: Int64 = 1_420_070_400_000 + 14 * 3_600_000  // 2015-01-01T14:00Z
        #expect(pattern.match("14 o'clock '2015") == expected)
    }

    @Test func zoneAfterLiteralGMTIsOnlyAnOffset() throws {
        #expect(try #require(DatePattern("HH 'GMT'z")).tokens.last == .offset)
        #expect(try #require(DatePattern("HH 'GMT'Z")).tokens.last == .offset)
        #expect(try #require(DatePattern("HH z")).tokens.last == .zone)
    }

    @Test(arguments: ["yy", "y", "hh", "a", "X", "SS", "'unterminated", "yyyy 'a''"])
    func unsupportedPatternsDoNotCompile(pattern: String) {
        #expect(DatePattern(pattern) == nil)
    }

    /// `isoWeekMonday` against a day-by-day derivation of ISO weeks (the week holding a date's
    /// Thursday decides its week-year) for 1900-2100.
    @Test func isoWeeksAgreeWithTheThursdayRule() {
        var failures: [Int64] = []
        var weeksIn: [Int64: Int] = [:]
        let first = CivilDate.days(year: 1900, month: 1, day: 1)
        let last = CivilDate.days(year: 2100, month: 12, day: 31)
        for day in first...last {
            let monday = day - Int64(CivilDate.isoWeekday(days: day) - 1)
            let weekYear = CivilDate.civil(fromDays: monday + 3).year
            let week = Int((monday + 3 - CivilDate.days(year: weekYear, month: 1, day: 1)) / 7) + 1
            weeksIn[weekYear] = max(weeksIn[weekYear] ?? 0, week)
            if DatePattern.isoWeekMonday(year: weekYear, week: week) != monday { failures.append(day) }
        }
        for year in Int64(1901)...2099 {
            let weeks = weeksIn[year] ?? 0
            if DatePattern.isoWeekMonday(year: year, week: weeks + 1) != nil { failures.append(year) }
        }
        #expect(failures.isEmpty)
    }
}
