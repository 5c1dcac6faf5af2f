import QuarryCore

/// Runs a plan: rows from the source, through the filter, then count, order and page, with
/// the deadline checked between batches. Stops early once a LIMIT is filled when nothing can
/// throw (otherwise a later row might fail, as it would in the reference).
enum Runner {
    enum Output {
        case count(Int)
        case rows([Int])
    }

    /// The error the reference meets first: a batch runs each filter over all its rows before
    /// the next, so when several rows fail it may report another row's error. Rows are redone
    /// one by one, in order, until one fails.
    private static func firstFailure(_ filter: FilterNode, _ batch: Batch, _ ctx: ExecContext) -> Diagnostic? {
        var one = Batch()
        var failure: Diagnostic? = nil
        batch.forEach { r in
            guard failure == nil else { return }
            one.setRows(CollectionOfOne(Int32(r)))
            do throws(Diagnostic) { try filter.run(&one, ctx) } catch { failure = error }
        }
        return failure
    }

    static func execute(
        _ plan: Plan, _ ctx: ExecContext, skip: Int, limit: Int?,
        stats: ExecutionStats? = nil
    ) throws(Diagnostic) -> Output {
        let q = plan.query
        let needsSort = !q.order.isEmpty && !plan.ordered
        let wanted = limit.map { skip.addingSaturated($0) }
        let stopEarly = !q.count && !needsSort && !plan.filter.mayThrow ? wanted : nil
        var matched: [Int] = []
        var count = 0
        var batch = Batch()
        let fallible = plan.filter.mayThrow
        var saved = Batch()
        if stopEarly != 0 {
            try plan.source.produce(ctx, &batch) { (b) throws(Diagnostic) -> Bool in
                try ctx.run.checkpoint()
                if fallible { saved.assign(b) }
                do throws(Diagnostic) {
                    try plan.filter.run(&b, ctx)
                } catch {
                    throw firstFailure(plan.filter, saved, ctx) ?? error
                }
                if q.count {
                    count += b.count
                    return true
                }
                b.forEach { matched.append($0) }
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
            matched = RowSorter(q.order, rows: matched, ctx: ctx).sorted(matched, first: wanted)
            stats?.sorted = true
            stats?.sortTime = ContinuousClock.now - start
        }
        let from = Swift.min(skip, matched.count)
        let to = limit.map { from + Swift.min(matched.count - from, $0) } ?? matched.count
        stats?.returned = to - from
        return .rows(Array(matched[from..<to]))
    }
}
