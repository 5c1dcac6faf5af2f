import Dispatch
import Foundation
import Logging
import NIOCore
import PostgresNIO
import Quarry
import QuarryStoreSupport

/// Quarry's server-backed store: one PostgreSQL database (docs/STORAGE.md#postgresql). Each
/// class is a table keyed by objectId (`seq` keeps insertion order) holding the object as a
/// `jsonb` document the queries read and a lossless text the answers are decoded from;
/// queries are pushed down leaf by leaf with Quarry's semantics, and whatever PostgreSQL cannot
/// answer exactly is evaluated by Quarry on the rows it returns. Connections come from
/// PostgresNIO's `PostgresClient` pool; every read is one snapshot for the catalog, the rows
/// and the pointers Quarry follows (one statement, or one REPEATABLE READ transaction), and
/// writers take one advisory lock, so the catalog's kinds change one writer at a time.
public final class PostgresStore: QueryBackend, Sendable {
    /// The URL without its password, for messages.
    public let location: String
    let client: PostgresClient
    private let running: Task<Void, Never>
    let limits: Limits
    let now: @Sendable () -> Int64
    let random: @Sendable () -> Double
    let logger = Logger(label: "quarry.postgres")
    let catalogs = CatalogCache<PostgresCatalog>()
    /// What a cancel request connects with.
    private let cancelConfiguration: PostgresConnection.Configuration
    /// The server process behind each of the pool's connections, for cancel requests.
    private let backends = BackendProcesses()
    /// Threads that decode a large answer's documents (docs/STORAGE.md#reading-rows).
    let decodeThreads: Int
    /// Each connection's prepared statements (docs/STORAGE.md#prepared-statements); nil when
    /// the URL turns them off.
    let statements: PreparedStatements?

    /// Connects to the database at `url` (`postgresql://user[:password]@host[:port]/database`,
    /// `?host=/socket/folder` for a Unix socket, `prepared_statements=off` for a pooler that does
    /// not keep them) and creates the catalog tables when the database has none.
    public static func open(
        url: String, limits: Limits = .default,
        now: @escaping @Sendable () -> Int64 = ReferenceEvaluator.systemClock,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        parallelism: ScanParallelism = .automatic
    ) async throws(Diagnostic) -> PostgresStore {
        let parsed = try PostgresURL(url)
        try await probe(parsed)
        let store = PostgresStore(parsed, limits: limits, now: now, random: random, decodeThreads: parallelism.threads)
        do throws(Diagnostic) {
            try await store.session(write: true) { s in
                for statement in PostgresCatalog.schema { try s.run(statement) }
            }
        } catch {
            store.close()
            throw error
        }
        return store
    }

    /// One connection attempt, so that a wrong address or refused login is reported at once
    /// with the server's reason, instead of after the pool's minute of retries.
    private static func probe(_ url: PostgresURL) async throws(Diagnostic) {
        do {
            let connection = try await PostgresConnection.connect(
                configuration: connectionConfiguration(url), id: 0, logger: Logger(label: "quarry.postgres.probe"))
            try await connection.close()
        } catch {
            let reason =
                (error as? PSQLError).map { e in
                    e.serverInfo?[.message] ?? e.underlying.map { "\($0)" } ?? "\(e.code)"
                } ?? "\(error)"
            throw Diagnostic(.store.postgres, "cannot connect to PostgreSQL at \(url.location): \(reason)")
        }
    }

    /// A single connection's configuration (outside the pool): the probe's, and a cancel
    /// request's.
    static func connectionConfiguration(_ url: PostgresURL) -> PostgresConnection.Configuration {
        url.socketPath.map {
            PostgresConnection.Configuration(
                unixSocketPath: $0, username: url.user, password: url.password, database: url.database)
        }
            ?? PostgresConnection.Configuration(
                host: url.host, port: url.port, username: url.user, password: url.password,
                database: url.database, tls: .disable)
    }

    private init(
        _ url: PostgresURL, limits: Limits, now: @escaping @Sendable () -> Int64,
        random: @escaping @Sendable () -> Double, decodeThreads: Int
    ) {
        location = url.location
        cancelConfiguration = Self.connectionConfiguration(url)
        var configuration: PostgresClient.Configuration
        if let socket = url.socketPath {
            configuration = .init(
                unixSocketPath: socket, username: url.user, password: url.password, database: url.database)
        } else {
            configuration = .init(
                host: url.host, port: url.port, username: url.user, password: url.password,
                database: url.database, tls: .disable)
        }
        configuration.options.maximumConnections = 8
        var background = Logger(label: "quarry.postgres")
        background.logLevel = .error
        let client = PostgresClient(configuration: configuration, backgroundLogger: background)
        self.client = client
        running = Task { await client.run() }
        self.limits = limits
        self.now = now
        self.random = random
        self.decodeThreads = decodeThreads
        statements = url.preparedStatements ? PreparedStatements() : nil
    }

    /// Ends the pool's connections.
    public func close() { running.cancel() }

    deinit { running.cancel() }

    public var backendName: String { "postgresql" }

    // MARK: - QueryBackend

    public func catalog() async throws(Diagnostic) -> [ClassCatalog] {
        try await session(write: false) { s in try self.classes(s) }
    }

    public func hasClass(_ className: String) async throws(Diagnostic) -> Bool {
        try await session(write: false) { s in try PostgresCatalog.read(s, self.catalogs).classes[className] != nil }
    }

    public func run(_ query: Query, variables: [String: Value]) async throws(Diagnostic) -> QueryResult {
        let deadline = StoreDeadline(limits)
        return try await session(write: false, deadline: deadline) { s in
            try self.answer(query, variables, s, deadline: deadline)
        }
    }

    public func explain(_ query: Query, variables: [String: Value]) async throws(Diagnostic) -> BackendExplanation {
        try await session(write: false) { s in try self.explain(query, variables, s) }
    }

    public func write(_ changes: [StoreChange]) async throws(Diagnostic) {
        try await session(write: true) { s in
            var writer = PostgresWriter(catalog: try PostgresCatalog.load(s), session: s)
            for change in changes {
                switch change {
                case .save(let record, let className): try writer.save(record, in: className)
                case .delete(let objectId, let className): try writer.delete(objectId, from: className)
                }
            }
        }
    }

    public func createIndex(_ kind: IndexKind, on key: FieldPath, in className: String) async throws(Diagnostic) {
        try await session(write: true) { s in try self.declareIndex(kind, key, className, s) }
    }

    /// The classes and field types, for compiling queries against the store.
    public func schema() async throws(Diagnostic) -> StoreSchema {
        try await session(write: false) { s in try PostgresCatalog.read(s, self.catalogs).schema }
    }

    /// Runs `body` with a writer that saves objects, in one transaction: on any error nothing
    /// it saved is kept (`quarry import`).
    public func transaction(_ body: @escaping (PostgresTransaction) throws -> Void) async throws(Diagnostic) {
        nonisolated(unsafe) let body = body
        try await session(write: true) { s in
            let t = PostgresTransaction(
                store: self, writer: PostgresWriter(catalog: try PostgresCatalog.load(s), session: s))
            do {
                try body(t)
                try t.flush()
            } catch {
                throw t.earlierFailure ?? error
            }
        }
    }

    /// One leased connection and one transaction around `body`: for reads, REPEATABLE READ READ
    /// ONLY, begun by their first statement (none for a query answered alone); for writes, the
    /// store's advisory lock first. With a `deadline`, a budget spent already fails at once, and
    /// a statement the server cancelled (a read transaction's statement timeout, which `answer`
    /// sets, or the cancel request sent when the deadline passes) fails with `limit.deadline`
    /// (docs/STORAGE.md#deadlines). A read whose task is cancelled has its running statement
    /// cancelled by the server and fails with `query.cancelled`
    /// (docs/STORAGE.md#postgresql-connections).
    func session<T>(write: Bool, deadline: StoreDeadline? = nil, _ body: @escaping (PostgresSession) throws -> T)
        async throws(Diagnostic) -> T
    {
        nonisolated(unsafe) let body = body
        let logger = logger
        if let deadline, deadline.passed { throw deadline.diagnostic }
        let cancel = write ? nil : ReadCancel(backends: backends, configuration: cancelConfiguration)
        let expiry = deadline.flatMap { deadline in
            cancel.map { cancel in
                let expiry = DispatchWorkItem { cancel.expire() }
                DispatchQueue.global().asyncAfter(
                    deadline: .now() + .milliseconds(deadline.millisecondsLeft), execute: expiry)
                return expiry
            }
        }
        defer { expiry?.cancel() }
        do {
            let result: Unchecked<T> = try await withTaskCancellationHandler {
                try await client.withConnection { connection in
                    let s = PostgresSession(
                        connection: connection, logger: logger, write: write,
                        statements: write ? nil : self.statements?.of(connection))
                    cancel?.attach(to: connection, s)
                    // The waiting happens on a Dispatch thread, never on one of the few concurrency
                    // threads, which PostgresNIO's own tasks need to make progress.
                    let outcome: Result<Unchecked<T>, any Error> = await withCheckedContinuation { continuation in
                        DispatchQueue.global().async {
                            continuation.resume(
                                returning: Result {
                                    if cancel?.cancelled == true { throw CancellationError() }
                                    return Unchecked(
                                        try s.transaction {
                                            if write { try s.run("SELECT pg_advisory_xact_lock(7250451139)") }
                                            return try body(s)
                                        })
                                })
                        }
                    }
                    // A connection a cancel request was sent for is closed, not given back to the
                    // pool: the request cannot then reach a later statement of another read.
                    expiry?.cancel()
                    if await cancel?.settle(connection) == true { try? await connection.close() }
                    return try outcome.get()
                }
            } onCancel: {
                cancel?.cancel()
            }
            return result.value
        } catch {
            let diagnostic = storeDiagnostic(error)
            if cancel?.cancelled == true { throw Diagnostic(.query.cancelled, "the query was cancelled") }
            if let deadline, cancel?.expired == true || diagnostic.diagnosticCode == .query.cancelled {
                throw deadline.diagnostic
            }
            throw diagnostic
        }
    }

    // MARK: - Work inside a read

    /// The answer on the catalog of the snapshot it was read in. A query whose statement's rows
    /// are all Quarry reads to finish it (no pointer to follow, no inner query left to Quarry,
    /// no include) is sent alone, on the kept catalog, with no transaction around it
    /// (`answerAlone`); every other read runs in one REPEATABLE READ transaction
    /// (`answerInTransaction`) (docs/STORAGE.md#fixed-cost-per-query).
    func answer(_ query: Query, _ variables: [String: Value], _ s: PostgresSession, deadline: StoreDeadline?)
        throws -> QueryResult
    {
        guard let kept = catalogs.kept else {
            return try answerInTransaction(query, variables, s, deadline: deadline, onKept: nil)
        }
        let translated = Result { try translate(query, variables, kept.catalog, s) }
        if case .success(let t) = translated, s.read?.begun == nil, t.finishedFromItsStatement {
            switch try answerAlone(t, kept.version, s) {
            case .answered(let answer): return answer
            // The kept catalog is older than the database's: not sent on again.
            case .staleCatalog: return try answerInTransaction(query, variables, s, deadline: deadline, onKept: nil)
            case .failed: break
            }
        }
        return try answerInTransaction(query, variables, s, deadline: deadline, onKept: (kept.version, translated))
    }

    private enum AloneOutcome {
        case answered(QueryResult)
        case staleCatalog
        /// The statement failed: the transaction's read reports what is wrong.
        case failed
    }

    /// A query answered by its one statement, sent alone: a single statement reads one snapshot
    /// by itself, so it needs no BEGIN or COMMIT, and the catalog version in its rows says
    /// whether the kept catalog it was translated on is that snapshot's. An answer with no rows
    /// carries no version; the version is then read by a second statement, and the kept one
    /// found there means the catalog did not change in between (it only counts up). When the
    /// catalog was another or the statement failed (short of a cancel), the read runs in a
    /// transaction.
    private func answerAlone(_ t: TranslatedQuery, _ keptVersion: Int64, _ s: PostgresSession) throws
        -> AloneOutcome
    {
        let sent = t.send(alone: true)
        let rows: SentQuery.Rows
        var version: Int64?
        do {
            (rows, version) = try sent.wait()
        } catch let d as Diagnostic where d.diagnosticCode == .query.cancelled {
            throw d
        } catch {
            return .failed
        }
        if version == nil {
            version = try PostgresCatalog.version(s.send(PostgresCatalog.versionStatement, alone: true).wait())
        }
        guard version == keptVersion else { return .staleCatalog }
        s.read?.answeredAlone = true
        return .answered(try sent.answer(rows))
    }

    /// The answer in one read transaction. While a catalog is kept, the query translated on it
    /// (`onKept`, with the kept version) is sent right behind the request for the snapshot's catalog version, and its
    /// answer used when that version is the kept one: a short read waits for one round trip
    /// (docs/STORAGE.md#fixed-cost-per-query).
    /// On another version it is sent again on the snapshot's catalog. With a `deadline`, the
    /// version request also sets the transaction's statement timeout to the time left, so every
    /// statement after it runs under it (docs/STORAGE.md#deadlines) at no extra round trip.
    private func answerInTransaction(
        _ query: Query, _ variables: [String: Value], _ s: PostgresSession, deadline: StoreDeadline?,
        onKept: (version: Int64, query: Result<TranslatedQuery, any Error>)?
    ) throws -> QueryResult {
        let version =
            deadline.map { s.send(PostgresCatalog.versionAndTimeoutStatement, [String($0.millisecondsLeft)]) }
            ?? s.send(PostgresCatalog.versionStatement)
        let catalog: PostgresCatalog
        if let onKept {
            let sent = Result { try onKept.query.get().send() }
            let current = try PostgresCatalog.version(version.wait())
            if current == onKept.version {
                let sent = try sent.get()
                return try sent.answer(sent.wait().rows)
            }
            if case .success(let stale) = sent { _ = try? stale.wait() }
            catalog = try catalogs.catalog(version: current) { try PostgresCatalog.load(s) }
        } else {
            catalog = try catalogs.catalog(version: PostgresCatalog.version(version.wait())) {
                try PostgresCatalog.load(s)
            }
        }
        let sent = try translate(query, variables, catalog, s).send()
        return try sent.answer(sent.wait().rows)
    }

    /// Validates and translates `query` on `catalog`.
    private func translate(
        _ query: Query, _ variables: [String: Value], _ catalog: PostgresCatalog, _ s: PostgresSession
    ) throws -> TranslatedQuery {
        let snapshot = PostgresSnapshot(session: s, catalog: catalog, threads: decodeThreads)
        let evaluator = PushdownEvaluator(
            objects: snapshot, limits: limits, variables: variables, now: now, random: random)
        try evaluator.validate(query)
        return TranslatedQuery(
            query: query, plan: try pushdown(query, catalog, snapshot, evaluator), evaluator: evaluator,
            snapshot: snapshot)
    }

    /// A query translated on one catalog, ready to send.
    private struct TranslatedQuery {
        let query: Query
        let plan: PostgresPushdown
        let evaluator: PushdownEvaluator
        let snapshot: PostgresSnapshot

        /// Whether its statement's rows are all Quarry needs: what is left to finish (a residual
        /// conjunct, the order, the page) reads nothing but those rows.
        var finishedFromItsStatement: Bool {
            PushdownEvaluator.finishReadsOnlyTheRows(query, residual: plan.residual)
        }

        func send(alone: Bool = false) -> SentQuery {
            let statement: SentQuery.Statement =
                plan.counts
                ? .count(snapshot.session.sendForRows(plan.sql, plan.bindings, alone: alone, prepared: true))
                : .records(
                    snapshot.startRecords(
                        plan.sql, plan.bindings, versioned: true, marked: plan.passedConjunct != nil, alone: alone,
                        prepared: true))
            return SentQuery(query: query, plan: plan, evaluator: evaluator, statement: statement)
        }
    }

    /// A query's statement on its way, and what finishes its answer once the rows are in.
    private struct SentQuery {
        enum Statement {
            case count(EventLoopFuture<[PostgresRow]>)
            case records(PostgresSnapshot.PendingRecords)
        }
        enum Rows {
            case count(Int)
            case records([Record], undecided: [Int])
        }
        let query: Query
        let plan: PostgresPushdown
        let evaluator: PushdownEvaluator
        let statement: Statement

        /// Waits for the statement: its rows, and the catalog version they were read at (nil
        /// when no row came back).
        func wait() throws -> (rows: Rows, version: Int64?) {
            switch statement {
            case .count(let result):
                let row = try storeCall { try result.wait().first }
                let version = try storeCall { try row?.text(1) }
                return (.count(Int(try storeCall { try row?.text(0) } ?? "") ?? 0), version.map { Int64($0) ?? -1 })
            case .records(let pending):
                let records = try pending.finish()
                return (.records(records, undecided: pending.undecidedRows), pending.version)
            }
        }

        func answer(_ rows: Rows) throws -> QueryResult {
            switch rows {
            case .count(let n): return .count(n)
            case .records(let records, let undecided):
                return try evaluator.finish(
                    query, candidates: records, residual: plan.residual,
                    passed: plan.passedConjunct.map { PassedConjunct(index: $0, exceptRows: undecided) },
                    ordered: plan.ordered, paged: plan.paged)
            }
        }
    }

    func explain(_ query: Query, _ variables: [String: Value], _ s: PostgresSession) throws -> BackendExplanation {
        let catalog = try PostgresCatalog.read(s, catalogs)
        let snapshot = PostgresSnapshot(session: s, catalog: catalog, threads: decodeThreads)
        let evaluator = PushdownEvaluator(
            objects: snapshot, limits: limits, variables: variables, now: now, random: random)
        try evaluator.validate(query)
        let plan = try pushdown(query, catalog, snapshot, evaluator)
        let json = try s.rows("EXPLAIN (FORMAT JSON) " + plan.sql, plan.bindings).compactMap { try $0.text(0) }
        let residual = zip(plan.residual, plan.residualReasons).map {
            BackendExplanation.ResidualPart(predicate: PushdownEvaluator.render($0), reason: $1)
        }
        return BackendExplanation(
            backend: backendName, statement: plan.sql, parameterCount: plan.bindings.count, residual: residual,
            orderPushed: plan.ordered, pagePushed: plan.paged,
            plan: json.joined(separator: "\n").split(separator: "\n").map(String.init))
    }

    private func pushdown(
        _ query: Query, _ catalog: PostgresCatalog, _ snapshot: PostgresSnapshot, _ evaluator: PushdownEvaluator
    ) throws(Diagnostic) -> PostgresPushdown {
        try PostgresPushdown(query, catalog: catalog, limits: limits) { part in
            evaluator.mayThrow(
                part, of: query.className, mayReachDate: { catalog.mayReachDate($0, in: $1) },
                objectCount: { try? snapshot.count(of: $0) })
        }
    }

    func declareIndex(_ kind: IndexKind, _ key: FieldPath, _ className: String, _ s: PostgresSession) throws {
        var catalog = try PostgresCatalog.load(s)
        guard catalog.classes[className] != nil else {
            throw Diagnostic(.index.unknownClass, "there is no class named '\(className)' to index")
        }
        guard !key.components.isEmpty, !key.components.contains(where: \.isEmpty) else {
            throw Diagnostic(.index.invalidKey, "'\(key)' is not a key path to index")
        }
        try PostgresCatalog.storable(key.components.joined(), "an index key")
        guard try catalog.addIndex(IndexDeclaration(kind: kind, key: key), to: className, s) else { return }
        // Expression indexes on the two forms the translator reads a field in: `jsonb` for
        // numbers, dates, bools and geo points, text in the "C" collation for strings and
        // pointers. Neither expression can fail on any stored value, whatever the field holds
        // later. A path through a pointer or the objectId (the primary key) needs none.
        guard key.count == 1, key.first != "objectId" else { return }
        let field = try catalog.ensureField(key.first, in: className, s)
        let c = catalog.classes[className]!
        let f = "f\(field.number)"
        try s.run("CREATE INDEX IF NOT EXISTS \(c.table)_\(f)_j ON \(c.table) ((doc->'\(f)'))")
        try s.run("CREATE INDEX IF NOT EXISTS \(c.table)_\(f)_t ON \(c.table) (((doc->>'\(f)') COLLATE \"C\"))")
        try s.run("ANALYZE \(c.table)")
    }

    func classes(_ s: PostgresSession) throws -> [ClassCatalog] {
        let catalog = try PostgresCatalog.read(s, catalogs)
        return try catalog.classNames.map { name in
            let c = catalog.classes[name]!
            let n = Int(try s.rows("SELECT count(*)::text FROM \(c.table)").first?.text(0) ?? "") ?? 0
            return ClassCatalog(name: name, objectCount: n, indexes: c.indexes)
        }
    }
}

/// Saves and index declarations inside `PostgresStore.transaction`. Saves are sent in
/// upserts of up to `batch` objects of one class (`quarry import`'s hot path), each
/// sent without waiting for it, so that the next batch is made while PostgreSQL writes this one
/// (docs/STORAGE.md#postgresql-connections). At most two are in flight: sending one waits for
/// the one before, whose error (if any) fails the transaction there.
public final class PostgresTransaction {
    let store: PostgresStore
    var writer: PostgresWriter
    private var pending: [PostgresWriter.Row] = []
    private var pendingTable = ""
    private var pendingIds: Set<String> = []
    private var pendingBytes = 0
    private var inFlight: EventLoopFuture<PostgresQueryResult>?
    /// Rows and bytes of one upsert: 2,000 rows imported 10 % faster than 500, and the bytes
    /// bound what two upserts in flight hold when the objects are large.
    static let batch = 2_000
    static let batchBytes = 16 << 20

    init(store: PostgresStore, writer: PostgresWriter) {
        self.store = store
        self.writer = writer
    }

    public func save(_ record: Record, in className: String) throws {
        let row = try writer.prepare(record, in: className)
        let table = writer.catalog.classes[className]!.table
        if table != pendingTable || pendingIds.contains(record.objectId) || pending.count >= Self.batch
            || pendingBytes >= Self.batchBytes
        {
            try send()
        }
        pendingTable = table
        pendingIds.insert(record.objectId)
        pending.append(row)
        pendingBytes += row.byteCount
    }

    /// Declares an index; without a kind, a geo index for a field of geo points and an
    /// ordered one otherwise.
    public func declareIndex(_ kind: IndexKind?, on key: FieldPath, in className: String) throws {
        try flush()
        let type = key.count == 1 ? writer.catalog.classes[className]?.field(key.first)?.type : nil
        try store.declareIndex(kind ?? (type == .geoPoint ? .geo : .ordered), key, className, writer.session)
        writer.catalog = try PostgresCatalog.load(writer.session)
    }

    /// Sends the saves not sent yet and waits until PostgreSQL has written every one.
    func flush() throws {
        try send()
        let last = inFlight
        inFlight = nil
        _ = try last?.wait()
    }

    /// The error of an upsert still in flight when the transaction failed: once it fails, every
    /// later statement of the transaction fails only because it did.
    var earlierFailure: (any Error)? {
        guard let inFlight else { return nil }
        do {
            _ = try inFlight.wait()
            return nil
        } catch {
            return error
        }
    }

    /// Sends the saves not sent yet as one upsert, then waits for the upsert before it.
    private func send() throws {
        guard !pending.isEmpty else { return }
        let sent = writer.sendUpsert(pending, into: pendingTable)
        pending.removeAll(keepingCapacity: true)
        pendingIds.removeAll(keepingCapacity: true)
        pendingBytes = 0
        let before = inFlight
        inFlight = sent
        do {
            _ = try before?.wait()
        } catch {
            // This is the transaction's first failure, not the one just sent.
            inFlight = nil
            throw error
        }
    }
}
