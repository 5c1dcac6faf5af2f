import QuarryCore

/// The secondary indexes a user can declare on a key path of a class.
///
/// Hash and ordered indexes are multi-key: a field holding an array (or a relation) is indexed
/// under each of its elements, so they serve `tags = 'a'` under `.sql` and `.document`.
public enum IndexKind: String, Hashable, Codable, Sendable, CaseIterable, CustomStringConvertible {
    /// Equality and IN lookups.
    case hash
    /// Equality, ranges, BETWEEN, case-sensitive prefixes, and ORDER BY without sorting.
    case ordered
    /// A latitude/longitude grid for `near`, `withinBox`, `withinPolygon`, `withinCircle` and
    /// `distance(…) < r`.
    case geo

    public var description: String { rawValue }
}

/// What one row contributes to an index at its key: the values reached (array and relation
/// elements one by one), or nothing; and the objects of other rows it reached on the way.
struct IndexEntries {
    var values: [Value] = []
    /// The row reaches nothing, or null.
    var isNil = false
    /// The row reaches an array or a relation.
    var multiValued = false
    /// Objects the path went through or ended at (pointers met, dangling ones included):
    /// when one of them changes, so may these entries.
    var reached: [ObjectKey] = []

    /// The entries of a record, following the reference's key paths exactly.
    init(_ record: Record, _ path: FieldPath, _ resolver: KeyPathResolver) {
        if path.components.count > 1 || record[path.first].map(Self.mayHoldPointers) == true {
            reached = Self.objectsReached(record, path) { resolver.source.field($1, of: $0) }
        }
        guard case .value(let v) = resolver.resolve(path, in: record), !v.isNull else {
            isNil = true
            return
        }
        if let elements = resolver.elements(v) {
            multiValued = true
            for e in elements where !e.isNull && !values.contains(e) { values.append(e) }
        } else {
            values = [v]
        }
    }

    /// What a one-field path's value at a row (nil: the field is missing) is as entries,
    /// told without building the row's record.
    enum Plain {
        /// Missing or null.
        case none
        /// A scalar, its own single entry.
        case scalar(Value)
        /// An array, relation, pointer or object: a path resolves through or into it, so its
        /// entries are read from the record (`init(_:_:_:)`).
        case needsRecord
    }

    static func plain(_ v: Value?) -> Plain {
        switch v {
        case nil, .null?: return .none
        case .array?, .relation?, .pointer?, .object?: return .needsRecord
        case let v?: return .scalar(v)
        }
    }

    /// The entries of a one-field path whose field holds `v`; nil when they need the record.
    init?(_ v: Value?) {
        switch Self.plain(v) {
        case .none: isNil = true
        case .scalar(let v): values = [v]
        case .needsRecord: return nil
        }
    }

    private static func mayHoldPointers(_ v: Value) -> Bool {
        switch v {
        case .pointer, .relation, .object: return true
        case .array(let items): return items.contains(where: mayHoldPointers)
        default: return false
        }
    }

    var typeBits: UInt16 {
        values.reduce(multiValued ? Value.array([]).typeBit : 0) { $0 | $1.typeBit }
    }
}
