/// A HyperLogLog sketch of the distinct values a column has held (256 registers, about 6.5%
/// standard error). Values are only ever added, so after updates and deletes it over-counts
/// until the column's statistics are refreshed.
struct DistinctSketch: Hashable, Sendable {
    private var registers = [UInt8](repeating: 0, count: DistinctSketch.size)
    private static let size = 256

    mutating func add(hash: Int) {
        let h = UInt64(bitPattern: Int64(hash))
        let index = Int(h >> 56)
        let rank = UInt8(min((h << 8).leadingZeroBitCount + 1, 57))
        if rank > registers[index] { registers[index] = rank }
    }

    mutating func add<H: Hashable>(_ value: H) {
        var hasher = Hasher()
        hasher.combine(value)
        add(hash: hasher.finalize())
    }

    var estimate: Int {
        let m = Double(Self.size)
        var sum = 0.0, zeros = 0
        for r in registers {
            sum += 1 / Double(UInt64(1) << UInt64(r))
            if r == 0 { zeros += 1 }
        }
        let raw = 0.7182725932495458 * m * m / sum  // alpha for m = 256
        // Small ranges: linear counting is the better estimator.
        if raw <= 2.5 * m, zeros > 0 { return Int((m * log(m / Double(zeros))).rounded()) }
        return Int(raw.rounded())
    }
}

import Foundation
