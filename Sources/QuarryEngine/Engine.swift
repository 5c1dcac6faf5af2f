import QuarryCore

/// The query engine: a typed column store built from a `Database` (the columns are the
/// engine's only copy of the data; it keeps no reference to the database), secondary indexes,
/// a planner and compiled execution. It returns exactly what `ReferenceEvaluator` returns (the
/// same objects in the same order, the same errors) and is the path embedders should use.
///
/// Keep the data current through `insert` and `delete`; every change invalidates the cached
/// plans. An engine is not safe to use from several threads at once.
public final class Engine {
    let store: ColumnStore
    public let limits: Limits
    let nowMillis: @Sendable () -> Int64
    let randomSource: @Sendable () -> Double
    /// The classes, fields and field types of the objects inserted so far: pass it as
    /// `CompileOptions.schema` (the engine's `find`, `count` and `explain` do) so that a field
    /// an `insert` added is known to the front-ends (docs/API.md#schema).
    public private(set) var schema: InferredSchema
    private var plans: [PlanShape: CachedPlan] = [:]
    /// How plans were had: for tests, which check that the cache is used where it should be.
    private(set) var planCounts = PlanCounts()
    let observation = ObserverSlot()
    private lazy var planner = Planner(store: store, limits: limits, folding: Normalizer.folding(limits))

    /// - Parameters:
    ///   - now: the clock in epoch milliseconds, read once per query.
    ///   - random: numbers in `0..<1` for `random()`.
    public convenience init(
        database: Database, limits: Limits = .default,
        now: @escaping @Sendable () -> Int64 = ReferenceEvaluator.systemClock,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.init(
            store: ColumnStore(database: database), schema: InferredSchema(database), limits: limits, now: now,
            random: random)
    }

    /// Over columns already built (`Engine.load`, docs/STORAGE.md#direct-loading).
    init(
        store: ColumnStore, schema: InferredSchema, limits: Limits, now: @escaping @Sendable () -> Int64,
        random: @escaping @Sendable () -> Double
    ) {
        self.store = store
        self.schema = schema
        self.limits = limits
        self.nowMillis = now
        self.randomSource = random
    }

    /// The data as the engine holds it now, as a `Database` of records built from the
    /// columns: a copy, as costly as the data is large (for checks and export, not queries).
    public var database: Database { store.snapshot() }

    /// The object with this objectId, built from the columns; nil when the class has none.
    public func object(_ objectId: String, in className: String) -> Record? {
        guard let table = store.table(className), let row = table.row(of: objectId) else { return nil }
        return table.record(row)
    }

    /// Heap bytes the columns of a class hold, field by field in first-seen order (`objectId`
    /// includes the objectId → row lookup; indexes are not included); nil when there is no
    /// such class.
    public func columnBytes(of className: String) -> [(field: String, bytes: Int)]? {
        store.table(className)?.bytesByField.map { (field: $0.0, bytes: $0.1) }
    }

    /// The storage the planner consults (classes, indexes, statistics).
    public var storage: any Storage { store }

    /// Recomputes a class's statistics exactly (bounds and distinct counts only widen as data
    /// changes; after many deletes or replacements this sharpens the planner's estimates).
    public func refreshStatistics(of className: String) {
        plans.removeAll()
        store.refreshStatistics(className)
    }

    // MARK: - Changes

    /// Adds an object to a class (creating the class if needed), or replaces the object with
    /// the same objectId in place.
    public func insert(_ record: Record, into className: String) {
        plans.removeAll()
        store.insert(record, into: className)
        schema.note(record, in: className)
    }

    /// Removes an object; returns whether it was there.
    @discardableResult
    public func delete(_ objectId: String, from className: String) -> Bool {
        plans.removeAll()
        return store.remove(objectId, from: className)
    }

    // MARK: - Indexes

    /// Declares a secondary index on a key path of a class and builds it (declaring an index
    /// that exists does nothing). Dot paths through pointers are allowed. Every index is
    /// updated in place as objects change: the changed object's row, and for paths through
    /// pointers (or pointer values) the rows that reached the changed object.
    ///
    /// The key's first field must be one some object of the class has had (or a system field):
    /// an index on a field no object has is almost always a misspelling, so it is rejected with
    /// `index.unknown-field` and a "did you mean" note (docs/API.md#indexes).
    public func createIndex(_ kind: IndexKind, on key: FieldPath, in className: String) throws(Diagnostic) {
        guard store.table(className) != nil else {
            throw Diagnostic(.index.unknownClass, "there is no class named '\(className)' to index")
        }
        guard !key.components.isEmpty, !key.components.contains(where: \.isEmpty) else {
            throw Diagnostic(.index.invalidKey, "'\(key)' is not a key path to index")
        }
        guard schema.resolveField(key.components[0], in: className) == key.components[0] else {
            throw Self.unknownField(key, in: className, schema: schema)
        }
        plans.removeAll()
        store.createIndex(kind, on: key, in: className)
    }

    private static func unknownField(_ key: FieldPath, in className: String, schema: InferredSchema) -> Diagnostic {
        let field = key.components[0]
        var message = "no object of \(className) has a field '\(field)' to index"
        if let stored = schema.resolveField(field, in: className) { message += "; did you mean '\(stored)'?" }
        let known = schema.fieldNames(in: className)
        return Diagnostic(
            .index.unknownField, message, notes: ["fields of \(className): \(known.joined(separator: ", "))"])
    }

    /// Removes an index; returns whether it existed.
    @discardableResult
    public func dropIndex(_ kind: IndexKind, on key: FieldPath, in className: String) -> Bool {
        plans.removeAll()
        return store.dropIndex(kind, on: key, in: className)
    }

    // MARK: - Queries

    /// Runs a query: the same result as `ReferenceEvaluator.run`, every record built.
    public func run(_ query: Query, variables: [String: Value] = [:]) throws(Diagnostic) -> QueryResult {
        switch try runLazily(query, variables: variables) {
        case .count(let n): return .count(n)
        case .rows(let rows): return .records(Array(rows))
        }
    }

    /// Runs a query and returns its rows without building their records: objectIds read
    /// straight from the store, records built (and shaped by includes and keys) as they are
    /// read. The same answer as `run`.
    public func runLazily(_ query: Query, variables: [String: Value] = [:]) throws(Diagnostic) -> LazyQueryResult {
        // The query is checked when it is planned (once per shape and set of variable names).
        let run = RunState(
            store: store, limits: limits, variables: variables, nowMillis: nowMillis(), random: randomSource,
            timing: false)
        guard let observer = observation.observer else { return try result(query, run) }
        return try observing(query, observer) { () throws(Diagnostic) in try result(query, run) }
    }

    func result(_ query: Query, _ run: RunState) throws(Diagnostic) -> LazyQueryResult {
        var limit = query.limit ?? query.profile.defaultLimit
        if let l = limit, let cap = query.profile.maxLimit, l > cap { limit = cap }
        switch try execute(query, run, skip: query.skip ?? 0, limit: limit) {
        case .count(let n):
            return .count(n)
        case .rows(let rows):
            guard let table = store.table(query.className) else { throw QueryValidator.unknownClass(query.className) }
            // Nothing to embed or project: the stored objects are the answer as they are.
            let shaping =
                query.includes.isEmpty && query.keys == nil && query.excludeKeys.isEmpty
                ? nil : ResultSet.Shaping(query: query, evaluation: run.evaluation)
            return .rows(ResultSet(store: store, table: table, rows: rows, shaping: shaping))
        }
    }

    /// The plan for a query, checked by `QueryValidator` with the caller's variable names and
    /// cached by shape until the data changes. The same query again reuses its plan; the same
    /// shape with other literals is checked and planned again from its literals (a regex
    /// literal must compile before any row is read; rewrites, node literals and index estimates
    /// all depend on them).
    func plan(_ query: Query, variables: Set<String> = []) throws(Diagnostic) -> Plan {
        guard let (shape, literals) = PlanShape.of(query) else {
            try validate(query, variables)
            return try build(query)
        }
        if let cached = plans[shape], cached.plan.storeVersion == store.version {
            let sameLiterals = PlanShape.sameLiterals(cached.literals, literals)
            if cached.variables != variables || !sameLiterals {
                try validate(query, variables)
                cached.variables = variables
            }
            if sameLiterals {
                planCounts.reused += 1
                return cached.plan
            }
            cached.plan = try build(query)
            cached.literals = literals
            planCounts.rebound += 1
            return cached.plan
        }
        try validate(query, variables)
        let p = try build(query)
        if plans.count >= Self.planCacheCapacity { plans.removeAll() }
        plans[shape] = CachedPlan(plan: p, literals: literals, variables: variables)
        planCounts.built += 1
        return p
    }

    /// Drops every cached plan and what planning memoizes, so that the next planning of any
    /// query is a first one (`quarry bench` times first planning this way).
    @_spi(Benchmarking) public func forgetPlans() {
        plans.removeAll(keepingCapacity: true)
        planner.memo.forget()
    }

    private func validate(_ query: Query, _ variables: Set<String>) throws(Diagnostic) {
        var validator = QueryValidator(source: store, limits: limits, variables: variables)
        try validator.check(query)
    }

    private func build(_ query: Query) throws(Diagnostic) -> Plan {
        guard let p = planner.plan(query, failedInner: [:]) else { throw QueryValidator.unknownClass(query.className) }
        return p
    }

    private static let planCacheCapacity = 256

    /// The plan last built for a shape, with the literals and variable names it was built for.
    private final class CachedPlan {
        var plan: Plan
        var literals: [Value]
        var variables: Set<String>
        init(plan: Plan, literals: [Value], variables: Set<String>) {
            self.plan = plan
            self.literals = literals
            self.variables = variables
        }
    }

    /// Plans built for a shape not in the cache, reused as they were, and rebuilt for new literals.
    struct PlanCounts: Equatable {
        var built = 0
        var reused = 0
        var rebound = 0
    }

    /// Inner queries first (their errors kept for the leaves that reach them), then the plan.
    func execute(_ query: Query, _ run: RunState, skip: Int, limit: Int?) throws(Diagnostic) -> Runner.Output {
        let counts = planCounts
        var plan = try plan(query, variables: Set(run.variables.keys))
        if let observer = observation.observer { report(plan, countsBefore: counts, to: observer) }
        var failed: [Query: Diagnostic] = [:]
        for inner in plan.innerQueries {
            materialize(inner, run)
            if case .failed(let error)? = run.inner[inner] { failed[inner] = error }
        }
        if !failed.isEmpty, let replanned = planner.plan(query, failedInner: failed) {
            plan = replanned
        }
        guard let table = store.table(query.className) else { throw QueryValidator.unknownClass(query.className) }
        let ctx = ExecContext(run: run, table: table)
        guard run.timing else { return try Runner.execute(plan, ctx, skip: skip, limit: limit) }
        plan.filter.resetCounters()
        plan.source.rowsOut = 0
        let stats = ExecutionStats(plan: plan)
        run.executions[query] = stats
        let start = ContinuousClock.now
        let output = try Runner.execute(plan, ctx, skip: skip, limit: limit, stats: stats)
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
                case .rows(let rows) = try execute(
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
