import QuarryCore

/// What `Engine.runLazily` returns: the matched rows, or their number for a count query.
public enum LazyQueryResult {
    case rows(ResultSet)
    case count(Int)
}

/// The objects a query matched, in result order, as row numbers of the engine's store: an
/// objectId is read straight from the store's objectId column, a record is built from the
/// columns (with the query's includes and keys applied) only when it is read.
///
/// A result set reads the engine's current data: it is valid until the next insert, delete
/// or index change on the engine, and reading it after one is a programming error (it traps).
public struct ResultSet: RandomAccessCollection {
    private let store: ColumnStore
    private let table: ClassTable
    private let rows: [Int]
    private let shaping: Shaping?
    private let version: UInt64

    /// A query's includes and projection, applied to each record as it is read.
    struct Shaping {
        let query: Query
        let evaluation: Evaluation
    }

    init(store: ColumnStore, table: ClassTable, rows: [Int], shaping: Shaping?) {
        self.store = store
        self.table = table
        self.rows = rows
        self.shaping = shaping
        self.version = store.version
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { rows.count }

    /// The `i`-th object, built from the columns.
    public subscript(i: Int) -> Record {
        checkCurrent()
        let record = table.record(rows[i])
        guard let shaping else { return record }
        return shaping.evaluation.shape(record, shaping.query)
    }

    /// The `i`-th object's objectId, without building its record.
    public func objectId(at i: Int) -> String {
        checkCurrent()
        return table.objectIds.string(at: rows[i])
    }

    /// Every objectId, in result order.
    public var objectIds: [String] { indices.map(objectId(at:)) }

    private func checkCurrent() {
        precondition(store.version == version, "the engine's data changed after this result set was made")
    }
}
