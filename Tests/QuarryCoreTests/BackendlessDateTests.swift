import Testing
import QuarryTestSupport
@testable import QuarryCore

/// One row of the "Supported Date Formats" table (reference §1.9): the pattern, its example,
/// the expected instant, and which of the 33 reads it first when all are tried in order.
struct DocumentedForm: Sendable, CustomTestStringConvertible {
    let row: Int
    let pattern: String
    let example: String
    let ms: Int64
    let firstMatch: Int
    init(_ row: Int, _ pattern: String, _ example: String, _ ms: Int64, firstMatch: Int? = nil) {
        self.row = row
        self.pattern = pattern
        self.example = example
        self.ms = ms
        self.firstMatch = firstMatch ?? row
    }
    var testDescription: String { "#\(row) \(pattern)" }
}

private let d: Int64 = 1_427_068_800_000  // 2015-03-23
private let t: Int64 = 1_427_121_015_000  // 2015-03-23 14:30:15 UTC

let documentedForms: [DocumentedForm] = [
    .init(1, "EEE MMM dd HH:mm:ss zzz yyyy", "Mon Mar 23 14:30:15 GMT 2015", t),
    .init(2, "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", "2015-03-23T14:30:15.250Z", t + 250),
    .init(3, "MM/dd/yyyy HH:mm:ss 'GMT'z", "03/23/2015 14:30:15 GMT-0200", 1_427_128_215_000),
    .init(4, "MM.dd.yyyy HH:mm:ss 'GMT'z", "03.23.2015 14:30:15 GMT+0000", t),
    .init(5, "MM-dd-yyyy HH:mm:ss 'GMT'z", "03-23-2015 14:30:15 GMT+0000", t),
    .init(6, "MM/dd/yyyy HH:mm:ss z", "03/23/2015 14:30:15 UTC", t),
    .init(7, "MM.dd.yyyy HH:mm:ss z", "03.23.2015 14:30:15 UTC", t),
    .init(8, "MM.dd.yyyy HH:mm:ss", "03.23.2015 14:30:15", t),
    .init(9, "MM-dd-yyyy HH:mm:ss", "03-23-2015 14:30:15", t),
    .init(10, "MM/dd/yyyy HH:mm:ss", "03/23/2015 14:30:15", t),
    .init(11, "MM.dd.yyyy", "03.23.2015", d),
    .init(12, "MM-dd-yyyy", "03-23-2015", d),
    // The same text as row 3, so row 3's pattern reads it first.
    .init(13, "MM/dd/yyyy HH:mm:ss 'GMT'Z", "03/23/2015 14:30:15 GMT-0200", 1_427_128_215_000, firstMatch: 3),
    .init(14, "MM/dd/yyyy HH:mm", "03/23/2015 14:30", 1_427_121_000_000),
    .init(15, "MM/dd/yyyy", "03/23/2015", d),
    .init(16, "dd/MMM/yyyy", "23/Mar/2015", d),
    .init(17, "dd-MMM-yyyy", "23-Mar-2015", d),
    .init(18, "EEEEE, d MMMMM yyyy", "Monday, 23 March 2015", d),
    .init(19, "yyyy/MM/d/HH:mm:ss", "2015/03/23/14:30:15", t),
    .init(20, "yyyy-MM-dd'T'HH:mm:ss", "2015-03-23T14:30:15", t),
    .init(21, "EEEEE, MMMMM d, yyyy", "Monday, March 23, 2015", d),
    .init(22, "MMMMM d, yyyy", "March 23, 2015", d),
    .init(23, "yyyy M d", "2015 3 23", d),
    .init(24, "yyyyMMMd", "2015Mar23", d),
    .init(25, "yyyy-MMM-d", "2015-Mar-23", d),
    .init(26, "yyyy-M-d, E", "2015-3-23, Mon", d),
    .init(27, "'Date' yyyy-MM-dd", "Date 2015-03-23", d),
    .init(28, "yyyy-MM-dd'T'HH:mm:ssZ", "2015-03-23T14:30:15+0000", t),
    .init(29, "yyyy-MM-dd'T'HH:mmZ", "2015-03-23T13:30+0100", 1_427_113_800_000),
    .init(30, "yyyy-MM-dd", "2015-03-23", d),
    // ISO-8601 week (a decision: Java's US locale would give Sunday 2015-03-22).
    .init(31, "yyyy-'W'w", "2015-W13", d),
    .init(32, "yyyy-DDD", "2015-082", d),
    .init(33, "d MMMMM yyyy, HH'h' mm'm' ss's'", "23 March 2015, 14h 30m 15s", t),
]

@Suite struct BackendlessDateTests {
    @Test func theListIsTheDocumentedOneInOrder() {
        #expect(BackendlessDate.documentedForms == documentedForms.map(\.pattern))
    }

    @Test func everyAcceptedFormCompiles() {
        #expect(BackendlessDate.patterns.count == BackendlessDate.acceptedForms.count)
        #expect(BackendlessDate.patterns.map(\.source) == BackendlessDate.acceptedForms)
    }

    @Test func acceptedFormsAreTheDocumentedOnesThenTheExtras() {
        let forms = BackendlessDate.acceptedForms
        #expect(Array(forms.prefix(33)) == BackendlessDate.documentedForms)
        #expect(
            Array(forms.dropFirst(33)) == [
                "dd/MM/yyyy HH:mm:ss 'GMT'z", "dd.MM.yyyy HH:mm:ss 'GMT'z", "dd-MM-yyyy HH:mm:ss 'GMT'z",
                "dd/MM/yyyy HH:mm:ss z", "dd.MM.yyyy HH:mm:ss z", "dd.MM.yyyy HH:mm:ss",
                "dd-MM-yyyy HH:mm:ss", "dd/MM/yyyy HH:mm:ss", "dd.MM.yyyy", "dd-MM-yyyy",
                "dd/MM/yyyy HH:mm:ss 'GMT'Z", "dd/MM/yyyy HH:mm", "dd/MM/yyyy",
                "yyyyMMdd",
            ])
    }

    /// Reference §7 test 37: each documented example reads as its instant, through the first
    /// pattern in the list that takes the whole string.
    @Test(arguments: documentedForms)
    func documentedExampleParses(_ form: DocumentedForm) throws {
        let match = try #require(BackendlessDate.match(form.example))
        #expect(match.ms == form.ms)
        #expect(match.form == form.firstMatch - 1)
        #expect(BackendlessDate.parse(form.example) == form.ms)
    }

    /// Each pattern on its own reads its example (row 13 is otherwise shadowed by row 3).
    @Test(arguments: documentedForms)
    func eachPatternReadsItsOwnExample(_ form: DocumentedForm) throws {
        let pattern = try #require(DatePattern(form.pattern))
        #expect(pattern.match(form.example) == form.ms)
    }

    /// The fixed instants of reference §1.9, written in several of the forms.
    @Test(arguments: [
        ("21-Dec-1980", Int64(346_204_800_000), "1980-12-21T00:00:00.000Z"),
        ("22-Dec-1980", 346_291_200_000, "1980-12-22T00:00:00.000Z"),
        ("28-10-1988", 594_000_000_000, "1988-10-28T00:00:00.000Z"),
        ("10/28/1988 01:00:00 UTC", 594_003_600_000, "1988-10-28T01:00:00.000Z"),
        ("10/28/1988 00:00:00 GMT-0200", 594_007_200_000, "1988-10-28T02:00:00.000Z"),
        ("January 1, 1990", 631_152_000_000, "1990-01-01T00:00:00.000Z"),
        ("2015-03-22T12:00:00", 1_427_025_600_000, "2015-03-22T12:00:00.000Z"),
        ("23-Mar-2015", 1_427_068_800_000, "2015-03-23T00:00:00.000Z"),
        ("03/23/2015", 1_427_068_800_000, "2015-03-23T00:00:00.000Z"),
        ("2015-03-23T10:00+0000", 1_427_104_800_000, "2015-03-23T10:00:00.000Z"),
        ("2015-04-01", 1_427_846_400_000, "2015-04-01T00:00:00.000Z"),
    ])
    func fixedInstants(text: String, ms: Int64, iso: String) {
        #expect(BackendlessDate.parse(text) == ms)
        #expect(ISODate.parse(iso) == ms)
    }

    /// The guide's own examples that the 33 patterns do not cover (errata 3-5).
    @Test func errataExamples() throws {
        #expect(BackendlessDate.parse("10/28/1988 00:00:00 GMT-0200") == 594_007_200_000)
        // Day-first fallback: 28 October 1988, not Java's lenient 1990-04-10.
        let dayFirst = try #require(BackendlessDate.match("28-10-1988"))
        #expect(dayFirst.ms == 594_000_000_000)
        #expect(BackendlessDate.acceptedForms[dayFirst.form] == "dd-MM-yyyy")
        let compact = try #require(BackendlessDate.match("20150323"))
        #expect(compact.ms == 1_427_068_800_000)
        #expect(BackendlessDate.acceptedForms[compact.form] == "yyyyMMdd")
    }

    @Test(arguments: [
        // Day-first twins with every separator, with time and zone parts.
        ("28/10/1988", Int64(594_000_000_000)),
        ("28.10.1988", 594_000_000_000),
        ("13/05/2015", 1_431_475_200_000),
        ("28/10/1988 02:00:00 GMT-0200", 594_014_400_000),
        ("28.10.1988 00:00:00", 594_000_000_000),
        ("28.10.1988 00:00:00 UTC", 594_000_000_000),
        // When both readings are possible the documented month-first one wins: May 6, not 5 June.
        ("05-06-2015", 1_430_870_400_000),
        // Zones: abbreviations, GMT with either offset spelling, bare RFC-822 offsets.
        ("Mon Mar 23 07:30:15 PDT 2015", 1_427_121_015_000),
        ("Mon Mar 23 10:30:15 EDT 2015", 1_427_121_015_000),
        ("Mon Mar 23 16:30:15 GMT+02:00 2015", 1_427_121_015_000),
        ("Mon Mar 23 16:30:15 GMT+0200 2015", 1_427_121_015_000),
        ("Mon Mar 23 14:30:15 utc 2015", 1_427_121_015_000),
        ("03/23/2015 14:30:15 CET", 1_427_117_415_000),
        ("03/23/2015 14:30:15 GMT", 1_427_121_015_000),  // 'GMT'z needs an offset, z does not
        ("03/23/2015 14:30:15 -0200", 1_427_128_215_000),
        ("03/23/2015 14:30:15 GMT-02:00", 1_427_128_215_000),
        ("2015-03-23T16:30:15+02:00", 1_427_121_015_000),
        // Names: short or long, any case; the weekday is not checked against the date.
        ("monday, 23 MARCH 2015", 1_427_068_800_000),
        ("Tue, 23 March 2015", 1_427_068_800_000),
        ("23-March-2015", 1_427_068_800_000),
        ("Mar 23, 2015", 1_427_068_800_000),
        ("2015-3-23, Sunday", 1_427_068_800_000),
        // Single-digit month and day where the field is not next to another number.
        ("3/5/2015", 1_425_513_600_000),
        ("2015 12 1", 1_448_928_000_000),
        // Leap days, pre-1970, year 0.
        ("02/29/2016", 1_456_704_000_000),
        ("12/31/1969 23:59:59", -1_000),
        ("01/01/0000", -62_167_219_200_000),
        // Day of year and ISO weeks at the edges of the year.
        ("2016-366", 1_483_142_400_000),
        ("2015-001", 1_420_070_400_000),
        ("2015-1", 1_420_070_400_000),
        ("2015-W1", 1_419_811_200_000),  // week 1 of 2015 starts on 2014-12-29
        ("2015-W53", 1_451_260_800_000),  // 2015 starts on a Thursday: 53 weeks
        ("2009-W53", 1_261_958_400_000),
        ("2020-W53", 1_609_113_600_000),  // leap year starting on a Wednesday: 53 weeks
    ])
    func otherAcceptedStrings(text: String, ms: Int64) {
        #expect(BackendlessDate.parse(text) == ms)
    }

    @Test(arguments: [
        "",
        "2015.03.23",  // reference §7 test 39
        "02/30/2015",  // no rollover into March
        "13/13/2015",  // neither reading is a date
        "32-10-1988",
        "03/23/2015x",  // trailing text (Java would ignore it)
        " 03/23/2015", "03/23/2015 ", "03/23/2015  14:30",
        "Mar 23 2015",  // not in the list
        "23 Mar 2015",
        "2015-03-23T14:30:15Z",  // Java's z/Z do not read the letter Z
        "2015-03-23T14:30:15.25Z",  // SSS is exactly three digits
        "2015-03-23T14:30:15.2500Z",
        "2015-03-23T14:30:15.250+02:00",
        "03/23/2015 24:00", "03/23/2015 23:60", "03/23/2015 23:59:60",
        "23-Mar-15", "03/23/15",  // two-digit years
        "03/023/2015", "003/23/2015", "03/23/02015",
        "2015-000", "2015-366", "2015-1000",
        "2015-W0", "2015-W00", "2015-W54", "2014-W53",
        "Foo, 23 March 2015", "Monday, 23 Marc 2015", "Monday, 23 Sept 2015",
        "2015032", "201503231", "20151323", "20150230", "2015323",
        "03/23/2015 14:30:15 GMT-2400", "03/23/2015 14:30:15 GMT+02",
        "03/23/2015 14:30:15 GMT+2:00", "03/23/2015 14:30:15 XYZ", "03/23/2015 14:30:15 PSTX",
        "03/23/2015 14:30:15 GMTUTC",
        "28-10-1988 00:00:00 UTC",  // no MM-dd-yyyy HH:mm:ss z in the list, so no twin
        "28-10-1988 25:00:00",
        "1427068800000",  // epoch ms are numbers, not strings
        "date 2015-03-23",  // quoted literals are case-sensitive
        "２０１５-03-23",
        "2015-03-23\u{0}",
    ])
    func rejects(text: String) {
        #expect(BackendlessDate.parse(text) == nil)
    }

    /// Property: random valid date-times written in several forms read back as the instant
    /// `CivilDate` gives for the same fields.
    @Test func randomInstantsRoundTripThroughSeveralForms() {
        var rng = SplitMix64(seed: 0xBAC)
        var failures: [String] = []
        func pad(_ v: Int, _ w: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, w - s.count)) + s
        }
        let monthNames = [
            "Jan", "February", "mar", "APRIL", "May", "June", "Jul", "August",
            "Sep", "October", "nov", "December",
        ]
        for _ in 0..<2_000 {
            let year = Int(rng.next() % 10_000), month = Int(rng.next() % 12) + 1
            let day = Int(rng.next() % UInt64(CivilDate.daysInMonth(year: Int64(year), month: month))) + 1
            let hour = Int(rng.next() % 24), minute = Int(rng.next() % 60), second = Int(rng.next() % 60)
            let millisecond = Int(rng.next() % 1000)
            let offsetMinutes = Int(rng.next() % (24 * 60 * 2 - 1)) - (24 * 60 - 1)
            let ms = CivilDate.epochMillis(
                year: Int64(year), month: month, day: day, hour: hour,
                minute: minute, second: second)
            let y = pad(year, 4), mo = pad(month, 2), dd = pad(day, 2)
            let time = "\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
            let sign = offsetMinutes < 0 ? "-" : "+"
            let offset = sign + pad(abs(offsetMinutes) / 60, 2) + pad(abs(offsetMinutes) % 60, 2)
            let midnight = ms - Int64(hour * 3_600_000 + minute * 60_000 + second * 1000)
            let dayOfYear =
                Int(
                    (midnight - CivilDate.epochMillis(year: Int64(year), month: 1, day: 1))
                        / CivilDate.msPerDay) + 1
            let cases: [(String, Int64)] = [
                ("\(mo)/\(dd)/\(y) \(time)", ms),
                ("\(dd)-\(monthNames[month - 1])-\(y)", midnight),
                ("\(y)-\(mo)-\(dd)T\(time).\(pad(millisecond, 3))Z", ms + Int64(millisecond)),
                ("\(y)-\(mo)-\(dd)T\(time)\(offset)", ms - Int64(offsetMinutes) * 60_000),
                ("\(mo).\(dd).\(y) \(time) GMT\(offset)", ms - Int64(offsetMinutes) * 60_000),
                ("\(y)-\(pad(dayOfYear, 3))", midnight),
                ("\(y)\(mo)\(dd)", midnight),
            ]
            for (text, expected) in cases where BackendlessDate.parse(text) != expected {
                failures.append(text)
            }
            if day > 12, BackendlessDate.parse("\(dd)/\(mo)/\(y) \(time)") != ms {
                failures.append("\(dd)/\(mo)/\(y) \(time)")
            }
        }
        #expect(failures.isEmpty)
    }

    /// The canonical form read from its bytes gives what trying the patterns gives, for random
    /// strings of its shape with fields in and out of range (month 13, day 31 of a short month,
    /// 29 February, hour 24, minute and second 60, year 0000); a string of that shape the fast
    /// reading rejects is left to the patterns.
    @Test func theCanonicalFormReadsAsThePatternsDo() {
        var rng = SplitMix64(seed: 11)
        func pick(_ range: ClosedRange<Int>, _ width: Int) -> String {
            let n = Int.random(in: range, using: &rng)
            return String(repeating: "0", count: max(0, width - String(n).count)) + String(n)
        }
        var read = 0
        for _ in 0..<3000 {
            let text =
                "\(pick(0...9999, 4))-\(pick(0...13, 2))-\(pick(0...31, 2))T\(pick(0...24, 2)):\(pick(0...60, 2)):"
                + "\(pick(0...60, 2)).\(pick(0...999, 3))Z"
            let fast = BackendlessDate.canonical(text)
            if fast != nil { read += 1 }
            #expect(fast == nil || fast == BackendlessDate.match(text)?.ms, "\(text)")
            #expect(BackendlessDate.parse(text) == BackendlessDate.match(text)?.ms, "\(text)")
        }
        #expect(read > 1000)
        #expect(BackendlessDate.canonical("2015-03-23T14:30:15.250Z") == 1_427_121_015_250)
        #expect(BackendlessDate.canonical("2015-03-23T14:30:15.250+0000") == nil)
    }
}
