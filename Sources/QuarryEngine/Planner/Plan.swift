import QuarryCore

/// A query compiled for the store as it is: the normalized predicate and the rewrites that
/// produced it, the inner queries to run first, where rows come from, the filter tree, and
/// how the result is ordered. Valid until the store changes. Nothing in it changes after
/// planning but its filters' scratch space and memos (and the copies of its filter parallel
/// scans make): other literals of its shape are read from the execution
/// (docs/ARCHITECTURE.md#plan-parameters).
final class Plan {
    let query: Query
    let normalized: Filter
    /// The rewrites normalization applied (for a plan rebound to new literals, worked out
    /// when asked: docs/ARCHITECTURE.md#plan-cache).
    var rewrites: [Rewrite] { rewriteLog() }
    private let rewriteLog: () -> [Rewrite]
    /// Inner queries, in the order they are materialized (innermost first where nested).
    let innerQueries: [Query]
    let source: RowSource
    let filter: FilterNode
    /// The source already yields rows in the query's order.
    let ordered: Bool
    let storeVersion: UInt64
    /// Whether normalization kept every literal in its place whatever its value, so that the
    /// normalized predicate for other literals is this one with them put in.
    let rebindable: Bool
    /// The literals the filter reads from each execution.
    let parameters: PlanParameters
    /// Compiles another copy of `filter`, for another thread of a parallel scan (a filter
    /// keeps scratch space and counters as it runs), with a memo of its own.
    private let copyFilter: () -> FilterNode

    init(
        query: Query, normalized: Filter, rewrites: @escaping () -> [Rewrite], innerQueries: [Query], source: RowSource,
        filter: FilterNode, ordered: Bool, storeVersion: UInt64, rebindable: Bool = false,
        parameters: PlanParameters = .none, copyFilter: @escaping () -> FilterNode
    ) {
        self.query = query
        self.normalized = normalized
        self.rewriteLog = rewrites
        self.innerQueries = innerQueries
        self.source = source
        self.filter = filter
        self.ordered = ordered
        self.storeVersion = storeVersion
        self.rebindable = rebindable
        self.parameters = parameters
        self.copyFilter = copyFilter
    }

    /// The copies made so far, kept for the plan's later runs so that each thread's memos of
    /// string tests (`EntryMemo`) stay filled, as `filter`'s do: a plan is lent to one reader
    /// at a time (docs/ARCHITECTURE.md#concurrency), so they are never in use twice at once.
    private var copies: [FilterNode] = []

    /// `count` filters that run independently: `filter` and copies of it.
    func filters(_ count: Int) -> [FilterNode] {
        while copies.count < count - 1 { copies.append(copyFilter()) }
        return [filter] + copies.prefix(Swift.max(0, count - 1))
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
