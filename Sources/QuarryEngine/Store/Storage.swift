import QuarryCore

/// What a storage backend tells the planner: which classes and indexes it has, statistics
/// per key, and how many rows an index would find. The in-memory column store implements it;
/// an adapter for SQLite or PostgreSQL would answer from its catalog and its statistics.
/// The planner asks before it plans an index lookup, rather than assuming one.
public protocol Storage: AnyObject {
    /// Rows in a class; nil when there is no such class.
    func rowCount(of className: String) -> Int?
    /// The index kinds declared on a key path of a class.
    func indexKinds(on key: FieldPath, in className: String) -> [IndexKind]
    /// Statistics of a key path; nil when the storage keeps none for it.
    func statistics(of key: FieldPath, in className: String) -> KeyStatistics?
    /// How many rows an index on the key would return for the probe, without fetching them;
    /// nil when no index can answer it.
    func estimatedRows(for probe: IndexProbe, on key: FieldPath, in className: String) -> Int?
}

/// A question an index can answer.
public enum IndexProbe: Hashable, Sendable {
    /// Rows reaching one of these values.
    case equal([Value])
    /// Rows reaching a value between the bounds (either may be open).
    case range(lower: Value?, lowerInclusive: Bool, upper: Value?, upperInclusive: Bool)
    /// Rows reaching a string with this prefix (case-sensitive).
    case prefix(String)
}

/// Statistics of one key of a class.
public struct KeyStatistics: Hashable, Sendable {
    public var rowCount: Int
    /// Rows where the key holds null.
    public var nullCount: Int
    /// Rows without the key.
    public var missingCount: Int
    /// Distinct values (an estimate; it can lag behind deletes until statistics are refreshed).
    public var distinctEstimate: Int
    /// Smallest and largest value in `Value.sortOrder` (bounds: they can lag behind deletes and
    /// replacements, except on a key with an ordered index, which keeps them exact).
    public var min: Value?
    public var max: Value?
    /// Some row holds an array or a relation.
    public var multiValued: Bool

    public init(
        rowCount: Int, nullCount: Int, missingCount: Int, distinctEstimate: Int, min: Value?, max: Value?,
        multiValued: Bool
    ) {
        self.rowCount = rowCount
        self.nullCount = nullCount
        self.missingCount = missingCount
        self.distinctEstimate = distinctEstimate
        self.min = min
        self.max = max
        self.multiValued = multiValued
    }
}

extension ColumnStore: Storage {
    func rowCount(of className: String) -> Int? { tables[className]?.liveCount }

    func indexKinds(on key: FieldPath, in className: String) -> [IndexKind] {
        guard let registry = indexes[className] else { return [] }
        return registry.values.filter { $0.path == key }.map(\.kind)
            + registry.geo.filter { $0.path == key }.map { _ in .geo }
    }

    func statistics(of key: FieldPath, in className: String) -> KeyStatistics? {
        guard let table = tables[className], key.components.count == 1, let column = table.column(key.components[0])
        else { return nil }
        let s = column.statistics
        return KeyStatistics(
            rowCount: table.liveCount, nullCount: s.nulls, missingCount: s.missing,
            distinctEstimate: s.distinct.estimate, min: s.min, max: s.max, multiValued: s.multiValued > 0)
    }

    func estimatedRows(for probe: IndexProbe, on key: FieldPath, in className: String) -> Int? {
        let candidates = valueIndexes(className, key)
        switch probe {
        case .equal(let values):
            guard let index = candidates.first else { return nil }
            return values.reduce(0) { $0 + index.count(equalTo: $1) }
        case .range(let lower, let li, let upper, let ui):
            guard let index = candidates.first(where: { $0.kind == .ordered }), lower != nil || upper != nil else {
                return nil
            }
            return index.entries(from: lower.map { ($0, li) }, to: upper.map { ($0, ui) }).count
        case .prefix(let p):
            guard let index = candidates.first(where: { $0.kind == .ordered }) else { return nil }
            return index.entries(withPrefix: p).count
        }
    }
}
