import Testing
@testable import QuarryCore

@Suite struct RelativeTimeTests {
    private let day: Int64 = 86_400_000
    private let hour: Int64 = 3_600_000

    @Test func directionsAndSums() {
        #expect(RelativeTime.parse("in 2 days") == .success(2 * day))
        #expect(RelativeTime.parse("3 hours ago") == .success(-3 * hour))
        #expect(RelativeTime.parse("in 1 day 2 hours") == .success(day + 2 * hour))
        #expect(
            RelativeTime.parse("1 yr 2 wks 3 d 4 hr 5 min 6 sec ago")
                == .success(-(365 * day + 14 * day + 3 * day + 4 * hour + 5 * 60_000 + 6_000)))
        #expect(RelativeTime.parse("in 0 seconds") == .success(0))
    }

    @Test(arguments: ["now", "NOW", "Now"])
    func now(text: String) {
        #expect(RelativeTime.parse(text) == .success(0))
    }

    @Test(arguments: [
        ("yr", Int64(31_536_000_000)), ("yrs", 31_536_000_000), ("year", 31_536_000_000),
        ("years", 31_536_000_000),
        ("wk", 604_800_000), ("wks", 604_800_000), ("week", 604_800_000), ("weeks", 604_800_000),
        ("d", 86_400_000), ("day", 86_400_000), ("days", 86_400_000),
        ("hr", 3_600_000), ("hrs", 3_600_000), ("hour", 3_600_000), ("hours", 3_600_000),
        ("min", 60_000), ("mins", 60_000), ("minute", 60_000), ("minutes", 60_000),
        ("sec", 1_000), ("secs", 1_000), ("second", 1_000), ("seconds", 1_000),
    ])
    func everyUnitSpelling(unit: String, ms: Int64) {
        #expect(RelativeTime.parse("in 1 \(unit)") == .success(ms))
        #expect(RelativeTime.parse("2 \(unit.uppercased()) ago") == .success(-2 * ms))
    }

    @Test func wordsAreSplitOnSpacesCaseInsensitively() {
        #expect(RelativeTime.parse("  in   2   days  ") == .success(2 * day))
        #expect(RelativeTime.parse("In 2 DAYS") == .success(2 * day))
        #expect(RelativeTime.parse("2 Days AGO") == .success(-2 * day))
    }

    /// Integers as JavaScript's Number reads them in decimal: a sign, and a zero fraction.
    @Test func signedAndZeroFractionIntegers() {
        #expect(RelativeTime.parse("in -2 days") == .success(-2 * day))
        #expect(RelativeTime.parse("+3 secs ago") == .success(-3_000))
        #expect(RelativeTime.parse("in 2.0 days") == .success(2 * day))
        #expect(RelativeTime.parse("in 2. days") == .success(2 * day))
    }

    /// parse-server quirk kept: a bare direction has no pairs and means now.
    @Test func bareDirectionIsNow() {
        #expect(RelativeTime.parse("in") == .success(0))
        #expect(RelativeTime.parse("ago") == .success(0))
    }

    @Test func rangeLimit() {
        #expect(RelativeTime.parse("in 100000000 days") == .success(8_640_000_000_000_000))
        #expect(RelativeTime.parse("100000000 days ago") == .success(-8_640_000_000_000_000))
        #expect(failure("in 100000001 days")?.kind == .outOfRange)
        #expect(failure("in 100000000 days 1 sec")?.kind == .outOfRange)
        #expect(failure("in 300000 years")?.kind == .outOfRange)
        let huge = failure("in 99999999999999999999 days")
        #expect(huge?.kind == .outOfRange)
        #expect(huge?.message == "Time offset is out of range.")
        #expect(huge?.range == SourceRange(offset: 3, length: 20))
    }

    @Test(arguments: [
        (
            "2 days", RelativeTimeError.Kind.noDirection,
            "Time should either start with 'in' or end with 'ago'", nil as SourceRange?
        ),
        ("", .noDirection, "Time should either start with 'in' or end with 'ago'", nil),
        ("   ", .noDirection, "Time should either start with 'in' or end with 'ago'", nil),
        (" now", .noDirection, "Time should either start with 'in' or end with 'ago'", nil),
        ("in\t2 days", .noDirection, "Time should either start with 'in' or end with 'ago'", nil),
        ("inside 2 days", .noDirection, "Time should either start with 'in' or end with 'ago'", nil),
        ("in 2 days ago", .bothDirections, "Time cannot have both 'in' and 'ago'", nil),
        ("in ago", .bothDirections, "Time cannot have both 'in' and 'ago'", nil),
        (
            "in 2", .danglingUnitOrNumber, "Invalid time string. Dangling unit or number.",
            SourceRange(offset: 3, length: 1)
        ),
        (
            "days ago", .danglingUnitOrNumber, "Invalid time string. Dangling unit or number.",
            SourceRange(offset: 0, length: 4)
        ),
        (
            "in now", .danglingUnitOrNumber, "Invalid time string. Dangling unit or number.",
            SourceRange(offset: 3, length: 3)
        ),
        ("in two days", .notAnInteger, "'two' is not an integer.", SourceRange(offset: 3, length: 3)),
        ("in 1.5 days", .notAnInteger, "'1.5' is not an integer.", SourceRange(offset: 3, length: 3)),
        ("in 1e3 days", .notAnInteger, "'1e3' is not an integer.", SourceRange(offset: 3, length: 3)),
        ("in - days", .notAnInteger, "'-' is not an integer.", SourceRange(offset: 3, length: 1)),
        ("in +-5 days", .notAnInteger, "'+-5' is not an integer.", SourceRange(offset: 3, length: 3)),
        ("IN X DAYS", .notAnInteger, "'x' is not an integer.", SourceRange(offset: 3, length: 1)),
        ("in 1 day x days", .notAnInteger, "'x' is not an integer.", SourceRange(offset: 9, length: 1)),
        ("in 2 months", .invalidInterval, "Invalid interval: 'months'", SourceRange(offset: 5, length: 6)),
        ("in 2 DAYZ", .invalidInterval, "Invalid interval: 'dayz'", SourceRange(offset: 5, length: 4)),
        ("2 h ago", .invalidInterval, "Invalid interval: 'h'", SourceRange(offset: 2, length: 1)),
    ])
    func errors(text: String, kind: RelativeTimeError.Kind, message: String, range: SourceRange?) {
        let error = failure(text)
        #expect(error?.kind == kind)
        #expect(error?.message == message)
        #expect(error?.range == range)
    }

    private func failure(_ text: String) -> RelativeTimeError? {
        if case .failure(let error) = RelativeTime.parse(text) { return error }
        return nil
    }
}
