import CSQLite
import Dispatch
import Foundation
import GRDB
import Quarry
import QuarryCore
import QuarryStoreSupport

/// Quarry's persistent embedded store: one SQLite file in WAL mode (docs/STORAGE.md). Each
/// class is a table keyed by objectId (`seq`, its rowid, keeps insertion order) holding the
/// object as a lossless document and typed columns the translator compiles queries against;
/// queries are pushed down leaf by leaf with Quarry's semantics, and whatever SQLite cannot
/// answer exactly is evaluated by Quarry on the rows it returns. Many readers run at once,
/// each on its own snapshot and read-only connection (`ReaderPool`); one writer at a time
/// (GRDB's `DatabasePool`). Every commit is synced (`synchronous = FULL`), so an acknowledged
/// write survives a crash.
public final class SQLiteStore: QueryBackend, Sendable {
    public let path: String
    /// The writer (GRDB's pool opens no reader: reads go to `readers`).
    let pool: DatabasePool
    let readers: ReaderPool
    /// Queries whose reads outgrew `inlineTime` on the calling task.
    let longReads = LongReads()
    /// How long an async read may run on the calling task before it moves to a thread of its
    /// own (docs/STORAGE.md#reads-on-the-calling-task).
    let inlineTime: Duration
    let limits: Limits
    let now: @Sendable () -> Int64
    let random: @Sendable () -> Double
    let statements = StatementCache()
    let catalogs = CatalogCache<StoreCatalog.Read>()
    /// Threads that decode a large answer's documents (docs/STORAGE.md#reading-rows).
    let decodeThreads: Int

    /// Opens the store at `path`, creating the file when it does not exist.
    /// - Parameter parallelism: how many threads decode the documents of a large answer.
    public convenience init(
        path: String, limits: Limits = .default,
        now: @escaping @Sendable () -> Int64 = ReferenceEvaluator.systemClock,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        parallelism: ScanParallelism = .automatic
    ) throws(Diagnostic) {
        try self.init(
            path: path, limits: limits, now: now, random: random, parallelism: parallelism,
            inlineTime: .microseconds(250))
    }

    /// The same with the time an async read may take on the calling task (tests).
    init(
        path: String, limits: Limits, now: @escaping @Sendable () -> Int64, random: @escaping @Sendable () -> Double,
        parallelism: ScanParallelism, inlineTime: Duration
    ) throws(Diagnostic) {
        self.path = path
        self.inlineTime = inlineTime
        self.limits = limits
        decodeThreads = parallelism.threads
        self.now = now
        self.random = random
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            guard let handle = db.sqliteConnection else { return }
            try SQLiteFunctions.register(on: handle, limits: limits)
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        let statements = statements
        readers = ReaderPool(
            path: path, setUp: { handle in try SQLiteFunctions.register(on: handle, limits: limits) },
            dropped: { statements.forget($0) })
        pool = try storeCall { try DatabasePool(path: path, configuration: configuration) }
        try storeCall { try pool.write { db in for s in StoreCatalog.schema { try db.execute(sql: s) } } }
    }

    // Cached statements belong to the connections: finalized before they close, the readers
    // before GRDB's writer, which as the last connection checkpoints the WAL.
    deinit {
        statements.removeAll()
        readers.closeAll()
    }

    public var backendName: String { "sqlite" }

    // MARK: - Synchronous surface (the CLI)

    /// The query's answer, the same as `ReferenceEvaluator.run` on the stored objects.
    public func query(_ query: Query, variables: [String: Value] = [:]) throws(Diagnostic) -> QueryResult {
        try storeCall {
            try reading(StoreDeadline(limits).map { ReadProgress(deadline: $0) }) { db in
                try self.answer(query, variables, db)
            }
        }
    }

    public func explanation(_ query: Query, variables: [String: Value] = [:]) throws(Diagnostic) -> BackendExplanation {
        try storeCall { try reading { db in try self.explain(query, variables, db) } }
    }

    public func apply(_ changes: [StoreChange]) throws(Diagnostic) {
        try storeCall { try pool.write { db in try self.apply(changes, db) } }
    }

    public func declareIndex(_ kind: IndexKind, on key: FieldPath, in className: String) throws(Diagnostic) {
        try storeCall { try pool.write { db in try self.declareIndex(kind, key, className, db) } }
    }

    /// The classes and field types, for compiling queries against the store.
    public func schema() throws(Diagnostic) -> StoreSchema {
        try storeCall { try reading { db in try StoreCatalog.read(db, statements, catalogs).catalog.schema } }
    }

    public func classes() throws(Diagnostic) -> [ClassCatalog] {
        try storeCall { try reading { db in try self.classes(db) } }
    }

    /// Runs `body` with a writer that saves objects, in one transaction: on any error nothing
    /// it saved is kept (`quarry import`).
    public func transaction(_ body: (StoreTransaction) throws -> Void) throws(Diagnostic) {
        try storeCall {
            try pool.writeWithoutTransaction { db in
                // A large transaction's pages stay in memory, up to its commit, instead of
                // spilling into the WAL and being read back (docs/STORAGE.md#writes); what is
                // synced, and when, is unchanged.
                try db.execute(sql: "PRAGMA cache_size = \(Self.importCacheKiB)")
                defer { try? db.execute(sql: "PRAGMA cache_size = \(Self.defaultCacheKiB)") }
                try db.inTransaction(.immediate) {
                    try body(
                        StoreTransaction(store: self, writer: StoreWriter(catalog: try StoreCatalog.load(db), db: db)))
                    return .commit
                }
            }
        }
    }

    /// The writer's page cache during `transaction` (64 MiB, in SQLite's negative-KiB form),
    /// and SQLite's default, restored after it.
    static let importCacheKiB = -65_536
    static let defaultCacheKiB = -2_000

    // MARK: - QueryBackend

    public func catalog() async throws(Diagnostic) -> [ClassCatalog] {
        try await read { db in try self.classes(db) }
    }

    public func hasClass(_ className: String) async throws(Diagnostic) -> Bool {
        try await read { db in
            try StoreCatalog.read(db, self.statements, self.catalogs).catalog.classes[className] != nil
        }
    }

    public func run(_ query: Query, variables: [String: Value]) async throws(Diagnostic) -> QueryResult {
        var key = Hasher()
        key.combine(query)
        key.combine(variables)
        return try await read(key: key.finalize(), deadline: StoreDeadline(limits)) { db in
            try self.answer(query, variables, db)
        }
    }

    public func explain(_ query: Query, variables: [String: Value]) async throws(Diagnostic) -> BackendExplanation {
        try await read { db in try self.explain(query, variables, db) }
    }

    public func write(_ changes: [StoreChange]) async throws(Diagnostic) {
        try await asyncCall { try await self.pool.write { db in try self.apply(changes, db) } }
    }

    public func createIndex(_ kind: IndexKind, on key: FieldPath, in className: String) async throws(Diagnostic) {
        try await asyncCall { try await self.pool.write { db in try self.declareIndex(kind, key, className, db) } }
    }

    /// A read on one of the store's reader connections, awaited
    /// (docs/STORAGE.md#reads-on-the-calling-task). It runs on the calling task while it takes
    /// under `inlineTime`, meets no lock and finds a reader free; otherwise it runs again from
    /// the start on a Dispatch thread, two thread hops that cost more than a short query. A
    /// query (`key`) that outgrew the calling task goes straight to the thread next time. A task
    /// cancelled before the read starts, or while it runs, fails with `query.cancelled`; a
    /// running statement is stopped by `sqlite3_interrupt` on its own connection.
    func read<T>(
        key: Int? = nil, deadline: StoreDeadline? = nil, _ body: @escaping (ReaderConnection) throws -> T
    ) async throws(Diagnostic) -> T {
        nonisolated(unsafe) let body = body
        let interrupt = ReadInterrupt()
        let result: Result<Unchecked<T>, Diagnostic> = await withTaskCancellationHandler {
            if key.map({ !longReads.contains($0) }) ?? true,
                let answer = readHere(body, key: key, deadline: deadline, interrupt: interrupt)
            {
                return answer
            }
            return await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    let start = ContinuousClock.now
                    let answer = self.attempt(body, ReadProgress(deadline: deadline), interrupt)!
                    if let key, ContinuousClock.now - start < self.inlineTime / 2 { self.longReads.remove(key) }
                    continuation.resume(returning: answer)
                }
            }
        } onCancel: {
            interrupt.cancel()
        }
        return try result.get().value
    }

    /// The read on the calling task; nil when it must run on a thread of its own: no reader
    /// was free, it met a lock, or it ran past `inlineTime` (whatever it read is dropped, and
    /// its query is marked in `longReads`).
    private func readHere<T>(
        _ body: (ReaderConnection) throws -> T, key: Int?, deadline: StoreDeadline?, interrupt: ReadInterrupt
    ) -> Result<Unchecked<T>, Diagnostic>? {
        let progress = ReadProgress(deadline: deadline, inlineUntil: ContinuousClock.now + inlineTime)
        guard let answer = attempt(body, progress, interrupt, waiting: false) else { return nil }
        if interrupt.cancelled || !progress.mustMove { return answer }
        if progress.outgrewInline, let key { longReads.insert(key) }
        return nil
    }

    /// `body` in a read transaction held to `progress`, with its task's cancellation; nil
    /// when it must not wait for a reader and none is free.
    private func attempt<T>(
        _ body: (ReaderConnection) throws -> T, _ progress: ReadProgress, _ interrupt: ReadInterrupt,
        waiting: Bool = true
    ) -> Result<Unchecked<T>, Diagnostic>? {
        do throws(Diagnostic) {
            let answer = try storeCall {
                let run = { (db: ReaderConnection) in
                    Unchecked(try interrupt.running(on: db.sqliteConnection) { try body(db) })
                }
                return waiting ? try reading(progress, run) : try readingIfFree(progress, run)
            }
            return answer.map { .success($0) }
        } catch {
            return .failure(interrupt.cancelled ? Diagnostic(.query.cancelled, "the query was cancelled") : error)
        }
    }

    /// `body` in a read transaction on one of the store's reader connections, begun and ended
    /// by the store's cached statements and held to `progress` (docs/STORAGE.md#fixed-cost-per-query).
    /// A read that fails is rolled back when its connection goes back to the pool
    /// (`ReaderPool`): it has nothing to keep, and the connection's next read must start afresh.
    func reading<T>(_ progress: ReadProgress? = nil, _ body: (ReaderConnection) throws -> T) throws -> T {
        try readers.read { db in try transaction(db, progress, body) }
    }

    /// The same when a reader is free; nil when none is.
    func readingIfFree<T>(_ progress: ReadProgress, _ body: (ReaderConnection) throws -> T) throws -> T? {
        try readers.readIfFree { db in try transaction(db, progress, body) }
    }

    private func transaction<T>(
        _ db: ReaderConnection, _ progress: ReadProgress?, _ body: (ReaderConnection) throws -> T
    ) throws -> T {
        func run() throws -> T {
            try statements.each(db, "BEGIN DEFERRED TRANSACTION") { _ in }
            let result = try body(db)
            try statements.each(db, "COMMIT TRANSACTION") { _ in }
            return result
        }
        guard let progress else { return try run() }
        return try progress.watching(db.sqliteConnection, run)
    }

    private func asyncCall<T>(_ body: () async throws -> T) async throws(Diagnostic) -> T {
        do {
            return try await body()
        } catch {
            throw storeDiagnostic(error)
        }
    }

    // MARK: - Work inside a transaction

    /// The query's answer in the read transaction of `db` (its deadline is the read's).
    func answer(_ query: Query, _ variables: [String: Value], _ db: ReaderConnection) throws -> QueryResult {
        let catalog = try StoreCatalog.read(db, statements, catalogs)
        let snapshot = StoreSnapshot(db: db, catalog: catalog.catalog, statements: statements, threads: decodeThreads)
        let evaluator = PushdownEvaluator(
            objects: snapshot, limits: limits, variables: variables, now: now, random: random)
        try evaluator.validate(query)
        let plan = try pushdown(query, catalog, snapshot, evaluator)
        if plan.counts {
            var n = 0
            try statements.each(db, plan.sql, plan.bindings) { n = Int($0.int64(0)) }
            return .count(n)
        }
        // With nothing left to Quarry but the projection, only the fields it keeps are read.
        let fields = plan.residual.isEmpty && plan.ordered ? Self.projected(query) : nil
        let (candidates, marked) = try snapshot.records(
            plan.sql, plan.bindings, fields: fields, noted: plan.lenientConjunct != nil)
        return try evaluator.finish(
            query, candidates: candidates, residual: plan.residual,
            passed: plan.lenientConjunct.map { PassedConjunct(index: $0, exceptRows: marked) }, ordered: plan.ordered,
            paged: plan.paged)
    }

    /// The top-level fields a `keys` projection keeps (with its includes and the fields a
    /// projection always keeps); nil without `keys`: every field.
    static func projected(_ query: Query) -> Set<String>? {
        guard let keys = query.keys else { return nil }
        let named = (keys + query.includes).compactMap(\.components.first)
        return Set(named + ["createdAt", "updatedAt", "__type", "className"])
    }

    func explain(_ query: Query, _ variables: [String: Value], _ db: ReaderConnection) throws -> BackendExplanation {
        let catalog = try StoreCatalog.read(db, statements, catalogs)
        let snapshot = StoreSnapshot(db: db, catalog: catalog.catalog, statements: statements, threads: decodeThreads)
        let evaluator = PushdownEvaluator(
            objects: snapshot, limits: limits, variables: variables, now: now, random: random)
        try evaluator.validate(query)
        let plan = try pushdown(query, catalog, snapshot, evaluator)
        var rows: [String] = []
        try db.each("EXPLAIN QUERY PLAN " + plan.sql, plan.bindings) { row in
            rows.append((row.int64(1) == 0 ? "" : "  ") + row.string(3))
        }
        let residual = zip(plan.residual, plan.residualReasons).map {
            BackendExplanation.ResidualPart(predicate: PushdownEvaluator.render($0), reason: $1)
        }
        return BackendExplanation(
            backend: backendName, statement: plan.sql, parameterCount: plan.bindings.count,
            residual: residual, orderPushed: plan.ordered, pagePushed: plan.paged, plan: rows)
    }

    private func pushdown(
        _ query: Query, _ catalog: StoreCatalog.Read, _ snapshot: StoreSnapshot,
        _ evaluator: PushdownEvaluator
    ) throws(Diagnostic) -> StorePushdown {
        try StorePushdown(query, tables: catalog.tables, limits: limits) { part in
            evaluator.mayThrow(
                part, of: query.className, mayReachDate: { catalog.catalog.mayReachDate($0, in: $1) },
                objectCount: { try? snapshot.countBound(of: $0) })
        }
    }

    func apply(_ changes: [StoreChange], _ db: GRDB.Database) throws {
        var writer = StoreWriter(catalog: try StoreCatalog.load(db), db: db)
        for change in changes {
            switch change {
            case .save(let record, let className): try writer.save(record, in: className)
            case .delete(let objectId, let className): try writer.delete(objectId, from: className)
            }
        }
    }

    func declareIndex(_ kind: IndexKind, _ key: FieldPath, _ className: String, _ db: GRDB.Database) throws {
        var catalog = try StoreCatalog.load(db)
        guard catalog.classes[className] != nil else {
            throw Diagnostic(.index.unknownClass, "there is no class named '\(className)' to index")
        }
        guard !key.components.isEmpty, !key.components.contains(where: \.isEmpty) else {
            throw Diagnostic(.index.invalidKey, "'\(key)' is not a key path to index")
        }
        try catalog.addIndex(IndexDeclaration(kind: kind, key: key), to: className, db)
        // One B-tree on the field's column pair serves equality, ranges, order and the
        // latitude/longitude boxes of geo conditions; a path through a pointer or the
        // objectId (already unique) needs none.
        guard key.count == 1, key.first != "objectId" else { return }
        let field = try catalog.ensureField(key.first, in: className, db)
        guard field.hasColumns else {
            throw Diagnostic(
                .index.invalidKey,
                "'\(key)' of class '\(className)' cannot be indexed in a SQLite store: "
                    + StoreCatalog.documentOnlyReason)
        }
        let c = catalog.classes[className]!
        try db.run(
            "CREATE INDEX IF NOT EXISTS \(c.table)_f\(field.number) ON \(c.table) (f\(field.number), g\(field.number))")
        try db.run("ANALYZE \(c.table)")
    }

    func classes(_ db: ReaderConnection) throws -> [ClassCatalog] {
        let catalog = try StoreCatalog.read(db, statements, catalogs).catalog
        return try catalog.classNames.map { name in
            let c = catalog.classes[name]!
            var n = 0
            try statements.each(db, "SELECT count(*) FROM \(c.table)") { n = Int($0.int64(0)) }
            return ClassCatalog(name: name, objectCount: n, indexes: c.indexes)
        }
    }
}

/// Saves and index declarations inside `SQLiteStore.transaction`.
public final class StoreTransaction {
    let store: SQLiteStore
    var writer: StoreWriter

    init(store: SQLiteStore, writer: StoreWriter) {
        self.store = store
        self.writer = writer
    }

    public func save(_ record: QuarryCore.Record, in className: String) throws {
        try writer.save(record, in: className)
    }

    /// Declares an index; without a kind, a geo index for a field of geo points and an
    /// ordered one otherwise.
    public func declareIndex(_ kind: IndexKind?, on key: FieldPath, in className: String) throws {
        let type = key.count == 1 ? writer.catalog.classes[className]?.field(key.first)?.type : nil
        try store.declareIndex(kind ?? (type == .geoPoint ? .geo : .ordered), key, className, writer.db)
        writer.catalog = try StoreCatalog.load(writer.db)
    }
}

/// The connection a read runs on, for its task's cancellation handler, which may run on any
/// thread at any time: `sqlite3_interrupt` reaches the connection only while the read holds it.
private final class ReadInterrupt: @unchecked Sendable {
    private let lock = NSLock()
    private var connection: OpaquePointer?
    private var wasCancelled = false

    var cancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return wasCancelled
    }

    func cancel() {
        lock.lock()
        defer { lock.unlock() }
        wasCancelled = true
        if let connection { sqlite3_interrupt(connection) }
    }

    /// `body` with the connection registered, unless the task was cancelled already.
    func running<T>(on connection: OpaquePointer?, _ body: () throws -> T) throws -> T {
        lock.lock()
        if wasCancelled {
            lock.unlock()
            throw CancellationError()
        }
        self.connection = connection
        lock.unlock()
        defer {
            lock.lock()
            self.connection = nil
            lock.unlock()
        }
        return try body()
    }
}
