import QuarryCore

/// A hash or ordered index over the values a key path reaches in each row of a class.
///
/// The hash form maps each value to its rows; the ordered form keeps (value, row) pairs sorted
/// by `Value.sortOrder` then row, so a range of values is a range of entries and, when no row
/// holds an array, walking it gives ORDER BY's order. Row lists come back ascending, that is
/// in insertion order. Values compare as `Value ==` does (numbers across int and double).
final class ValueIndex {
    let kind: IndexKind
    let path: KeyPath
    let className: String

    private(set) var postings: [Value: [Int32]] = [:]
    private(set) var keys: [Value] = []
    private(set) var rows: [Int32] = []
    /// Rows reaching nothing or null, ascending.
    private(set) var nilRows: [Int32] = []
    /// Type bits of every value indexed (only widened).
    private(set) var typeBits: UInt16 = 0
    /// Some row held an array or a relation (only widened).
    private(set) var multiValued = false
    /// Whether entries depend on other classes (pointer steps, pointer values): then any change
    /// anywhere makes the index stale, and it is rebuilt before its next use.
    private(set) var dependsOnOtherClasses: Bool
    private(set) var isStale = false

    init(kind: IndexKind, path: KeyPath, className: String) {
        self.kind = kind
        self.path = path
        self.className = className
        dependsOnOtherClasses = path.components.count > 1
    }


    func markStale() { isStale = true }

    /// Builds from all records of the class.
    func rebuild(_ records: some Sequence<Record>, _ resolver: KeyPathResolver) {
        postings = [:]
        keys = []
        rows = []
        nilRows = []
        typeBits = 0
        multiValued = false
        dependsOnOtherClasses = path.components.count > 1
        var pairs: [(Value, Int32)] = []
        for (row, record) in records.enumerated() {
            let entries = IndexEntries(record, path, resolver)
            note(entries)
            if entries.isNil { nilRows.append(Int32(row)) }
            for v in entries.values {
                if kind == .hash { postings[v, default: []].append(Int32(row)) } else { pairs.append((v, Int32(row))) }
            }
        }
        if kind == .ordered {
            pairs.sort { a, b in
                let c = Value.sortOrder(a.0, b.0)
                return c != 0 ? c < 0 : a.1 < b.1
            }
            keys = pairs.map(\.0)
            rows = pairs.map(\.1)
        }
        isStale = false
    }

    private func note(_ e: IndexEntries) {
        typeBits |= e.typeBits
        if e.multiValued { multiValued = true }
        if e.typeBits & (Value.pointerBit | Value.relation(className: "", objectIds: []).typeBit | Value.object([:]).typeBit) != 0 {
            dependsOnOtherClasses = true
        }
    }

    // MARK: - Changes (rows of its own class; the store renumbers after removals)

    func add(_ row: Int, _ e: IndexEntries) {
        note(e)
        let r = Int32(row)
        if e.isNil { Self.insertSorted(&nilRows, r) }
        for v in e.values {
            if kind == .hash {
                Self.insertSorted(&postings[v, default: []], r)
            } else {
                let at = position(of: v, row: r)
                keys.insert(v, at: at)
                rows.insert(r, at: at)
            }
        }
    }

    func remove(_ row: Int, _ e: IndexEntries) {
        let r = Int32(row)
        if e.isNil { Self.removeSorted(&nilRows, r) }
        for v in e.values {
            if kind == .hash {
                Self.removeSorted(&postings[v, default: []], r)
                if postings[v]?.isEmpty == true { postings[v] = nil }
            } else {
                let at = position(of: v, row: r)
                if at < keys.count, rows[at] == r, Value.sortOrder(keys[at], v) == 0 {
                    keys.remove(at: at)
                    rows.remove(at: at)
                }
            }
        }
    }

    /// Row `removed` is gone: later rows move up by one.
    func renumber(after removed: Int) {
        let r = Int32(removed)
        func shift(_ list: inout [Int32]) { for i in list.indices where list[i] > r { list[i] -= 1 } }
        shift(&nilRows)
        shift(&rows)
        for k in postings.keys { shift(&postings[k]!) }
    }

    private static func insertSorted(_ list: inout [Int32], _ r: Int32) {
        var lo = 0, hi = list.count
        while lo < hi { let mid = (lo + hi) / 2; if list[mid] < r { lo = mid + 1 } else { hi = mid } }
        if lo == list.count || list[lo] != r { list.insert(r, at: lo) }
    }

    private static func removeSorted(_ list: inout [Int32], _ r: Int32) {
        var lo = 0, hi = list.count
        while lo < hi { let mid = (lo + hi) / 2; if list[mid] < r { lo = mid + 1 } else { hi = mid } }
        if lo < list.count, list[lo] == r { list.remove(at: lo) }
    }

    /// The first entry not before (v, row).
    private func position(of v: Value, row: Int32) -> Int {
        var lo = 0, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let c = Value.sortOrder(keys[mid], v)
            if c < 0 || (c == 0 && rows[mid] < row) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    // MARK: - Lookups

    /// Rows reaching a value equal to one of `values`, ascending, no repeats.
    func rows(equalTo values: [Value]) -> [Int32] {
        var lists: [[Int32]] = []
        for v in values {
            if kind == .hash {
                if let list = postings[v] { lists.append(list) }
            } else {
                let range = entries(from: (v, true), to: (v, true))
                if !range.isEmpty { lists.append(Array(rows[range])) }
            }
        }
        return Self.union(lists, sortedLists: kind == .hash)
    }

    /// How many entries equal `v` (exact; an upper bound on rows for a multi-key index).
    func count(equalTo v: Value) -> Int {
        kind == .hash ? postings[v]?.count ?? 0 : entries(from: (v, true), to: (v, true)).count
    }

    /// Entries between the bounds, which must be values of one type rank (ordered only).
    func entries(from lower: (Value, Bool)?, to upper: (Value, Bool)?) -> Range<Int> {
        guard let rank = (lower ?? upper)?.0.typeRank else { return 0..<0 }
        let start = bound { k in
            if k.typeRank != rank { return k.typeRank < rank }
            guard let (v, inclusive) = lower else { return false }
            let c = Value.sortOrder(k, v)
            return c < 0 || (c == 0 && !inclusive)
        }
        let end = bound { k in
            if k.typeRank != rank { return k.typeRank < rank }
            guard let (v, inclusive) = upper else { return true }
            let c = Value.sortOrder(k, v)
            return c < 0 || (c == 0 && inclusive)
        }
        return start..<Swift.max(start, end)
    }

    /// Entries whose string starts with `prefix` (ordered only; case-sensitive).
    func entries(withPrefix prefix: String) -> Range<Int> {
        let p = Array(prefix.utf8)
        let start = bound { k in
            if k.typeRank != 2 { return k.typeRank < 2 }
            guard case .string(let s) = k else { return false }
            return Value.compareStrings(s, prefix) < 0
        }
        var end = start
        while end < keys.count, case .string(let s) = keys[end], s.utf8.starts(with: p) { end += 1 }
        return start..<end
    }

    /// Rows of a range of entries, ascending, no repeats.
    func rows(in range: Range<Int>) -> [Int32] {
        var out = Array(rows[range])
        out.sort()
        return Self.dedupeSorted(out)
    }

    /// The first index whose key does not satisfy `before` (keys are sorted, `before` is
    /// true on a prefix).
    private func bound(_ before: (Value) -> Bool) -> Int {
        var lo = 0, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if before(keys[mid]) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    static func union(_ lists: [[Int32]], sortedLists: Bool) -> [Int32] {
        if lists.count == 1 { return sortedLists ? lists[0] : dedupeSorted(lists[0].sorted()) }
        var all = lists.flatMap { $0 }
        all.sort()
        return dedupeSorted(all)
    }

    static func dedupeSorted(_ list: [Int32]) -> [Int32] {
        guard !list.isEmpty else { return list }
        var out: [Int32] = [list[0]]
        out.reserveCapacity(list.count)
        for r in list.dropFirst() where r != out[out.count - 1] { out.append(r) }
        return out
    }
}
