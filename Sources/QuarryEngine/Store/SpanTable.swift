/// A hash set of numbered byte strings that stores only the numbers: an open-addressing table
/// (linear probing) of Int32s whose keys are spans of an arena the caller owns and hands in
/// as `key(n)`. It maps objectIds to rows (the objectId arena) and strings to their dictionary
/// codes, at a few bytes per entry rather than a `String` key and a hash-table entry each.
/// Each slot has a byte of its key's hash beside it, so that a probe reads the caller's arena
/// (a cache miss in a large table) only when that byte matches.
struct SpanTable {
    private var slots: [Int32] = []
    private var tags: [UInt8] = []
    private(set) var count = 0
    private static let empty: Int32 = -1

    /// The number whose key is `bytes`.
    func find(_ bytes: UnsafeBufferPointer<UInt8>, _ key: (Int32) -> UnsafeBufferPointer<UInt8>) -> Int32? {
        guard count > 0 else { return nil }
        let h = Self.hash(bytes), tag = Self.tag(h)
        var i = home(h)
        while true {
            let n = slots[i]
            if n == Self.empty { return nil }
            if tags[i] == tag, Bytes.equal(key(n), bytes) { return n }
            i = i + 1 == slots.count ? 0 : i + 1
        }
    }

    /// Files `n` (its key is in the arena and not yet filed).
    mutating func insert(_ n: Int32, _ key: (Int32) -> UnsafeBufferPointer<UInt8>) {
        if (count + 1) * 4 > slots.count * 3 { resize(Swift.max(16, (count + 1) * 2), key) }
        place(n, key)
        count += 1
    }

    /// Files the numbers of `range`, whose keys are in the arena and not filed yet, in order;
    /// the first whose key an entry already has (nothing filed from it on), or nil. A run of
    /// keys is hashed and its home slots read before any of them is probed, so that the cache
    /// misses of a large table's probes overlap instead of coming one after another.
    mutating func insertAllIfAbsent(_ range: Range<Int32>, _ key: (Int32) -> UnsafeBufferPointer<UInt8>) -> Int32? {
        reserve(count + range.count, key)
        let run = 32
        var hashes = [UInt64](repeating: 0, count: run)
        var filed = 0
        defer { count += filed }
        return slots.withUnsafeMutableBufferPointer { slots in
            tags.withUnsafeMutableBufferPointer { tags in
                var start = range.lowerBound
                while start < range.upperBound {
                    let end = Swift.min(start + Int32(run), range.upperBound)
                    var touched: Int32 = 0
                    for n in start..<end {
                        let h = Self.hash(key(n))
                        hashes[Int(n - start)] = h
                        touched &+= slots[Self.home(h, slots.count)]
                    }
                    // Kept alive so that the loads above are made.
                    withExtendedLifetime(touched) {}
                    for n in start..<end {
                        let h = hashes[Int(n - start)], tag = Self.tag(h)
                        var i = Self.home(h, slots.count)
                        while true {
                            let m = slots[i]
                            if m == Self.empty {
                                slots[i] = n
                                tags[i] = tag
                                filed += 1
                                break
                            }
                            if tags[i] == tag, Bytes.equal(key(m), key(n)) { return n }
                            i = i + 1 == slots.count ? 0 : i + 1
                        }
                    }
                    start = end
                }
                return nil
            }
        }
    }

    /// Room for `total` entries at about three quarters full, so that a bulk load grows the
    /// table once.
    mutating func reserve(_ total: Int, _ key: (Int32) -> UnsafeBufferPointer<UInt8>) {
        if total * 4 > slots.count * 3 { resize(total * 4 / 3 + 1, key) }
    }

    /// Unfiles `n` (while its key is still readable).
    mutating func remove(_ n: Int32, _ key: (Int32) -> UnsafeBufferPointer<UInt8>) {
        guard count > 0 else { return }
        var at = home(Self.hash(key(n)))
        while slots[at] != n {
            if slots[at] == Self.empty { return }
            at = at + 1 == slots.count ? 0 : at + 1
        }
        slots[at] = Self.empty
        count -= 1
        // Backward-shift deletion: later entries of the probe run move into the hole unless
        // their home lies cyclically after the hole, up to where they sit.
        var hole = at, j = at
        while true {
            j = j + 1 == slots.count ? 0 : j + 1
            let m = slots[j]
            if m == Self.empty { break }
            let h = home(Self.hash(key(m)))
            let stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j)
            if !stays {
                slots[hole] = m
                tags[hole] = tags[j]
                slots[j] = Self.empty
                hole = j
            }
        }
    }

    /// Heap bytes held.
    var bytes: Int { slots.capacity * 5 }

    private mutating func place(_ n: Int32, _ key: (Int32) -> UnsafeBufferPointer<UInt8>) {
        let h = Self.hash(key(n))
        var i = home(h)
        while slots[i] != Self.empty { i = i + 1 == slots.count ? 0 : i + 1 }
        slots[i] = n
        tags[i] = Self.tag(h)
    }

    private mutating func resize(_ capacity: Int, _ key: (Int32) -> UnsafeBufferPointer<UInt8>) {
        let old = slots
        slots = [Int32](repeating: Self.empty, count: capacity)
        tags = [UInt8](repeating: 0, count: capacity)
        for n in old where n != Self.empty { place(n, key) }
    }

    /// The slot a hash starts probing at: the high half of hash × capacity, so that any
    /// capacity works (no power of two needed).
    @inline(__always) private func home(_ hash: UInt64) -> Int { Self.home(hash, slots.count) }

    @inline(__always) private static func home(_ hash: UInt64, _ capacity: Int) -> Int {
        Int(hash.multipliedFullWidth(by: UInt64(capacity)).high)
    }

    /// The low byte of a hash (`home` uses the high bits).
    @inline(__always) private static func tag(_ hash: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: hash) }

    /// FNV-1a, then SplitMix64's finalizer so that the high bits are uniform.
    @inline(__always) static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        h = (h ^ (h >> 30)) &* 0xBF58_476D_1CE4_E5B9
        h = (h ^ (h >> 27)) &* 0x94D0_49BB_1331_11EB
        return h ^ (h >> 31)
    }
}
