import QuarryCore

/// The objects an inner query yielded, in its order: the reference evaluator's records, or
/// rows of the engine's store whose records are built from the columns as they are read (an
/// inner query may yield up to `Limits.maxInnerRows` objects; most uses read one field or
/// only the objectId of each).
enum InnerObjects: RandomAccessCollection {
    case records([Record])
    case rows(ClassTable, [Int])

    var startIndex: Int { 0 }
    var endIndex: Int {
        switch self {
        case .records(let r): return r.count
        case .rows(_, let rows): return rows.count
        }
    }

    /// The `i`-th object, whole.
    subscript(i: Int) -> Record {
        switch self {
        case .records(let r): return r[i]
        case .rows(let table, let rows): return table.record(rows[i])
        }
    }

    func objectId(at i: Int) -> String {
        switch self {
        case .records(let r): return r[i].objectId
        case .rows(let table, let rows): return table.objectIds.string(at: rows[i])
        }
    }

    /// The `i`-th object with at least the field a key path starts at (what resolving the
    /// path reads).
    func record(at i: Int, for path: FieldPath) -> Record {
        switch self {
        case .records(let r): return r[i]
        case .rows(let table, let rows): return table.record(rows[i], only: path.first)
        }
    }
}
