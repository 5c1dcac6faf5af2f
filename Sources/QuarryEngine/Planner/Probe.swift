import QuarryCore

/// A way to find candidate rows through an index, for one conjunct of the predicate.
indirect enum Probe {
    /// Rows whose key reaches one of the values.
    case equal(ValueIndex, [Value])
    /// Rows whose key reaches a value in a range of the ordered index's entries.
    case range(ValueIndex, Range<Int>, String)
    /// Rows with a point in a geo index's cells around a region (a superset).
    case geo(GeoIndex, [Int32], String)
    /// Rows with a point in a box bounding a geo index's coordinates (a superset of the rows
    /// the coordinate ranges keep; they still filter).
    case box(GeoIndex, LatLonBox)
    /// Rows any of the probes finds (OR).
    case union([Probe])
    /// Rows whose key reaches a pointer to (or a value of) an inner query's rows, known only
    /// once the inner query has run.
    case inner(ValueIndex, Query, innerKey: FieldPath?)

    /// Candidate rows expected (exact for value lookups, an upper bound for multi-key ones).
    func estimate(_ classRows: Int) -> Int {
        switch self {
        case .equal(let index, let values): return values.reduce(0) { $0 + index.count(equalTo: $1) }
        case .range(_, let entries, _): return entries.count
        case .geo(_, let rows, _): return rows.count
        case .box(let index, let box): return index.candidateCount(in: box)
        case .union(let probes): return Swift.min(classRows, probes.reduce(0) { $0 + $1.estimate(classRows) })
        case .inner(_, let q, _): return Swift.min(classRows, InnerQueries.limit(q) ?? classRows)
        }
    }

    /// The candidate rows, ascending (not for inner probes, which need the run).
    func rows() -> [Int32] {
        switch self {
        case .equal(let index, let values): return index.rows(equalTo: values)
        case .range(let index, let entries, _): return index.rows(in: entries)
        case .geo(_, let rows, _): return rows
        case .box(let index, let box): return index.rows(in: box)
        case .union(let probes): return ValueIndex.union(probes.map { $0.rows() }, sortedLists: true)
        case .inner: return []
        }
    }

    /// Whether `other` looks up the same index the same way (equal values, or a range), with
    /// whatever values.
    func sameLookup(as other: Probe) -> Bool {
        switch (self, other) {
        case (.equal(let a, _), .equal(let b, _)), (.range(let a, _, _), .range(let b, _, _)): return a === b
        default: return false
        }
    }

    /// An equality or range lookup of a value index, or a union of them.
    var isValueLookup: Bool {
        switch self {
        case .equal, .range: return true
        case .union(let probes): return probes.allSatisfy(\.isValueLookup)
        default: return false
        }
    }

    var isInner: Bool {
        switch self {
        case .inner: return true
        case .union(let ps): return ps.contains { $0.isInner }
        default: return false
        }
    }

    var label: String {
        switch self {
        case .equal(let index, let values):
            let what =
                values.count == 1
                ? "= \(PredicateText.render(values[0]))"
                : "IN (\(values.map(PredicateText.render).joined(separator: ", ")))"
            return "\(index.kind) index on \(index.path) \(what)"
        case .range(let index, _, let bounds): return "ordered index range on \(index.path) \(bounds)"
        case .geo(let index, _, let region): return "geo index on \(index.path) \(region)"
        case .box(let index, let box): return "geo index on \(index.path) box \(CoordinateBox.describe(box))"
        case .union(let probes): return "union of [" + probes.map(\.label).joined(separator: "; ") + "]"
        case .inner(let index, let q, let k):
            return "\(index.kind) index on \(index.path) probed with " + (k.map { "\($0) of " } ?? "")
                + "inner query on \(q.className)"
        }
    }
}

/// Which probes are exact for a leaf: the index returns exactly the rows where the leaf holds,
/// so the leaf can be dropped from the filter.
enum ProbeExactness {
    private static let number = Value.int(0).typeBit
    private static let string = Value.string("").typeBit
    private static let date = Value.date(0).typeBit
    private static let object = Value.object([:]).typeBit

    /// Equality or order with literal `c` through an index, under `semantics`: no SQL date
    /// reading, no Parse objectId-equals-pointer rule, and (for NSPredicate, where an array is
    /// one value) no arrays.
    static func exact(_ index: ValueIndex, _ semantics: LeafSemantics, _ c: Value, equality: Bool) -> Bool {
        if semantics == .predicate && index.multiValued { return false }
        let bits = index.typeBits
        switch c {
        case .date:
            return semantics != .sql || bits & (number | string) == 0
        case .int, .double:
            return semantics != .sql || bits & date == 0
        case .string:
            if semantics == .sql && bits & date != 0 { return false }
            if equality && semantics == .document && bits & (Value.pointerBit | object) != 0 { return false }
            return true
        case .bool:
            return true
        case .pointer:
            guard equality, bits & object == 0 else { return false }
            return semantics != .document || bits & string == 0
        default:
            return false
        }
    }
}
