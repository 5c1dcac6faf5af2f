import Foundation
import QuarryCore

/// A full scan split into morsels (row ranges) that several threads filter at once
/// (docs/ARCHITECTURE.md#parallel-scans). Each thread has its own copy of the filter and its
/// own run state (filters keep scratch batches, counters and caches); the columns are only
/// read. Morsels are handed out in row order and their results put back in that order, so
/// the rows are the sequential scan's. A morsel that fails keeps the error of its first
/// failing row; the error reported is the earliest morsel's, the one the sequential scan
/// meets first: once a morsel has failed no later one is started, and those started before
/// it still finish, since one of them may fail earlier. Regular expressions charge the run's
/// regex budget through one shared count; a scan whose threads together ran past it gives no
/// answer, and the caller scans again in order, which fails at the row the order reaches it.
final class MorselScan: @unchecked Sendable {
    private let rowCount: Int
    private let morselRows: Int
    private let morselCount: Int
    private let counting: Bool
    /// Counting over a class with no deleted rows: the filter may count a batch without
    /// listing its rows (`FilterNode.count`).
    private let countsDense: Bool
    /// Rows wanted in order before the scan may stop (a LIMIT with nothing that can throw).
    private let stop: Int?
    private let workers: [(filter: FilterNode, ctx: ExecContext)]
    /// The run's budget, and the regex steps its threads charge together.
    private let budget: QueryBudget
    private let regexSteps: SharedRegexSteps
    /// The objectId column, when the caller wants the rows' ids: a morsel that matched few of
    /// its rows copies theirs (`spans` is set while the morsels run).
    private let ids: StringColumn?
    private var spans: StringSpans?
    /// An ORDER BY with a LIMIT: each morsel keeps only its first `first` rows in that order.
    private let topK: (order: [SortKey], first: Int)?

    // Guarded by `lock`.
    private let lock = NSLock()
    private var nextMorsel = 0
    private var nextWorker = 0
    private var rows: [[Int]?]
    private var morselIds: [ResultSet?]
    private var counts: [Int]
    private var done: [Bool]
    /// Morsels done from the first on, and the rows they matched.
    private var prefix = 0
    private var prefixRows = 0
    private var stopped = false
    private var failure: (morsel: Int, error: Diagnostic)?

    /// A parallel scan for the plan, or nil when it should run sequentially: one thread, a
    /// source other than a full scan, fewer than two morsels of rows, a timed run (EXPLAIN
    /// ANALYZE counts per node), or a predicate whose rows must be tested in order.
    /// - Parameters:
    ///   - ids: the class's objectId column, when the rows' ids are wanted too.
    ///   - topK: the order the rows will be sorted in and how many of them are wanted, when
    ///     only those are.
    init?(
        _ plan: Plan, _ ctx: ExecContext, counting: Bool, stop: Int?, ids: StringColumn? = nil,
        topK: (order: [SortKey], first: Int)? = nil
    ) {
        let parallelism = ctx.run.parallelism
        let n = ctx.table.rowCount
        guard parallelism.threads > 1, plan.source is FullScan, !ctx.run.timing,
            n >= 2 * parallelism.morselRows, plan.normalized.testsRowsIndependently
        else { return nil }
        morselRows = parallelism.morselRows
        morselCount = (n + morselRows - 1) / morselRows
        let threads = Swift.min(parallelism.threads, morselCount)
        let budget = ctx.run.budget, regexSteps = budget.sharedSteps()
        self.budget = budget
        self.regexSteps = regexSteps
        workers = plan.filters(threads).map {
            let run = ctx.run.forked(budget: budget.forked(sharing: regexSteps))
            return ($0, ExecContext(run: run, table: ctx.table, literals: ctx.literals))
        }
        rowCount = n
        self.counting = counting
        countsDense = counting && ctx.table.deletedCount == 0
        self.stop = stop
        rows = counting ? [] : [[Int]?](repeating: nil, count: morselCount)
        self.ids = counting ? nil : ids
        self.topK = counting ? nil : topK
        morselIds = self.ids == nil ? [] : [ResultSet?](repeating: nil, count: morselCount)
        counts = [Int](repeating: 0, count: morselCount)
        done = [Bool](repeating: false, count: morselCount)
    }

    /// The matching rows in row order (empty when counting), their number, and their
    /// objectIds when the scan was given the column; nil when the threads together ran past
    /// the regex budget (the scan must then run in order).
    func run() throws(Diagnostic) -> (rows: [Int], count: Int, ids: ResultSet?)? {
        if let ids {
            ids.withBytes { spans in
                self.spans = spans
                ScanThreads.shared.run(helpers: workers.count - 1) { self.work() }
                self.spans = nil
            }
        } else {
            ScanThreads.shared.run(helpers: workers.count - 1) { self.work() }
        }
        guard !regexSteps.exceeded else { return nil }
        budget.absorb(regexSteps)
        if let failure, !(stopped && failure.morsel >= prefix) { throw failure.error }
        let finished = stopped ? prefix : morselCount
        let total = counts[..<finished].reduce(0, +)
        guard !counting else { return ([], total, nil) }
        return (gathered(finished, total), total, gatheredIds(finished, total))
    }

    /// The first `finished` morsels' rows in one array, each morsel's copied to its place by
    /// the scan's threads when there are at least two morsels' worth (a result of 500,000 rows
    /// is 4 MB to move); fewer are copied faster than a helper thread wakes.
    private func gathered(_ finished: Int, _ total: Int) -> [Int] {
        var offsets = [Int](repeating: 0, count: finished)
        for m in 1..<Swift.max(1, finished) { offsets[m] = offsets[m - 1] + counts[m - 1] }
        return [Int](unsafeUninitializedCapacity: total) { out, initialized in
            let copy = MorselCopy(rows: rows, offsets: offsets, target: out.baseAddress)
            let items = SharedItems(finished)
            ScanThreads.shared.run(helpers: total >= 2 * morselRows ? workers.count - 1 : 0) {
                while let m = items.take() { copy.place(m) }
            }
            initialized = total
        }
    }

    /// The ids the first `finished` morsels copied, one after another; nil unless every one of
    /// them did. They are few (at most an eighth of the rows scanned), so one thread joins them.
    private func gatheredIds(_ finished: Int, _ total: Int) -> ResultSet? {
        guard ids != nil, morselIds.prefix(finished).allSatisfy({ $0 != nil }) else { return nil }
        var bytes: [UInt8] = []
        var ends: [Int] = []
        bytes.reserveCapacity(morselIds.prefix(finished).reduce(0) { $0 + ($1?.bytes.count ?? 0) })
        ends.reserveCapacity(total)
        for case let part? in morselIds.prefix(finished) {
            let offset = bytes.count
            bytes += part.bytes
            ends += part.ends.lazy.map { $0 + offset }
        }
        return ResultSet(bytes: bytes, ends: ends)
    }

    private func work() {
        guard let w = locked(takeWorker) else { return }
        var step = BatchStep(filter: workers[w].filter, ctx: workers[w].ctx)
        var batch = Batch()
        while let m = locked(takeMorsel) {
            var matched: [Int] = []
            var count = 0
            do throws(Diagnostic) {
                var start = m * morselRows
                let end = Swift.min(rowCount, start + morselRows)
                while start < end {
                    let batchEnd = Swift.min(end, start + Batch.capacity)
                    if countsDense {
                        try step.ctx.run.checkpoint()
                        if let kept = step.filter.count(start..<batchEnd, step.ctx) {
                            count += kept
                            start = batchEnd
                            continue
                        }
                    }
                    batch.setRange(start..<batchEnd)
                    // Deleted rows stay in the columns until compaction, as for FullScan.
                    step.ctx.table.dropDeleted(&batch)
                    try step.apply(&batch)
                    count += batch.count
                    if !counting { batch.append(to: &matched) }
                    start = batchEnd
                }
                // Only a morsel's first k rows in the order asked can be among the answer's
                // first k, so the sort is shared out instead of done after the scan on one
                // thread (docs/ARCHITECTURE.md#parallel-scans). Ties go by row: rows of equal
                // keys stay in row order here, and so in the final sort's input.
                if let (order, k) = topK, k < matched.count / 4 {
                    matched = RowSorter(order, rows: matched, ctx: step.ctx).sorted(matched, first: k)
                    count = matched.count
                }
                // The ids of a morsel's few rows, while its thread is at work: copied after the
                // scan on one thread, they bounded the speedup of a scan with a small answer.
                // Many rows' ids are copied after the scan on every thread, in place (copied
                // here they would be moved once more).
                let copiedIds =
                    matched.count <= morselRows / 8 ? spans.map { ResultSet(rows: matched, of: $0) } : nil
                locked { finish(m, matched, count, copiedIds) }
            } catch {
                locked {
                    if failure.map({ m < $0.morsel }) ?? true { failure = (m, error) }
                }
            }
        }
    }

    /// The filter and run state of the thread calling; nil when every copy is in use.
    private func takeWorker() -> Int? {
        defer { nextWorker += 1 }
        return nextWorker < workers.count ? nextWorker : nil
    }

    /// The next morsel to filter; nil once all are taken, the scan has stopped, or a morsel
    /// before the next one has failed.
    private func takeMorsel() -> Int? {
        guard !stopped, nextMorsel < morselCount, failure.map({ nextMorsel < $0.morsel }) ?? true else { return nil }
        defer { nextMorsel += 1 }
        return nextMorsel
    }

    private func finish(_ m: Int, _ matched: [Int], _ count: Int, _ copiedIds: ResultSet?) {
        counts[m] = count
        done[m] = true
        if !counting { rows[m] = matched }
        if let copiedIds { morselIds[m] = copiedIds }
        guard let stop else { return }
        while prefix < morselCount, done[prefix] {
            prefixRows += counts[prefix]
            prefix += 1
        }
        if prefixRows >= stop { stopped = true }
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

/// Morsels' rows copied into their places in one buffer, from several threads: each morsel by
/// the one thread that took it. The target is valid while `MorselScan.gathered` runs.
private struct MorselCopy: @unchecked Sendable {
    let rows: [[Int]?]
    let offsets: [Int]
    let target: UnsafeMutablePointer<Int>?

    func place(_ m: Int) {
        guard let target, let morsel = rows[m] else { return }
        morsel.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            (target + offsets[m]).initialize(from: base, count: source.count)
        }
    }
}

/// One batch through a filter, as the sequential runner does it: the deadline checked, and
/// when the filter throws, the error of the first row (in order) that fails on its own.
struct BatchStep {
    let filter: FilterNode
    let ctx: ExecContext
    private let fallible: Bool
    private var saved = Batch()

    init(filter: FilterNode, ctx: ExecContext) {
        self.filter = filter
        self.ctx = ctx
        fallible = filter.mayThrow
    }

    mutating func apply(_ b: inout Batch) throws(Diagnostic) {
        try ctx.run.checkpoint()
        var mark: UInt64 = 0
        if fallible {
            saved.assign(b)
            mark = ctx.run.budget.regexMark
        }
        do throws(Diagnostic) {
            try filter.run(&b, ctx)
        } catch {
            ctx.run.budget.rewind(to: mark)
            throw Self.firstFailure(filter, saved, ctx) ?? error
        }
    }

    /// The error the reference meets first: a batch runs each filter over all its rows before
    /// the next, so when several rows fail it may report another row's error. Rows are redone
    /// one by one, in order, until one fails, on the regex budget as it was before the batch
    /// (the failed pass may have spent it on rows past the first failing one).
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
}
