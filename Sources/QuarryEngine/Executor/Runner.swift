import QuarryCore

/// Runs a plan: rows from the source, through the filter (a large full scan in morsels on
/// several threads, docs/ARCHITECTURE.md#parallel-scans), then count, order and page, with
/// the deadline checked between batches. Stops early once a LIMIT is filled when nothing can
/// throw (otherwise a later row might fail, as it would in the reference).
enum Runner {
    enum Output {
        case count(Int)
        /// The rows, and their objectIds when they were asked for and copied by a parallel
        /// scan's threads (nil: the caller copies them from the rows).
        case rows([Int], ids: ResultSet?)
    }

    /// - Parameters:
    ///   - order: the running query's order: a plan of its shape may have been made for another
    ///     center of a distance (docs/ARCHITECTURE.md#plan-parameters).
    ///   - ids: the class's objectId column when the caller wants the rows' objectIds
    ///     (`Engine.runLazily`): a parallel scan copies each morsel's on the thread that
    ///     filtered it (docs/ARCHITECTURE.md#result-sets).
    static func execute(
        _ plan: Plan, _ ctx: ExecContext, order: [SortKey], skip: Int, limit: Int?,
        stats: ExecutionStats? = nil, ids: StringColumn? = nil
    ) throws(Diagnostic) -> Output {
        let q = plan.query
        let needsSort = !order.isEmpty && !plan.ordered
        let wanted = limit.map { skip.addingSaturated($0) }
        let stopEarly = !q.count && !needsSort && !plan.filter.mayThrow ? wanted : nil
        var matched: [Int] = []
        var count = 0
        var copied: ResultSet? = nil
        // A LIMIT of 0 reads no row.
        let reads = stopEarly != 0
        // The morsels' ids are the answer's only when its rows stay in scan order from the first.
        let morselIds = !q.count && !needsSort && skip == 0 ? ids : nil
        let topK = needsSort ? wanted.map { (order: order, first: $0) } : nil
        if reads, let scan = MorselScan(plan, ctx, counting: q.count, stop: stopEarly, ids: morselIds, topK: topK),
            let scanned = try scan.run()
        {
            (matched, count, copied) = scanned
        } else if reads, q.count, let counted = try denseCount(plan, ctx) {
            count = counted
        } else if reads {
            var batch = Batch()
            var step = BatchStep(filter: plan.filter, ctx: ctx)
            try plan.source.produce(ctx, &batch) { (b) throws(Diagnostic) -> Bool in
                try step.apply(&b)
                if q.count {
                    count += b.count
                    return true
                }
                b.append(to: &matched)
                if let stop = stopEarly, matched.count >= stop { return false }
                return true
            }
        }
        if q.count {
            stats?.matched = count
            stats?.returned = count
            return .count(count)
        }
        stats?.matched = matched.count
        if needsSort {
            let start = ContinuousClock.now
            matched = RowSorter(order, rows: matched, ctx: ctx).sorted(matched, first: wanted)
            stats?.sorted = true
            stats?.sortTime = ContinuousClock.now - start
        }
        let from = Swift.min(skip, matched.count)
        let to = limit.map { from + Swift.min(matched.count - from, $0) } ?? matched.count
        stats?.returned = to - from
        if from == 0 && to == matched.count { return .rows(matched, ids: copied) }
        return .rows(Array(matched[from..<to]), ids: from == 0 ? copied?.first(to) : nil)
    }

    /// A count the filter makes batch by batch without listing rows (`FilterNode.count`: a
    /// range test on its own column), over a full scan of a class with no deleted rows; nil
    /// when the filter cannot count so. EXPLAIN ANALYZE filters, to count each node's rows.
    private static func denseCount(_ plan: Plan, _ ctx: ExecContext) throws(Diagnostic) -> Int? {
        guard plan.source is FullScan, !ctx.run.timing, ctx.table.deletedCount == 0 else { return nil }
        let n = ctx.table.rowCount
        var total = 0
        var start = 0
        while start < n {
            try ctx.run.checkpoint()
            let end = Swift.min(n, start + Batch.capacity)
            guard let kept = plan.filter.count(start..<end, ctx) else { return nil }
            total += kept
            start = end
        }
        return total
    }
}
