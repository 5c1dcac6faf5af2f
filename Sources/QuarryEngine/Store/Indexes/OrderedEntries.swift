import QuarryCore

/// A key an ordered index can hold unboxed: one scalar type of `Value`, converted both ways
/// without loss. Keys order exactly as their values do (`Value.sortOrder`), so a typed index
/// finds the same entries in the same order as one holding `Value`s.
protocol OrderedKey: EntryKey {
    /// The key for `v`; nil when `v` is not of this key's type.
    init?(exactly v: Value)
    var value: Value { get }
}

extension OrderedKey {
    static func order(_ a: Self, _ b: Self) -> Int { Value.sortOrder(a.value, b.value) }
}

extension Value: OrderedKey {
    init?(exactly v: Value) { self = v }
    var value: Value { self }
}

/// Integers: 8 bytes a key instead of a `Value`.
struct IntKey: OrderedKey {
    let raw: Int64
    init?(exactly v: Value) {
        guard case .int(let x) = v else { return nil }
        raw = x
    }
    var value: Value { .int(raw) }
    static func order(_ a: Self, _ b: Self) -> Int { a.raw < b.raw ? -1 : (a.raw == b.raw ? 0 : 1) }
}

/// Doubles (NaN and -0.0 kept bit for bit).
struct DoubleKey: OrderedKey {
    let raw: Double
    init?(exactly v: Value) {
        guard case .double(let x) = v else { return nil }
        raw = x
    }
    var value: Value { .double(raw) }
    static func order(_ a: Self, _ b: Self) -> Int {
        if a.raw.isNaN || b.raw.isNaN { return a.raw.isNaN ? (b.raw.isNaN ? 0 : -1) : 1 }
        return a.raw < b.raw ? -1 : (a.raw == b.raw ? 0 : 1)
    }
}

/// Dates (milliseconds).
struct DateKey: OrderedKey {
    let raw: Int64
    init?(exactly v: Value) {
        guard case .date(let x) = v else { return nil }
        raw = x
    }
    var value: Value { .date(raw) }
    static func order(_ a: Self, _ b: Self) -> Int { a.raw < b.raw ? -1 : (a.raw == b.raw ? 0 : 1) }
}

/// Strings: the `String` itself, without the enum around it.
struct StringKey: OrderedKey {
    let raw: String
    init(raw: String) { self.raw = raw }
    init?(exactly v: Value) {
        guard case .string(let x) = v else { return nil }
        raw = x
    }
    var value: Value { .string(raw) }
    static func order(_ a: Self, _ b: Self) -> Int { Value.compareStrings(a.raw, b.raw) }
}

/// An ordered index's (key, row) entries behind one interface, whatever the keys are stored as.
/// A class, so that changes go to the one copy in place.
protocol OrderedEntries: AnyObject {
    var count: Int { get }
    func key(at p: Int) -> Value
    func row(at p: Int) -> Int32
    func rows(in range: Range<Int>) -> [Int32]
    /// The first position whose key satisfies `notBefore` (false on a prefix of the entries).
    func firstPosition(where notBefore: (Value) -> Bool) -> Int
    /// Adds an entry; false (and nothing added) when the key does not fit this representation.
    func insert(_ v: Value, _ row: Int32) -> Bool
    func remove(_ v: Value, _ row: Int32)
    /// The same entries keyed by `Value`, for when a key of another type arrives.
    func widened() -> TypedEntries<Value>
    /// Another holder of the same entries, sharing their storage until one of the two changes.
    func copy() -> any OrderedEntries
}

/// Entries whose keys all have one representation `K`.
final class TypedEntries<K: OrderedKey>: OrderedEntries {
    private var entries: SortedEntries<K>

    init(_ entries: SortedEntries<K> = SortedEntries()) { self.entries = entries }

    /// From (value, row) pairs in any order, every value convertible to `K`: sorted as keys,
    /// without a `Value` compared (an index built at once; docs/STORAGE.md#building-an-index).
    convenience init?(unsorted pairs: [(Value, Int32)]) {
        var keyed: [(K, Int32)] = []
        keyed.reserveCapacity(pairs.count)
        for (v, row) in pairs {
            guard let k = K(exactly: v) else { return nil }
            keyed.append((k, row))
        }
        keyed.sort { a, b in
            let c = K.order(a.0, b.0)
            return c != 0 ? c < 0 : a.1 < b.1
        }
        self.init(SortedEntries(sorted: keyed.map(\.0), keyed.map(\.1)))
    }

    var count: Int { entries.count }
    func key(at p: Int) -> Value { entries.key(at: p).value }
    func row(at p: Int) -> Int32 { entries.row(at: p) }
    func rows(in range: Range<Int>) -> [Int32] { entries.rows(in: range) }

    // Specialized: the planner's estimates search an index for every range it considers, and
    // the unspecialized search looked up its generic types' metadata at each step.
    @_specialize(where K == IntKey)
    @_specialize(where K == DoubleKey)
    @_specialize(where K == DateKey)
    @_specialize(where K == StringKey)
    func firstPosition(where notBefore: (Value) -> Bool) -> Int {
        entries.firstPosition { k, _ in notBefore(k.value) }
    }

    func insert(_ v: Value, _ row: Int32) -> Bool {
        guard let k = K(exactly: v) else { return false }
        entries.insert(k, row)
        return true
    }

    func remove(_ v: Value, _ row: Int32) {
        // A value of another type was never added.
        if let k = K(exactly: v) { entries.remove(k, row) }
    }

    func copy() -> any OrderedEntries { TypedEntries(entries) }

    func widened() -> TypedEntries<Value> {
        var keys: [Value] = [], rows: [Int32] = []
        keys.reserveCapacity(entries.count)
        rows.reserveCapacity(entries.count)
        entries.forEach(in: 0..<entries.count) { k, r in
            keys.append(k.value)
            rows.append(r)
        }
        return TypedEntries<Value>(SortedEntries(sorted: keys, rows))
    }
}

/// The narrowest representation for (value, row) pairs in any order: typed keys, sorted as
/// such, when every value has the first one's scalar type (a mix of types has no typed
/// representation), else `Value`s.
func narrowestEntries(unsorted pairs: [(Value, Int32)]) -> any OrderedEntries {
    let made: (any OrderedEntries)?
    switch pairs.first?.0 {
    case .int?: made = TypedEntries<IntKey>(unsorted: pairs)
    case .double?: made = TypedEntries<DoubleKey>(unsorted: pairs)
    case .date?: made = TypedEntries<DateKey>(unsorted: pairs)
    case .string?: made = sortedStrings(pairs) ?? TypedEntries<StringKey>(unsorted: pairs)
    default: made = nil
    }
    if let made { return made }
    let sorted =
        sortedNumbers(pairs)
        ?? pairs.sorted { a, b in
            let c = Value.sortOrder(a.0, b.0)
            return c != 0 ? c < 0 : a.1 < b.1
        }
    return TypedEntries<Value>(SortedEntries(sorted: sorted.map(\.0), sorted.map(\.1)))
}

/// Pairs whose values are all strings, sorted through their distinct values: each entry
/// finds its string's group by one hash lookup, the distinct strings are sorted, and the
/// entries are laid out group by group in that order (rows ascending within a group, as
/// the pairs come). An indexed field repeats its values, so this compares far fewer strings
/// than sorting every entry. nil when some value is not a string, or when two strings Swift
/// holds equal differ in their bytes (canonically equivalent forms, which `Value.sortOrder`
/// keeps apart).
private func sortedStrings(_ pairs: [(Value, Int32)]) -> TypedEntries<StringKey>? {
    var groupOf: [String: Int32] = [:]
    var distinct: [String] = []
    var groups: [Int32] = []
    groups.reserveCapacity(pairs.count)
    for (v, _) in pairs {
        guard case .string(let s) = v else { return nil }
        if let g = groupOf[s] {
            guard Value.compareStrings(distinct[Int(g)], s) == 0 else { return nil }
            groups.append(g)
        } else {
            groupOf[s] = Int32(distinct.count)
            groups.append(Int32(distinct.count))
            distinct.append(s)
        }
    }
    // Each group's first position in the sorted entries: its rank's offset.
    let order = distinct.indices.sorted { Value.compareStrings(distinct[$0], distinct[$1]) < 0 }
    var counts = [Int](repeating: 0, count: distinct.count)
    for g in groups { counts[Int(g)] += 1 }
    var next = [Int](repeating: 0, count: distinct.count)
    var offset = 0
    for g in order {
        next[g] = offset
        offset += counts[g]
    }
    var keys = [StringKey](repeating: StringKey(raw: ""), count: pairs.count)
    var rows = [Int32](repeating: 0, count: pairs.count)
    for (i, g) in groups.enumerated() {
        let p = next[Int(g)]
        next[Int(g)] = p + 1
        keys[p] = StringKey(raw: distinct[Int(g)])
        rows[p] = pairs[i].1
    }
    return TypedEntries(SortedEntries(sorted: keys, rows))
}

/// Pairs whose values are all numbers, integers and doubles mixed (a field written as `50`
/// in one object and `49.5` in another), sorted as `Value.sortOrder` sorts them, by each
/// value's nearest double first (rounding keeps a strict order strict) and exactly only among
/// equal doubles; nil when some value is not a number.
private func sortedNumbers(_ pairs: [(Value, Int32)]) -> [(Value, Int32)]? {
    var keys: [(Double, Int)] = []
    keys.reserveCapacity(pairs.count)
    // Whether some integer has no double of its own (beyond 2^53), so that equal doubles may
    // stand for different numbers.
    var rounded = false
    for (i, (v, _)) in pairs.enumerated() {
        switch v {
        case .int(let x):
            let d = Double(x)
            if Int64(exactly: d) != x { rounded = true }
            keys.append((d, i))
        case .double(let x): keys.append((x.isNaN ? -.infinity : x, i))
        default: return nil
        }
    }
    // Pairs come in row order, and a row holds no two equal numbers, so position breaks ties
    // as the row would.
    keys.sort { a, b in
        if a.0 != b.0 { return a.0 < b.0 }
        if rounded || a.0 == -.infinity {
            let c = Value.compareNumbers(pairs[a.1].0, pairs[b.1].0)
            if c != 0 { return c < 0 }
        }
        return a.1 < b.1
    }
    return keys.map { pairs[$0.1] }
}
