import QuarryCore

/// A query compiled for the store as it is: the normalized predicate and the rewrites that
/// produced it, the inner queries to run first, where rows come from, the filter tree, and
/// how the result is ordered. Valid until the store changes.
final class Plan {
    let query: Query
    let normalized: Filter
    let rewrites: [Rewrite]
    /// Inner queries, in the order they are materialized (innermost first where nested).
    let innerQueries: [Query]
    let source: RowSource
    let filter: FilterNode
    /// The source already yields rows in the query's order.
    let ordered: Bool
    let storeVersion: UInt64

    init(
        query: Query, normalized: Filter, rewrites: [Rewrite], innerQueries: [Query], source: RowSource,
        filter: FilterNode, ordered: Bool, storeVersion: UInt64
    ) {
        self.query = query
        self.normalized = normalized
        self.rewrites = rewrites
        self.innerQueries = innerQueries
        self.source = source
        self.filter = filter
        self.ordered = ordered
        self.storeVersion = storeVersion
    }
}

/// Where a plan's candidate rows come from.
class RowSource {
    /// For EXPLAIN: `full scan`, `index range on age (ordered)`… (rendered on demand: planning
    /// should not pay for it).
    var label: String { "" }
    /// Rows it is expected to yield.
    let estimatedRows: Int
    final var rowsOut = 0
    final var elapsed: Duration = .zero

    init(estimatedRows: Int) {
        self.estimatedRows = estimatedRows
    }

    /// Feeds the candidate rows in batches; `body` returns false to stop early.
    func produce(_ ctx: ExecContext, _ batch: inout Batch, _ body: (inout Batch) throws(Diagnostic) -> Bool)
        throws(Diagnostic)
    {}
}

/// Every row of the class, in order.
final class FullScan: RowSource {
    init(rows: Int) { super.init(estimatedRows: rows) }
    override var label: String { "full scan" }

    override func produce(_ ctx: ExecContext, _ batch: inout Batch, _ body: (inout Batch) throws(Diagnostic) -> Bool)
        throws(Diagnostic)
    {
        let n = ctx.table.rowCount
        var start = 0
        while start < n {
            let end = Swift.min(n, start + Batch.capacity)
            batch.setRange(start..<end)
            ctx.table.dropDeleted(&batch)
            rowsOut += batch.count
            guard try body(&batch) else { return }
            start = end
        }
    }
}
