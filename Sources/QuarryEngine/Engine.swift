import QuarryCore

/// The query engine: a typed column store built from a `Database` (the columns are the
/// engine's only copy of the data; it keeps no reference to the database), secondary indexes,
/// a planner and compiled execution. It returns exactly what `ReferenceEvaluator` returns (the
/// same objects in the same order, the same errors) and is the path embedders should use.
///
/// An engine is safe to share between tasks (docs/ARCHITECTURE.md#concurrency): any number of
/// queries run at once, each on the version of the data published when it started, while
/// changes (`insert`, `delete`, `apply`, index changes) are made one at a time and published
/// whole. Use `read` to run several queries on one version. Every change invalidates the
/// cached plans.
public final class Engine: Sendable {
    public let limits: Limits
    /// Threads a full scan may use (docs/ARCHITECTURE.md#parallel-scans).
    public let parallelism: ScanParallelism
    let replicas: ReplicaPair
    let observation: ObserverSlot
    /// The front door's templates of SQL texts (docs/ARCHITECTURE.md#text-templates).
    package let textTemplates = TextTemplates()

    /// - Parameters:
    ///   - now: the clock in epoch milliseconds, read once per query.
    ///   - random: numbers in `0..<1` for `random()`.
    ///   - parallelism: threads a full scan may use (one per processor unless told).
    public convenience init(
        database: Database, limits: Limits = .default,
        now: @escaping @Sendable () -> Int64 = ReferenceEvaluator.systemClock,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        parallelism: ScanParallelism = .automatic
    ) {
        self.init(
            store: ColumnStore(database: database), schema: InferredSchema(database), limits: limits, now: now,
            random: random, parallelism: parallelism)
    }

    /// Over columns already built (`Engine.load`, docs/STORAGE.md#direct-loading): the store
    /// becomes the first replica as it is; the second is made from it at the first change.
    init(
        store: ColumnStore, schema: InferredSchema, limits: Limits, now: @escaping @Sendable () -> Int64,
        random: @escaping @Sendable () -> Double, parallelism: ScanParallelism
    ) {
        self.limits = limits
        self.parallelism = parallelism
        let observation = ObserverSlot()
        self.observation = observation
        replicas = ReplicaPair(
            Replica(
                store: store, schema: schema, limits: limits, now: now, random: random, parallelism: parallelism,
                observation: observation))
    }

    /// The data as the engine holds it now, as a `Database` of records built from the
    /// columns: a copy, as costly as the data is large (for checks and export, not queries).
    public var database: Database { replicas.read { $0.store.snapshot() } }

    /// The object with this objectId, built from the columns; nil when the class has none.
    public func object(_ objectId: String, in className: String) -> Record? {
        replicas.read { r in
            guard let table = r.store.table(className), let row = table.row(of: objectId) else { return nil }
            return table.record(row)
        }
    }

    /// The classes, fields and field types of the objects inserted so far, as published with
    /// the data: pass it as `CompileOptions.schema` (the engine's `find`, `count` and `explain`
    /// do) so that a field an `insert` added is known to the front-ends (docs/API.md#schema).
    public var schema: InferredSchema { replicas.read { $0.schema } }

    /// `schema.generation`, without copying the schema.
    package var schemaGeneration: Int { replicas.read { $0.schema.generation } }

    /// Heap bytes the columns of a class hold, field by field in first-seen order (`objectId`
    /// includes the objectId → row lookup; indexes are not included); nil when there is no
    /// such class.
    public func columnBytes(of className: String) -> [(field: String, bytes: Int)]? {
        replicas.read { $0.store.table(className)?.bytesByField.map { (field: $0.0, bytes: $0.1) } }
    }

    /// The storage the planner consults (classes, indexes, statistics), answering from the
    /// data published when each question is asked.
    public var storage: any Storage { PublishedStorage(replicas: replicas) }

    /// Recomputes a class's statistics exactly (bounds and distinct counts only widen as data
    /// changes; after many deletes or replacements this sharpens the planner's estimates).
    public func refreshStatistics(of className: String) {
        _ = replicas.write([.refreshStatistics(className)])
    }

    // MARK: - Changes

    /// Adds an object to a class (creating the class if needed), or replaces the object with
    /// the same objectId in place.
    public func insert(_ record: Record, into className: String) {
        _ = replicas.write([.save(record, in: className)])
    }

    /// Removes an object; returns whether it was there.
    @discardableResult
    public func delete(_ objectId: String, from className: String) -> Bool {
        replicas.write([.delete(objectId: objectId, from: className)])[0]
    }

    /// Applies changes in order as one: a query sees all of them or none.
    public func apply(_ changes: [StoreChange]) {
        _ = replicas.write(Self.replicaChanges(changes))
    }

    /// `apply`, except that a batch adding fields to a class that would then be sparser than
    /// `Limits.maxSparseCells` allows is refused whole with `limit.sparse-class`
    /// (docs/STORAGE.md#sparse-fields): what writes from untrusted clients go through.
    public func applyWithinLimits(_ changes: [StoreChange]) throws(Diagnostic) {
        _ = try replicas.write(Self.replicaChanges(changes)) { (r) throws(Diagnostic) in
            try SparseLimit.check(changes, against: r.store, limit: limits.maxSparseCells)
        }
    }

    private static func replicaChanges(_ changes: [StoreChange]) -> [Change] {
        changes.map { change in
            switch change {
            case .save(let record, let className): return .save(record, in: className)
            case .delete(let objectId, let className): return .delete(objectId: objectId, from: className)
            }
        }
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
        try createIndexes([(kind, key)], in: className)
    }

    /// Declares several indexes on a class in one change and builds them side by side, one
    /// per thread up to the engine's parallelism: the same indexes `createIndex` declares for
    /// each in turn, sooner. Refused whole, with the first key's error, when a key is refused.
    public func createIndexes(_ indexes: [(kind: IndexKind, key: FieldPath)], in className: String) throws(Diagnostic) {
        _ = try replicas.write(indexes.map { .createIndex($0.kind, $0.key, in: className) }) {
            (r) throws(Diagnostic) in
            for index in indexes { try Self.checkIndex(index.key, in: className, r.store, r.schema) }
        }
    }

    /// Why `createIndex` would refuse a key; nil when it would not.
    package func indexProblem(_ key: FieldPath, in className: String) -> Diagnostic? {
        replicas.read { r in
            do throws(Diagnostic) {
                try Self.checkIndex(key, in: className, r.store, r.schema)
                return nil
            } catch {
                return error
            }
        }
    }

    private static func checkIndex(
        _ key: FieldPath, in className: String, _ store: ColumnStore, _ schema: InferredSchema
    ) throws(Diagnostic) {
        guard store.table(className) != nil else {
            throw Diagnostic(.index.unknownClass, "there is no class named '\(className)' to index")
        }
        guard !key.components.isEmpty, !key.components.contains(where: \.isEmpty) else {
            throw Diagnostic(.index.invalidKey, "'\(key)' is not a key path to index")
        }
        guard schema.resolveField(key.components[0], in: className) == key.components[0] else {
            throw Self.unknownField(key, in: className, schema: schema)
        }
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
        replicas.write([.dropIndex(kind, key, in: className)])[0]
    }

    // MARK: - Queries

    /// Runs a query on the data published when it starts: the same result as
    /// `ReferenceEvaluator.run`, every record built.
    public func run(_ query: Query, variables: [String: Value] = [:]) throws(Diagnostic) -> QueryResult {
        try replicas.read { (r) throws(Diagnostic) in try r.run(query, variables: variables) }
    }

    /// `run` of a query whose plan shape the caller has (a prepared query's, a text template's).
    package func run(_ query: Query, variables: [String: Value], known: KnownShape?) throws(Diagnostic) -> QueryResult {
        try replicas.read { (r) throws(Diagnostic) in try r.run(query, variables: variables, known: known) }
    }

    /// Runs a query and returns the objectIds of its rows without building their records (or
    /// the count of a count query): the same objects, in the same order, as `run`.
    public func runLazily(_ query: Query, variables: [String: Value] = [:]) throws(Diagnostic) -> LazyQueryResult {
        try replicas.read { (r) throws(Diagnostic) in try r.objectIds(query, variables: variables) }
    }

    /// `runLazily` with another number of threads for its scans than the engine's.
    @_spi(Benchmarking) public func runLazily(
        _ query: Query, variables: [String: Value] = [:], parallelism: ScanParallelism
    ) throws(Diagnostic) -> LazyQueryResult {
        try replicas.read { (r) throws(Diagnostic) in
            try r.objectIds(query, variables: variables, parallelism: parallelism)
        }
    }

    /// Runs `body` on one version of the data: every query it runs on the snapshot sees the
    /// same objects, whatever is written meanwhile. The snapshot cannot leave `body`. Writing
    /// to the engine inside `body` waits for `body` to end: do not.
    public func read<R, E: Error>(_ body: (borrowing Snapshot) throws(E) -> R) throws(E) -> R {
        try replicas.read { (r) throws(E) in try body(Snapshot(Unmanaged.passUnretained(r))) }
    }

    /// Drops every cached plan and what planning memoizes, so that the next planning of any
    /// query is a first one (`quarry bench` times first planning this way).
    @_spi(Benchmarking) public func forgetPlans() {
        for replica in replicas.replicas { replica.forgetPlans() }
        textTemplates.removeAll()
    }

    /// How plans were had, over every replica: for tests, which check that the cache is used
    /// where it should be.
    var planCounts: PlanCounts { replicas.replicas.reduce(PlanCounts()) { $0 + $1.planCounts } }

    /// Plans lent as cached for the same literals (`reused`), and plans made, rebound or bound
    /// to new literals (`planned`), so far: `quarry bench` tells a shape's new literals apart
    /// from texts whose own plans are cached.
    @_spi(Benchmarking) public var planOutcomes: (reused: Int, planned: Int) {
        let c = planCounts
        return (c.reused, c.built + c.rebound + c.bound)
    }

    typealias PlanCounts = QuarryEngine.PlanCounts
}

extension Engine {
    /// One version of the engine's data, inside `Engine.read`.
    public struct Snapshot: ~Copyable {
        /// Unretained: the replica outlives the `read` the snapshot cannot leave. (A stored class
        /// reference made Swift 6.3's optimizer crash inlining `read` in release builds.)
        private let unmanaged: Unmanaged<Replica>
        var replica: Replica { unmanaged.takeUnretainedValue() }

        init(_ replica: Unmanaged<Replica>) { unmanaged = replica }

        /// The schema of this version's objects (as `Engine.schema`).
        public var schema: InferredSchema { replica.schema }

        /// Runs a query on this version (as `Engine.run`).
        public func run(_ query: Query, variables: [String: Value] = [:]) throws(Diagnostic) -> QueryResult {
            try replica.run(query, variables: variables)
        }
    }
}

extension Engine {
    /// The published replica's store, for tests that look inside it from one thread.
    var store: ColumnStore { replicas.read { $0.store } }

    /// The plan the published replica has for a query (checked and left in the cache), for
    /// tests that look at plans from one thread.
    /// With the literals the plan reads from the execution (nil: its own).
    func plan(_ query: Query, variables: Set<String> = []) throws(Diagnostic) -> (plan: Plan, literals: [Value]?) {
        try replicas.read { (r) throws(Diagnostic) in
            let checkout = try r.checkOut(query, variables: variables, keeping: true)
            return (checkout.plan, checkout.literals)
        }
    }
}
