import Foundation
import QuarryCore
import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// The distinct-value sketch keeps its estimate's sum as registers grow
/// (docs/ARCHITECTURE.md#what-a-first-planning-costs): the estimate must be the one the
/// registers give when added up afresh, whatever the order values came in.
struct DistinctSketchTests {
    /// HyperLogLog's estimate from the registers, added up afresh (m = 256).
    private static func recounted(_ registers: [UInt8]) -> Int {
        let m = Double(registers.count)
        var sum = 0.0
        var zeros = 0
        for r in registers {
            sum += Double(sign: .plus, exponent: -Int(r), significand: 1)
            if r == 0 { zeros += 1 }
        }
        let raw = 0.7182725932495458 * m * m / sum
        if raw <= 2.5 * m, zeros > 0 { return Int((m * log(m / Double(zeros))).rounded()) }
        return Int(raw.rounded())
    }

    @Test func anEmptySketchEstimatesNone() {
        let sketch = DistinctSketch()
        #expect(sketch.estimate == 0)
        #expect(sketch.estimate == Self.recounted(sketch.registers))
    }

    @Test(arguments: [1, 7, 100, 640, 5_000, 200_000])
    func theKeptEstimateIsTheRecountedOne(distinct: Int) {
        var sketch = DistinctSketch()
        for i in 0..<distinct {
            sketch.add(.int(Int64(i) &* 7919))
            sketch.add(.string("v\(i % 97)"))
            if i % 3 == 0 { sketch.add(.int(Int64(i) &* 7919)) }
            #expect(i % 4_096 != 0 || sketch.estimate == Self.recounted(sketch.registers))
        }
        #expect(sketch.estimate == Self.recounted(sketch.registers))
        // Within four standard errors (6.5 % each) of the distinct values added.
        let expected = Double(distinct + min(distinct, 97))
        #expect(abs(Double(sketch.estimate) - expected) <= 0.26 * expected + 1)
    }

    @Test func theOrderOfValuesDoesNotChangeTheEstimate() {
        var generator = SplitMix64(seed: 11)
        let values = (0..<20_000).map { _ in Value.int(Int64(generator.next() % 9_000)) }
        var forward = DistinctSketch()
        var backward = DistinctSketch()
        var shuffled = DistinctSketch()
        for v in values { forward.add(v) }
        for v in values.reversed() { backward.add(v) }
        for v in values.shuffled(using: &generator) { shuffled.add(v) }
        #expect(forward == backward && forward == shuffled)
        #expect(forward.estimate == backward.estimate && forward.estimate == shuffled.estimate)
        #expect(forward.estimate == Self.recounted(forward.registers))
    }
}
