/// objectId → row for one class: an open-addressing table of row numbers (linear probing)
/// whose keys are the objectIds' bytes in the class's objectId arena, so that it costs a few
/// bytes per row rather than a `String` key and a hash-table entry per row.
struct RowLookup {
    private var slots: [Int32] = []
    private(set) var count = 0
    private static let empty: Int32 = -1

    /// The row whose objectId is `id`.
    func row(of id: String, in ids: StringColumn) -> Int? {
        guard count > 0 else { return nil }
        var id = id
        return id.withUTF8 { key in
            ids.withBytes { s in
                var i = home(Self.hash(key))
                while true {
                    let r = slots[i]
                    if r == Self.empty { return nil }
                    if Bytes.equal(s.span(Int(r)), key) { return Int(r) }
                    i = i + 1 == slots.count ? 0 : i + 1
                }
            }
        }
    }

    /// Files row `row` (its objectId is already in `ids` and not yet filed).
    mutating func insert(row: Int, in ids: StringColumn) {
        if (count + 1) * 4 > slots.count * 3 { resize(Swift.max(16, (count + 1) * 2), ids) }
        place(Int32(row), ids)
        count += 1
    }

    /// Room for `rows` rows at about three quarters full, so that building a class grows the
    /// table once.
    mutating func reserve(_ rows: Int, in ids: StringColumn) {
        if rows * 4 > slots.count * 3 { resize(rows * 4 / 3 + 1, ids) }
    }

    /// Unfiles row `row` (while its objectId is still in `ids`); later rows move up by one.
    mutating func remove(row: Int, in ids: StringColumn) {
        guard let at = ids.withBytes({ s in find(Int32(row), Self.hash(s.span(row))) }) else { return }
        slots[at] = Self.empty
        count -= 1
        // Backward-shift deletion: later entries of the probe run move into the hole when
        // their home is not between the hole and where they sit.
        ids.withBytes { s in
            var hole = at, j = at
            while true {
                j = j + 1 == slots.count ? 0 : j + 1
                let r = slots[j]
                if r == Self.empty { break }
                let h = home(Self.hash(s.span(Int(r))))
                let stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j)
                if !stays {
                    slots[hole] = r
                    slots[j] = Self.empty
                    hole = j
                }
            }
        }
        let removed = Int32(row)
        for i in slots.indices where slots[i] > removed { slots[i] -= 1 }
    }

    /// Heap bytes held.
    var bytes: Int { slots.capacity * 4 }

    private func find(_ row: Int32, _ hash: UInt64) -> Int? {
        guard !slots.isEmpty else { return nil }
        var i = home(hash)
        while slots[i] != Self.empty {
            if slots[i] == row { return i }
            i = i + 1 == slots.count ? 0 : i + 1
        }
        return nil
    }

    private mutating func place(_ row: Int32, _ ids: StringColumn) {
        let h = ids.withBytes { Self.hash($0.span(Int(row))) }
        var i = home(h)
        while slots[i] != Self.empty { i = i + 1 == slots.count ? 0 : i + 1 }
        slots[i] = row
    }

    private mutating func resize(_ capacity: Int, _ ids: StringColumn) {
        let old = slots
        slots = [Int32](repeating: Self.empty, count: capacity)
        for r in old where r != Self.empty { place(r, ids) }
    }

    /// The slot a hash starts probing at: the high half of hash × capacity, so that any
    /// capacity works (no power of two needed).
    @inline(__always) private func home(_ hash: UInt64) -> Int {
        Int(hash.multipliedFullWidth(by: UInt64(slots.count)).high)
    }

    /// FNV-1a, then SplitMix64's finalizer so that the high bits are uniform.
    @inline(__always) static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in key { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        h = (h ^ (h >> 30)) &* 0xBF58_476D_1CE4_E5B9
        h = (h ^ (h >> 27)) &* 0x94D0_49BB_1331_11EB
        return h ^ (h >> 31)
    }
}
