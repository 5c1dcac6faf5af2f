import QuarryCore

/// A hash or ordered index over the values a key path reaches in each row of a class.
///
/// The hash form maps each value to a posting list of rows; the ordered form keeps (value,
/// row) entries sorted by `Value.sortOrder` then row (`SortedEntries`), so a range of values
/// is a range of entry positions and, when no row holds an array, walking it gives ORDER BY's
/// order. Row lists come back ascending, that is in insertion order. Values compare as
/// `Value ==` does (numbers across int and double).
final class ValueIndex {
    let kind: IndexKind
    let path: FieldPath
    let className: String

    /// Hash form: each value's slot in `postingLists`.
    private var postingSlots: [Value: Int] = [:]
    /// Hash form: rows per value, ascending. Kept in one array (not in the dictionary) so that
    /// renumbering after a delete is a pass over it, with no hashing; freed slots are reused.
    private var postingLists: [[Int32]] = []
    private var freeSlots: [Int] = []
    /// Ordered form: the (value, row) entries, keys unboxed while they share one scalar type.
    private(set) var entries: any OrderedEntries = TypedEntries<Value>()
    /// Rows reaching nothing or null, ascending.
    private(set) var nilRows: [Int32] = []
    /// Type bits of every value indexed (only widened).
    private(set) var typeBits: UInt16 = 0
    /// Some row held an array or a relation (only widened).
    private(set) var multiValued = false
    /// Whether entries depend on other rows (pointer steps, pointer values; only widened).
    private(set) var dependsOnOtherClasses: Bool
    /// Rows by the objects their entries depend on.
    private(set) var dependents = DependentRows()

    init(kind: IndexKind, path: FieldPath, className: String) {
        self.kind = kind
        self.path = path
        self.className = className
        dependsOnOtherClasses = path.components.count > 1
    }

    /// The same index for a copy of the store (`ColumnStore.copy`): its arrays are shared with
    /// this one's until either changes them.
    func copy() -> ValueIndex {
        let c = ValueIndex(kind: kind, path: path, className: className)
        c.postingSlots = postingSlots
        c.postingLists = postingLists
        c.freeSlots = freeSlots
        c.entries = entries.copy()
        c.nilRows = nilRows
        c.typeBits = typeBits
        c.multiValued = multiValued
        c.dependsOnOtherClasses = dependsOnOtherClasses
        c.dependents = dependents
        return c
    }

    /// Builds from the entries of the rows holding objects (`entries(row)`). `fieldValue`,
    /// given for a one-field path, reads the field's value at a row, so that a scalar is
    /// indexed without its `IndexEntries` (docs/STORAGE.md#building-an-index).
    func rebuild(
        rows: some Sequence<Int>, fieldValue: ((Int) -> Value?)? = nil, _ entriesOf: (Int) -> IndexEntries
    ) {
        postingSlots = [:]
        postingLists = []
        freeSlots = []
        nilRows = []
        typeBits = 0
        multiValued = false
        dependsOnOtherClasses = path.components.count > 1
        dependents = DependentRows()
        var pairs: [(Value, Int32)] = []
        for row in rows {
            let r = Int32(row)
            switch fieldValue.map({ IndexEntries.plain($0(row)) }) {
            case .none?:
                nilRows.append(r)
            case .scalar(let v)?:
                typeBits |= v.typeBit
                if kind == .hash { appendPosting(v, r) } else { pairs.append((v, r)) }
            case .needsRecord?, nil:
                let e = entriesOf(row)
                note(e)
                if !e.reached.isEmpty { dependents.add(r, e.reached) }
                if e.isNil { nilRows.append(r) }
                for v in e.values {
                    if kind == .hash { appendPosting(v, r) } else { pairs.append((v, r)) }
                }
            }
        }
        if kind == .ordered {
            entries = narrowestEntries(unsorted: pairs)
        } else {
            entries = TypedEntries<Value>()
        }
    }

    private func note(_ e: IndexEntries) {
        typeBits |= e.typeBits
        if e.multiValued { multiValued = true }
        if e.typeBits
            & (Value.pointerBit | Value.relation(className: "", objectIds: []).typeBit | Value.object([:]).typeBit) != 0
        {
            dependsOnOtherClasses = true
        }
    }

    // MARK: - Changes (rows of its own class; rows never move: docs/STORAGE.md#deletes)

    func add(_ row: Int, _ e: IndexEntries) {
        note(e)
        let r = Int32(row)
        if !e.reached.isEmpty { dependents.add(r, e.reached) }
        if e.isNil { nilRows.insertRow(r) }
        for v in e.values {
            if kind == .hash {
                if let slot = postingSlots[v] { postingLists[slot].insertRow(r) } else { appendPosting(v, r) }
            } else {
                insertEntry(v, r)
            }
        }
    }

    func remove(_ row: Int, _ e: IndexEntries) {
        let r = Int32(row)
        if !e.reached.isEmpty { dependents.remove(r, e.reached) }
        if e.isNil { nilRows.removeRow(r) }
        for v in e.values {
            if kind == .hash {
                guard let slot = postingSlots[v] else { continue }
                postingLists[slot].removeRow(r)
                if postingLists[slot].isEmpty {
                    postingSlots[v] = nil
                    freeSlots.append(slot)
                }
            } else {
                entries.remove(v, r)
            }
        }
    }

    /// Adds an ordered entry, first widening the keys to `Value`s when `v` is of another type
    /// (or typing them afresh when there are none).
    private func insertEntry(_ v: Value, _ r: Int32) {
        if entries.count == 0 {
            entries = narrowestEntries(unsorted: [(v, r)])
        } else if !entries.insert(v, r) {
            entries = entries.widened()
            _ = entries.insert(v, r)
        }
    }

    /// A new posting list for a value (a row added in row order).
    private func appendPosting(_ v: Value, _ r: Int32) {
        if let slot = postingSlots[v] {
            postingLists[slot].append(r)
        } else if let slot = freeSlots.popLast() {
            postingLists[slot] = [r]
            postingSlots[v] = slot
        } else {
            postingSlots[v] = postingLists.count
            postingLists.append([r])
        }
    }

    // MARK: - Lookups

    /// Rows reaching a value equal to one of `values`, ascending, no repeats.
    func rows(equalTo values: [Value]) -> [Int32] {
        var lists: [[Int32]] = []
        for v in values {
            if kind == .hash {
                if let slot = postingSlots[v] { lists.append(postingLists[slot]) }
            } else {
                let range = entries(from: (v, true), to: (v, true))
                if !range.isEmpty { lists.append(entries.rows(in: range)) }
            }
        }
        return Self.union(lists, sortedLists: kind == .hash)
    }

    /// How many entries equal `v` (exact; an upper bound on rows for a multi-key index).
    func count(equalTo v: Value) -> Int {
        if kind == .hash { return postingSlots[v].map { postingLists[$0].count } ?? 0 }
        return entries(from: (v, true), to: (v, true)).count
    }

    /// The smallest and largest value indexed (ordered form); nil when there is none.
    var bounds: (min: Value, max: Value)? {
        entries.count == 0 ? nil : (entries.key(at: 0), entries.key(at: entries.count - 1))
    }

    /// The ordered entries' keys and rows by position, for walks in key order.
    var keys: EntryKeys { EntryKeys(entries: entries) }
    var rows: EntryRows { EntryRows(entries: entries) }

    /// Entries between the bounds, which must be values of one type rank (ordered only).
    func entries(from lower: (Value, Bool)?, to upper: (Value, Bool)?) -> Range<Int> {
        guard let rank = (lower ?? upper)?.0.typeRank else { return 0..<0 }
        let start = entries.firstPosition { k in
            if k.typeRank != rank { return k.typeRank > rank }
            guard let (v, inclusive) = lower else { return true }
            let c = Value.sortOrder(k, v)
            return c > 0 || (c == 0 && inclusive)
        }
        let end = entries.firstPosition { k in
            if k.typeRank != rank { return k.typeRank > rank }
            guard let (v, inclusive) = upper else { return false }
            let c = Value.sortOrder(k, v)
            return c > 0 || (c == 0 && !inclusive)
        }
        return start..<Swift.max(start, end)
    }

    /// Entries whose string starts with `prefix` (ordered only; case-sensitive).
    func entries(withPrefix prefix: String) -> Range<Int> {
        let p = Array(prefix.utf8)
        let start = entries.firstPosition { k in
            if k.typeRank != 2 { return k.typeRank > 2 }
            guard case .string(let s) = k else { return true }
            return Value.compareStrings(s, prefix) >= 0
        }
        // Strings with the prefix sort together right after it.
        let end = entries.firstPosition { k in
            if k.typeRank != 2 { return k.typeRank > 2 }
            guard case .string(let s) = k else { return true }
            return Value.compareStrings(s, prefix) >= 0 && !s.utf8.starts(with: p)
        }
        return start..<Swift.max(start, end)
    }

    /// Rows of a range of entries, ascending, no repeats.
    func rows(in range: Range<Int>) -> [Int32] {
        var out = entries.rows(in: range)
        out.sort()
        return Self.dedupeSorted(out)
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

/// An ordered index's keys by entry position.
struct EntryKeys: RandomAccessCollection {
    let entries: any OrderedEntries
    var startIndex: Int { 0 }
    var endIndex: Int { entries.count }
    subscript(position: Int) -> Value { entries.key(at: position) }
}

/// An ordered index's rows by entry position.
struct EntryRows: RandomAccessCollection {
    let entries: any OrderedEntries
    var startIndex: Int { 0 }
    var endIndex: Int { entries.count }
    subscript(position: Int) -> Int32 { entries.row(at: position) }
}
