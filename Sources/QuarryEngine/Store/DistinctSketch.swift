import QuarryCore
import Foundation

/// A HyperLogLog sketch of the distinct values a column has held (256 registers, about 6.5%
/// standard error). Values are only ever added, so after updates and deletes it over-counts
/// until the column's statistics are refreshed.
struct DistinctSketch: Hashable, Sendable {
    private(set) var registers = [UInt8](repeating: 0, count: DistinctSketch.size)
    private static let size = 256
    /// The estimate's sum of 2^-r over the registers, in units of 2^-57 (a rank is at most 57),
    /// and the registers still 0: kept as registers grow, which is rare, so that an estimate,
    /// which each planning of an equality asks for, does not add up 256 registers.
    private var scaledSum = UInt128(DistinctSketch.size) << 57
    private var zeros = DistinctSketch.size

    mutating func add(hash: Int) {
        let h = UInt64(bitPattern: Int64(hash))
        let index = Int(h >> 56)
        let rank = UInt8(min((h << 8).leadingZeroBitCount + 1, 57))
        let old = registers[index]
        guard rank > old else { return }
        scaledSum -= 1 << (57 - old)
        scaledSum += 1 << (57 - rank)
        if old == 0 { zeros -= 1 }
        registers[index] = rank
    }

    /// Adds a value with a hash that is the same in every process (Swift's `Hasher` is
    /// seeded per process), so that estimates, and the plans built on them, are reproducible.
    /// Equal values hash alike: numbers by value across int and double.
    mutating func add(_ value: Value) {
        add(hash: Int(truncatingIfNeeded: Self.mix(Self.stableHash(value))))
    }

    /// The same as adding `.int(i)`, or `.date(i)` with `date`.
    mutating func add(_ i: Int64, date: Bool) {
        add(hash: Int(truncatingIfNeeded: Self.mix(date ? Self.dateHash(i) : UInt64(bitPattern: i))))
    }

    /// The same as adding `.double(d)`.
    mutating func add(_ d: Double) {
        add(hash: Int(truncatingIfNeeded: Self.mix(Self.doubleHash(d))))
    }

    /// The same as adding `.geoPoint(p)`.
    mutating func add(_ p: GeoPoint) {
        add(hash: Int(truncatingIfNeeded: Self.mix(Self.geoHash(p))))
    }

    /// The same as adding a pointer into a class whose `classSeed` this gives, with these
    /// objectId bytes.
    mutating func add(pointerTo classSeed: UInt64, objectId bytes: UnsafeBufferPointer<UInt8>) {
        add(hash: Int(truncatingIfNeeded: Self.mix(Self.fnv(bytes, seed: classSeed))))
    }

    /// What `add(pointerTo:objectId:)` takes for pointers into `className`.
    static func pointerSeed(_ className: String) -> UInt64 { fnv(className, seed: 2) }

    /// The same as adding an array whose elements' stable hashes `elementHashes` gives (a
    /// string's is `stringHash`, a null's 0).
    mutating func add(arrayOf elementHashes: some Sequence<UInt64>) {
        add(hash: Int(truncatingIfNeeded: Self.mix(elementHashes.reduce(Self.arraySeed) { Self.mix($0 ^ $1) })))
    }

    /// A string element's hash, for `add(arrayOf:)`.
    static func stringHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 { fnv(bytes, seed: stringSeed) }

    private static let arraySeed: UInt64 = 0xA77A

    /// Adds a string by its UTF-8 bytes: the same as adding the `.string` value.
    mutating func add(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        add(hash: Int(truncatingIfNeeded: Self.mix(Self.stringHash(bytes))))
    }

    private static let stringSeed: UInt64 = 1

    private static func stableHash(_ v: Value) -> UInt64 {
        switch v {
        case .int(let i): return UInt64(bitPattern: i)
        case .double(let d): return doubleHash(d)
        case .string(let s): return fnv(s, seed: stringSeed)
        case .date(let ms): return dateHash(ms)
        case .bool(let b): return b ? 0xB001 : 0xB000
        case .pointer(let p): return fnv(p.objectId, seed: pointerSeed(p.className))
        case .geoPoint(let g): return geoHash(g)
        case .array(let items): return items.reduce(arraySeed) { mix($0 ^ stableHash($1)) }
        case .null: return 0
        default: return fnv(String(describing: v).utf8, seed: 3)
        }
    }

    /// A double equal to an int hashes as the int does.
    private static func doubleHash(_ d: Double) -> UInt64 {
        if let i = Int64(exactly: d) { return UInt64(bitPattern: i) }
        return d.isNaN ? 0x7FF8_0000_0000_0000 : d.bitPattern
    }

    private static func dateHash(_ ms: Int64) -> UInt64 { UInt64(bitPattern: ms) ^ 0x5DA7_E000_0000_0000 }

    private static func geoHash(_ g: GeoPoint) -> UInt64 { mix(g.latitude.bitPattern) ^ g.longitude.bitPattern }

    /// A string's bytes where it holds them (stepping through its UTF-8 view byte by byte
    /// cost a direct load's builder a percent of its samples, for pointers' objectIds).
    private static func fnv(_ s: String, seed: UInt64) -> UInt64 {
        s.utf8.withContiguousStorageIfAvailable { fnv($0, seed: seed) } ?? fnv(s.utf8, seed: seed)
    }

    private static func fnv(_ bytes: some Sequence<UInt8>, seed: UInt64) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ seed
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    /// SplitMix64's finalizer: spreads the bits so that the register index is uniform.
    private static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    var estimate: Int {
        let m = Double(Self.size)
        // By its two halves: the generic conversion of a `UInt128` cost more than the loop it replaces.
        let sum =
            (Double(UInt64(truncatingIfNeeded: scaledSum >> 64)) * 0x1p64
                + Double(UInt64(truncatingIfNeeded: scaledSum))) * 0x1p-57
        let raw = 0.7182725932495458 * m * m / sum  // alpha for m = 256
        // Small ranges: linear counting is the better estimator.
        if raw <= 2.5 * m, zeros > 0 { return Int((m * log(m / Double(zeros))).rounded()) }
        return Int(raw.rounded())
    }
}
