import QuarryTestSupport
import Testing

@testable import QuarryCore

/// `DecimalText.double` reads a number as `Double(String)` does, bit for bit: on its fast path
/// (plain decimals whose digits form an integer up to 2^53) and on every other spelling, which
/// it hands over.
@Suite struct DecimalTextTests {
    static func read(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { DecimalText.double($0) }
    }

    static func same(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let x?, let y?): return x.bitPattern == y.bitPattern
        default: return false
        }
    }

    @Test func randomDecimalsReadAsDoubleReadsThem() {
        var r = SplitMix64(seed: 91)
        var fast = 0
        for _ in 0..<20_000 {
            var text = r.chance(0.3) ? "-" : (r.chance(0.1) ? "+" : "")
            let whole = r.int(0...12), fraction = r.int(0...12)
            for _ in 0..<whole { text.append(Character(String(r.int(0...9)))) }
            if r.chance(0.8) {
                text += "."
                for _ in 0..<fraction { text.append(Character(String(r.int(0...9)))) }
            }
            if r.chance(0.05) { text += "e\(r.int(-30...30))" }
            #expect(Self.same(Self.read(text), Double(text)), "\(text)")
            if whole + fraction <= 15, whole + fraction > 0, !text.contains("e") { fast += 1 }
        }
        #expect(fast > 10_000)
    }

    @Test func edgesReadAsDoubleReadsThem() {
        let texts = [
            "0", "-0", "-0.0", "+0.5", ".5", "5.", ".", "", "-", "+", "1e5", "1E-5", "0.1", "0.3", "2.675",
            "9007199254740993", "999999999999999", "9999999999999999", "0.0000000000000000000001",
            "0.00000000000000000000001", "123456789012345", "1234567890123456", "1.7976931348623157e308",
            "1e309", "-1e999", "inf", "nan", "0x1p3", " 1", "1 ", "1..2", "1-2", "--1", "97.2", "-96.967772",
        ]
        for text in texts {
            #expect(Self.same(Self.read(text), Double(text)), "\(text)")
        }
    }
}
