import QuarryCore
import Synchronization

/// One copy of the engine's data with what reads of it need: the column store, its plan cache
/// and planner. Any number of readers use a replica at once; the engine's writer changes it
/// only while no reader is inside (docs/ARCHITECTURE.md#concurrency). Readers only read the
/// store; what they change (the plan cache, the planner's memo) is behind `cache`'s lock, and
/// a plan is used by one reader at a time.
final class Replica: @unchecked Sendable {
    let store: ColumnStore
    /// The classes, fields and types of the replica's objects; changed with the store.
    private(set) var schema: InferredSchema
    let limits: Limits
    let nowMillis: @Sendable () -> Int64
    let randomSource: @Sendable () -> Double
    /// Threads a full scan may use (docs/ARCHITECTURE.md#parallel-scans).
    let parallelism: ScanParallelism
    /// Readers inside the replica now.
    let readers = Atomic<Int>(0)
    /// Set while the writer changes the replica: a reader that finds it set leaves again.
    let writing = Atomic<Bool>(false)
    private let cache: Mutex<PlanCache>
    /// The engine's observer, shared by both replicas.
    let observation: ObserverSlot

    init(
        store: ColumnStore, schema: InferredSchema, limits: Limits, now: @escaping @Sendable () -> Int64,
        random: @escaping @Sendable () -> Double, parallelism: ScanParallelism, observation: ObserverSlot
    ) {
        self.parallelism = parallelism
        self.store = store
        self.schema = schema
        self.observation = observation
        self.limits = limits
        self.nowMillis = now
        self.randomSource = random
        // The planner reads the store readers read; it changes only its memo, behind the lock.
        nonisolated(unsafe) let plans = PlanCache(
            planner: Planner(store: store, limits: limits, folding: Normalizer.folding(limits)))
        cache = Mutex(plans)
    }

    // MARK: - Entering and leaving

    /// Counts a reader in unless the writer is changing the replica (seq-cst, against the
    /// writer's `enterWriting`: one of the two sees the other).
    func enter() -> Bool {
        readers.add(1, ordering: .sequentiallyConsistent)
        if !writing.load(ordering: .sequentiallyConsistent) { return true }
        leave()
        return false
    }

    func leave() { readers.subtract(1, ordering: .sequentiallyConsistent) }

    /// Waits until no reader is inside and marks the replica as being written. Its cached
    /// plans go first: made for the data about to change, they would only keep the columns'
    /// arrays shared, so that each write to them copied them whole.
    func enterWriting() {
        var spins = 0
        while true {
            writing.store(true, ordering: .sequentiallyConsistent)
            if readers.load(ordering: .sequentiallyConsistent) == 0 {
                cache.withLock { $0.reset() }
                return
            }
            writing.store(false, ordering: .sequentiallyConsistent)
            spins += 1
            Backoff.pause(spins)
        }
    }

    /// The replica is consistent again (its plans went when the writing began).
    func leaveWriting() {
        writing.store(false, ordering: .sequentiallyConsistent)
    }

    // MARK: - Changes (writer only)

    /// Applies one change; returns whether it changed something the caller asked about (a
    /// delete found its object, an index drop found its index).
    @discardableResult
    func apply(_ change: Change) -> Bool {
        switch change {
        case .save(let record, let className):
            store.insert(record, into: className)
            schema.note(record, in: className)
            return true
        case .delete(let objectId, let className):
            return store.remove(objectId, from: className)
        case .createIndex(let kind, let key, let className):
            store.createIndex(kind, on: key, in: className)
            return true
        case .dropIndex(let kind, let key, let className):
            return store.dropIndex(kind, on: key, in: className)
        case .refreshStatistics(let className):
            store.refreshStatistics(className)
            return true
        }
    }

    /// Applies a batch in order; a run of index creations is built side by side on the
    /// replica's threads (`ColumnStore.createIndexes`).
    func apply(_ changes: [Change]) -> [Bool] {
        var results: [Bool] = []
        var i = 0
        while i < changes.count {
            var specs: [(kind: IndexKind, path: FieldPath, className: String)] = []
            while i < changes.count, case .createIndex(let kind, let key, let className) = changes[i] {
                specs.append((kind, key, className))
                i += 1
            }
            if specs.isEmpty {
                results.append(apply(changes[i]))
                i += 1
            } else {
                store.createIndexes(specs, threads: parallelism.threads)
                results += specs.map { _ in true }
            }
        }
        return results
    }

    /// Applies the changes the published replica `front` applied last, this replica holding
    /// the data `front` held before them. An index created after the last change to objects
    /// is copied from `front`, which holds it as built on the same data, instead of built again.
    func replay(_ changes: [Change], after front: Replica) {
        let lastObjectChange = changes.lastIndex { $0.changesObjects } ?? -1
        for (i, change) in changes.enumerated() {
            if i > lastObjectChange, case .createIndex(let kind, let key, let className) = change,
                store.createIndex(kind, on: key, in: className, copying: front.store)
            {
                continue
            }
            _ = apply(change)
        }
    }

    /// A second replica with the same data and indexes, their arrays shared until written
    /// (`ColumnStore.copy`).
    func copy() -> Replica {
        let fresh = store.copy()
        return Replica(
            store: fresh, schema: schema, limits: limits, now: nowMillis, random: randomSource,
            parallelism: parallelism, observation: observation)
    }

    // MARK: - Queries

    /// - Parameter known: the query's plan shape, when the caller has it (nil: found here).
    func run(_ query: Query, variables: [String: Value], known: KnownShape? = nil) throws(Diagnostic) -> QueryResult {
        let run = RunState(
            store: store, limits: limits, variables: variables, nowMillis: nowMillis(), random: randomSource,
            timing: false, parallelism: parallelism)
        switch try observedResult(query, run, known) {
        case .count(let n): return .count(n)
        case .rows(let rows, let shaping, _):
            guard let table = store.table(query.className) else { throw QueryValidator.unknownClass(query.className) }
            guard let shaping else { return .records(table.records(rows, parallelism: run.parallelism)) }
            return .records(rows.map { shaping.evaluation.shape(table.record($0), shaping.query) })
        }
    }

    /// The objectIds a query matches, in result order, or their number for a count.
    /// - Parameter parallelism: threads its scans may use (nil: the replica's).
    func objectIds(
        _ query: Query, variables: [String: Value], parallelism: ScanParallelism? = nil
    ) throws(Diagnostic) -> LazyQueryResult {
        let run = RunState(
            store: store, limits: limits, variables: variables, nowMillis: nowMillis(), random: randomSource,
            timing: false, parallelism: parallelism ?? self.parallelism)
        switch try observedResult(query, run, nil, ids: true) {
        case .count(let n): return .count(n)
        case .rows(let rows, _, let ids):
            if let ids { return .rows(ids) }
            guard let table = store.table(query.className) else { throw QueryValidator.unknownClass(query.className) }
            return .rows(ResultSet(rows: rows, of: table.objectIds, parallelism: run.parallelism))
        }
    }

    /// A query's rows (with the shaping its includes and keys ask for, and their objectIds
    /// when they were asked for and a parallel scan copied them) or count.
    enum RowsOrCount {
        case rows([Int], ResultShaping?, ids: ResultSet?)
        case count(Int)
    }

    /// `result`, reported to the engine's observer when one is attached.
    private func observedResult(
        _ query: Query, _ run: RunState, _ known: KnownShape?, ids: Bool = false
    ) throws(Diagnostic) -> RowsOrCount {
        guard let observer = observation.observer else { return try result(query, run, known, ids: ids) }
        return try observing(query, observer) { () throws(Diagnostic) in try result(query, run, known, ids: ids) }
    }

    /// - Parameter ids: whether the caller wants the rows' objectIds (`Runner.execute`).
    func result(
        _ query: Query, _ run: RunState, _ known: KnownShape? = nil, ids: Bool = false
    ) throws(Diagnostic) -> RowsOrCount {
        var limit = query.limit ?? query.profile.defaultLimit
        if let l = limit, let cap = query.profile.maxLimit, l > cap { limit = cap }
        switch try execute(query, run, skip: query.skip ?? 0, limit: limit, known: known, ids: ids) {
        case .count(let n):
            return .count(n)
        case .rows(let rows, let copied):
            // Nothing to embed or project: the stored objects are the answer as they are.
            let shaping =
                query.includes.isEmpty && query.keys == nil && query.excludeKeys.isEmpty
                ? nil : ResultShaping(query: query, evaluation: run.evaluation)
            return .rows(rows, shaping, ids: copied)
        }
    }

    // MARK: - Plans

    /// A plan taken out of the cache for one reader's use, checked by `QueryValidator` with the
    /// caller's variable names. The same query again reuses a plan. The same shape with other
    /// literals runs a cached plan with them when its filter reads every literal that differs
    /// from the execution (docs/ARCHITECTURE.md#plan-parameters); else a regular expression
    /// literal is checked and the plan is rebound or planned again
    /// (docs/ARCHITECTURE.md#plan-cache). Give it back with `giveBack` when the run is over.
    /// - Parameters:
    ///   - known: the query's plan shape, when the caller has it (nil: found here).
    ///   - keeping: check the plan (rebound or made anew as a run would have it) and leave it in
    ///     the cache, for a caller that runs nothing (`Engine.prepare`): the checkout then has
    ///     no entry to give back.
    func checkOut(
        _ query: Query, variables: Set<String> = [], known: KnownShape? = nil, keeping: Bool = false
    ) throws(Diagnostic) -> CheckedOutPlan {
        let store = self.store
        assert(known.map { $0.describes(query) } ?? true, "a known shape that is not the query's")
        guard let (shape, literals) = known.map({ ($0.shape, $0.literals) }) ?? PlanShape.of(query) else {
            return try cache.withLock { (c) throws(Diagnostic) -> CheckedOutPlan in
                try c.planner.validate(query, variables: variables)
                return CheckedOutPlan(plan: try c.build(query), entry: nil, outcome: .built)
            }
        }
        return try cache.withLock { (c) throws(Diagnostic) -> CheckedOutPlan in
            if let cached = c.take(shape, literals, version: store.version, lasting: known != nil, keeping: keeping) {
                let entry = keeping ? nil : cached
                do throws(Diagnostic) {
                    let sameVariables = cached.variables == variables
                    if !sameVariables {
                        try c.planner.validate(query, variables: variables)
                        cached.variables = variables
                    }
                    if PlanShape.sameLiterals(cached.literals, literals) {
                        c.counts.reused += 1
                        return CheckedOutPlan(plan: cached.plan, entry: entry, outcome: .reused)
                    }
                    if let bound = cached.plan.parameters.bind(literals) {
                        c.counts.bound += 1
                        return CheckedOutPlan(plan: cached.plan, entry: entry, outcome: .rebound, literals: bound)
                    }
                    if sameVariables { try c.checkLiterals(query) }
                    cached.plan = try c.rebind(cached.plan, to: query, literals)
                } catch {
                    if !keeping { c.put(cached) }
                    throw error
                }
                cached.literals = literals
                c.counts.rebound += 1
                return CheckedOutPlan(plan: cached.plan, entry: entry, outcome: .rebound)
            }
            try c.planner.validate(query, variables: variables)
            let entry = CachedPlan(
                shape: shape, plan: try c.build(query, literals: literals), literals: literals, variables: variables)
            c.counts.built += 1
            if keeping { c.put(entry) }
            return CheckedOutPlan(plan: entry.plan, entry: keeping ? nil : entry, outcome: .built)
        }
    }

    /// Puts a plan back for the next reader of its shape.
    func giveBack(_ checkout: CheckedOutPlan) {
        guard let entry = checkout.entry, entry.plan.storeVersion == store.version else { return }
        cache.withLock { $0.put(entry) }
    }

    /// A plan made again with the errors of the inner queries that failed (not cached).
    func replan(_ query: Query, failedInner: [Query: Diagnostic]) -> CheckedOutPlan? {
        cache.withLock { c in
            c.planner.plan(query, failedInner: failedInner).map {
                CheckedOutPlan(plan: $0, entry: nil, outcome: .built)
            }
        }
    }

    /// Drops every cached plan and what planning memoizes.
    func forgetPlans() {
        cache.withLock { c in
            c.reset()
            c.planner.memo.forget()
        }
    }

    var planCounts: PlanCounts { cache.withLock { $0.counts } }

    // MARK: - Running

    /// Inner queries first (their errors kept for the leaves that reach them), then the plan.
    func execute(
        _ query: Query, _ run: RunState, skip: Int, limit: Int?, known: KnownShape? = nil, ids: Bool = false
    ) throws(Diagnostic) -> Runner.Output {
        let checkout = try checkOut(query, variables: Set(run.variables.keys), known: known)
        // An analyzed run keeps its plans: EXPLAIN reads their counters afterwards.
        defer { if !run.timing { giveBack(checkout) } }
        var plan = checkout.plan
        var literals = checkout.literals
        if let observer = observation.observer { report(plan, query, checkout.outcome, to: observer) }
        var failed: [Query: Diagnostic] = [:]
        for inner in plan.innerQueries {
            materialize(inner, run)
            if case .failed(let error)? = run.inner[inner] { failed[inner] = error }
        }
        if !failed.isEmpty, let replanned = replan(query, failedInner: failed) {
            plan = replanned.plan
            literals = nil
        }
        // EXPLAIN ANALYZE shows a plan with the query's own literals.
        if run.timing, literals != nil, let own = replan(query, failedInner: failed) {
            plan = own.plan
            literals = nil
        }
        guard let table = store.table(query.className) else { throw QueryValidator.unknownClass(query.className) }
        let ctx = ExecContext(run: run, table: table, literals: literals)
        guard run.timing else {
            return try Runner.execute(
                plan, ctx, order: query.order, skip: skip, limit: limit, ids: ids ? table.objectIds : nil)
        }
        plan.filter.resetCounters()
        plan.source.rowsOut = 0
        let stats = ExecutionStats(plan: plan)
        run.executions[query] = stats
        let start = ContinuousClock.now
        let output = try Runner.execute(plan, ctx, order: query.order, skip: skip, limit: limit, stats: stats)
        stats.total = ContinuousClock.now - start
        return output
    }

    /// Runs an inner query as the reference does (its order, skip and inner limit; too many
    /// rows is `limit.inner-rows`) and records the rows or the error.
    private func materialize(_ query: Query, _ run: RunState) {
        guard run.inner[query] == nil else { return }
        var rowsQuery = query
        rowsQuery.count = false
        do throws(Diagnostic) {
            guard
                case .rows(let rows, _) = try execute(
                    rowsQuery, run, skip: query.skip ?? 0, limit: InnerQueries.limit(query))
            else { return }
            guard rows.count <= limits.maxInnerRows else {
                throw Diagnostic(
                    .limit.innerRows,
                    "the inner query on \(query.className) yields \(rows.count) rows, more than the "
                        + "limit of \(limits.maxInnerRows); give it a limit or a narrower condition")
            }
            guard let table = store.table(query.className) else { throw QueryValidator.unknownClass(query.className) }
            run.setInner(query, .rows(rows, .rows(table, rows)))
        } catch {
            run.setInner(query, .failed(error))
        }
    }
}

/// One change the writer applies to each replica in turn.
enum Change: Sendable {
    case save(Record, in: String)
    case delete(objectId: String, from: String)
    case createIndex(IndexKind, FieldPath, in: String)
    case dropIndex(IndexKind, FieldPath, in: String)
    case refreshStatistics(String)

    /// Saves and deletes, which change objects (and so what an index holds).
    var changesObjects: Bool {
        switch self {
        case .save, .delete: return true
        case .createIndex, .dropIndex, .refreshStatistics: return false
        }
    }
}

/// A query's includes and projection, applied to each record as it is built.
struct ResultShaping {
    let query: Query
    let evaluation: Evaluation
}

/// Plans built for a shape not in the cache, reused as they were, rebuilt for new literals,
/// and run with new literals as their parameters.
struct PlanCounts: Equatable, Sendable {
    var built = 0
    var reused = 0
    var rebound = 0
    var bound = 0

    static func + (a: Self, b: Self) -> Self {
        PlanCounts(
            built: a.built + b.built, reused: a.reused + b.reused, rebound: a.rebound + b.rebound,
            bound: a.bound + b.bound)
    }
}
