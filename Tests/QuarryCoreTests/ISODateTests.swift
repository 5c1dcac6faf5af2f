import Testing
@testable import QuarryCore

@Suite struct ISODateTests {
    @Test(arguments: [
        ("2015-03-23T00:00:00.000Z", Int64(1_427_068_800_000)),
        ("2015-03-23T14:30:15.250Z", 1_427_121_015_250),
        ("2015-03-23T14:30:15Z", 1_427_121_015_000),
        ("2015-03-23T14:30Z", 1_427_121_000_000),
        ("2015-03-23T14:30:15", 1_427_121_015_000),         // zone-less is UTC
        ("2015-03-23", 1_427_068_800_000),                   // date only: midnight UTC
        ("2015-03-23T14:30:15.2Z", 1_427_121_015_200),
        ("2015-03-23T14:30:15.25Z", 1_427_121_015_250),
        ("2015-03-23T14:30:15.2509Z", 1_427_121_015_250),    // truncated, not rounded
        ("2015-03-23T14:30:15.999999999Z", 1_427_121_015_999),
        ("2015-03-23T16:30:15.250+02:00", 1_427_121_015_250),
        ("2015-03-23T16:30:15.250+0200", 1_427_121_015_250),
        ("2015-03-23T12:30:15-02:00", 1_427_121_015_000),
        ("2015-03-23T00:00:00+00:00", 1_427_068_800_000),
        ("2015-03-23T00:00:00-00:00", 1_427_068_800_000),
        ("1969-12-31T23:59:59.999Z", -1),
        ("1970-01-01T00:00:00.000Z", 0),
        ("1900-01-01T00:00:00.000Z", -2_208_988_800_000),
        ("0000-01-01T00:00:00.000Z", -62_167_219_200_000),
        ("9999-12-31T23:59:59.999Z", 253_402_300_799_999),
        ("2016-02-29T00:00:00Z", 1_456_704_000_000),
        ("2000-02-29", 951_782_400_000),
    ])
    func parses(text: String, ms: Int64) {
        #expect(ISODate.parse(text) == ms)
    }

    @Test(arguments: [
        "",
        "2015-02-30",                       // no such day
        "2015-02-29T00:00:00Z",             // not a leap year
        "1900-02-29",                       // century, not a leap year
        "2015-13-01", "2015-00-10", "2015-03-00", "2015-04-31",
        "2015-03-23T24:00:00Z",             // hour 24
        "2015-03-23T23:60:00Z",
        "2015-03-23T23:59:60Z",             // leap second
        "2015-03-23T00:00:00.000Zx",        // trailing text
        "2015-03-23 ",
        "2015-03-23T",
        "2015-03-23T00",
        "2015-03-23T00:00:",
        "2015-03-23T00:00:00.Z",            // empty fraction
        "2015-03-23T00:00:00.1234567891Z",  // ten fraction digits
        "2015-03-23T00:00:00.000z",
        "2015-03-23t00:00:00.000Z",
        "2015-03-23 00:00:00.000Z",
        "2015-03-23T00:00:00+24:00",
        "2015-03-23T00:00:00+05:60",
        "2015-03-23T00:00:00+05",
        "2015-03-23T00:00:00+5:00",
        "2015-3-23", "15-03-23", "20150-03-23", "+2015-03-23", "-0001-01-01",
        "2015/03/23", "2015-03-23T00:00:00.000Z\u{0}",
        "２０１５-03-23",                    // fullwidth digits are not ASCII digits
    ])
    func rejects(text: String) {
        #expect(ISODate.parse(text) == nil)
    }

    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (-86_400_000, "1969-12-31T00:00:00.000Z"),
        (-86_400_001, "1969-12-30T23:59:59.999Z"),
        (1_427_068_800_000, "2015-03-23T00:00:00.000Z"),
        (1_427_121_015_250, "2015-03-23T14:30:15.250Z"),
        (-2_208_988_800_000, "1900-01-01T00:00:00.000Z"),
        (-62_167_219_200_000, "0000-01-01T00:00:00.000Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
        (253_402_300_800_000, "+010000-01-01T00:00:00.000Z"),
        (-62_167_219_200_001, "-000001-12-31T23:59:59.999Z"),
        (8_640_000_000_000_000, "+275760-09-13T00:00:00.000Z"),  // ECMAScript's largest date
    ])
    func formats(ms: Int64, text: String) {
        #expect(ISODate.format(ms) == text)
    }

    @Test func formatsExtremeInstantsWithoutTrapping() {
        #expect(ISODate.format(Int64.max).hasPrefix("+292278994-08-17T07:12:55.807Z"))
        #expect(ISODate.format(Int64.min).hasPrefix("-292275055-05-16T16:47:04.192Z"))
    }

    /// parse(format(ms)) == ms for pseudo-random instants across years 0000-9999.
    @Test func roundTripsEveryInstantInRange() {
        let lo: Int64 = -62_167_219_200_000, hi: Int64 = 253_402_300_799_999
        var rng = SplitMix64(seed: 0x5EED)
        var failures: [Int64] = []
        for _ in 0..<20_000 {
            let ms = lo + Int64(rng.next() % UInt64(hi - lo + 1))
            if ISODate.parse(ISODate.format(ms)) != ms { failures.append(ms) }
        }
        for ms in [lo, hi, 0, -1, 1] where ISODate.parse(ISODate.format(ms)) != ms {
            failures.append(ms)
        }
        #expect(failures.isEmpty)
    }
}

/// A small deterministic generator so property tests are reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
