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
}

/// Doubles (NaN and -0.0 kept bit for bit).
struct DoubleKey: OrderedKey {
    let raw: Double
    init?(exactly v: Value) {
        guard case .double(let x) = v else { return nil }
        raw = x
    }
    var value: Value { .double(raw) }
}

/// Dates (milliseconds).
struct DateKey: OrderedKey {
    let raw: Int64
    init?(exactly v: Value) {
        guard case .date(let x) = v else { return nil }
        raw = x
    }
    var value: Value { .date(raw) }
}

/// Strings: the `String` itself, without the enum around it.
struct StringKey: OrderedKey {
    let raw: String
    init?(exactly v: Value) {
        guard case .string(let x) = v else { return nil }
        raw = x
    }
    var value: Value { .string(raw) }
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
}

/// Entries whose keys all have one representation `K`.
final class TypedEntries<K: OrderedKey>: OrderedEntries {
    private var entries: SortedEntries<K>

    init(_ entries: SortedEntries<K> = SortedEntries()) { self.entries = entries }

    /// From (value, row) pairs sorted by value then row, every value convertible to `K`.
    convenience init?(sorted pairs: [(Value, Int32)]) {
        var keys: [K] = []
        keys.reserveCapacity(pairs.count)
        for (v, _) in pairs {
            guard let k = K(exactly: v) else { return nil }
            keys.append(k)
        }
        self.init(SortedEntries(sorted: keys, pairs.map(\.1)))
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

/// The narrowest representation for (value, row) pairs sorted by value then row: a typed one
/// when every value has the one scalar type it stores, else `Value`s.
func narrowestEntries(sorted pairs: [(Value, Int32)]) -> any OrderedEntries {
    let made: (any OrderedEntries)?
    switch pairs.first?.0 {
    case .int?: made = TypedEntries<IntKey>(sorted: pairs)
    case .double?: made = TypedEntries<DoubleKey>(sorted: pairs)
    case .date?: made = TypedEntries<DateKey>(sorted: pairs)
    case .string?: made = TypedEntries<StringKey>(sorted: pairs)
    default: made = nil
    }
    return made ?? TypedEntries<Value>(SortedEntries(sorted: pairs.map(\.0), pairs.map(\.1)))
}
