import Quarry
import QuarrySQLite
@_spi(Benchmarking) import QuarryEngine

/// What `quarry bench` measures for one query (docs/ARCHITECTURE.md#benchmarks).
public struct BenchResult: Sendable, Equatable {
    public var query: String
    /// Parse and the first planning of the query's shape (no plan cached), averaged over many
    /// calls, in microseconds.
    public var planMicros: Double
    /// Parse and planning of the same shape with other literals once its plan is cached, in
    /// microseconds (nil: the executor does not plan).
    public var rebindMicros: Double?
    /// The two texts timed for `rebindMicros` mostly reused plans of their own, cached for
    /// their literals: a literal that varied is not a parameter of one plan (an inner query's
    /// stays in the shape), so the figure is not what a new literal costs.
    public var rebindReusedOwnPlans = false
    /// Median execution time on one thread, in milliseconds.
    public var execMillis: Double
    /// Median execution time with every thread the scan may use, in milliseconds (nil: not run).
    public var parallelExecMillis: Double? = nil
    public var parallelMatches: Int? = nil
    public var matches: Int
    /// Median execution time of the same query on SQLite, in milliseconds (nil: not run).
    public var sqliteExecMillis: Double?
    /// `sqlite3_prepare_v2` of the translated query's text, in microseconds.
    public var sqlitePrepareMicros: Double?
    public var sqliteMatches: Int?
    /// Why SQLite did not run the query (not comparable, or an SQLite error).
    public var sqliteNote: String?

    /// Quarry's time over SQLite's.
    public var ratio: Double? {
        guard let s = sqliteExecMillis, s > 0 else { return nil }
        return execMillis / s
    }
}

/// The Quarry executor `bench` measures: a name for reports, its planning step, how it runs a
/// compiled query, and what the timed run does.
public struct BenchExecutor {
    public let name: String
    /// Heap bytes of the executor's storage by field of the benchmarked class (nil: not known).
    public let columnBytes: [(field: String, bytes: Int)]?
    /// Checks and plans a query ahead of running it (nil: the executor does not plan).
    public let plan: ((Query) throws(Diagnostic) -> Void)?
    /// Drops the cached plans, so that the next planning is a first one.
    public let forgetPlans: (() -> Void)?
    /// Runs a compiled query, every result record built.
    public let execute: (Query) throws(Diagnostic) -> QueryResult
    /// What `bench` times: runs a query and reads its objectIds in result order, as the SQLite
    /// peer's timed loop reads each row's objectId; returns the number of matches.
    public let timedRun: (Query) throws(Diagnostic) -> Int
    /// `timedRun` with every thread (nil: the executor scans on one thread only).
    public var parallel: ParallelRun? = nil

    public init(
        name: String, columnBytes: [(field: String, bytes: Int)]? = nil,
        plan: ((Query) throws(Diagnostic) -> Void)? = nil, forgetPlans: (() -> Void)? = nil,
        execute: @escaping (Query) throws(Diagnostic) -> QueryResult,
        timedRun: @escaping (Query) throws(Diagnostic) -> Int
    ) {
        self.name = name
        self.columnBytes = columnBytes
        self.plan = plan
        self.forgetPlans = forgetPlans
        self.execute = execute
        self.timedRun = timedRun
    }

    /// Reads `count` objectIds (their bytes are summed, so that the reads are not optimized
    /// away); returns `count`.
    static func readIds(_ count: Int, _ objectId: (Int) -> String) -> Int {
        var bytes = 0
        for i in 0..<count { bytes &+= objectId(i).utf8.count }
        return bytes >= 0 ? count : 0
    }

    /// Reads every objectId of an engine's result by its bytes, as the peers read theirs
    /// (DuckDB writes them into a table; no string object is made on either side); returns
    /// their number.
    static func readIds(_ rows: ResultSet) -> Int {
        var bytes = 0
        for i in rows.indices { bytes &+= rows.withUTF8(at: i) { $0.count &+ Int($0.first ?? 0) } }
        return bytes >= 0 ? rows.count : 0
    }

    /// The planned engine, with an index for each key: of the kind given, else a geo index on
    /// geo-point fields and an ordered one (equality, ranges, prefixes, sorting) on the others.
    /// - Parameter kinds: the kind of index for a key, where the caller chose one.
    public static func engine(
        _ database: Database, indexes: [FieldPath], kinds: [FieldPath: IndexKind] = [:], in className: String,
        limits: Limits = .default, parallelism: ScanParallelism = .automatic
    ) throws(Diagnostic) -> BenchExecutor {
        try engine(
            Engine(database: database, limits: limits), schema: database, indexes: indexes, kinds: kinds,
            in: className, parallelism: parallelism)
    }

    /// The same over an engine already loaded (`Engine.load`). The timed run scans on one
    /// thread; `parallel` on `parallelism`'s threads.
    public static func engine(
        _ engine: Engine, schema: any Schema, indexes: [FieldPath], kinds: [FieldPath: IndexKind] = [:],
        in className: String, parallelism: ScanParallelism = .automatic
    ) throws(Diagnostic) -> BenchExecutor {
        try engine.createIndexes(
            indexes.map { key in
                let geo = key.count == 1 && schema.fieldType(key.first, in: className) == .geoPoint
                return (kinds[key] ?? (geo ? .geo : .ordered), key)
            }, in: className)
        var executor = BenchExecutor(
            name: "Engine (column store, planner, compiled plans)",
            columnBytes: engine.columnBytes(of: className),
            plan: { query throws(Diagnostic) in
                _ = try engine.prepare(query)
            }, forgetPlans: engine.forgetPlans,
            execute: { query throws(Diagnostic) in
                return try engine.run(query)
            },
            timedRun: { query throws(Diagnostic) in
                // The lazy result: objectIds copied from the store, no records built.
                switch try engine.runLazily(query, parallelism: .sequential) {
                case .count(let n): return n
                case .rows(let rows): return readIds(rows)
                }
            })
        executor.parallel = ParallelRun(engine, parallelism)
        return executor
    }

    /// The reference evaluator: no planning step and no index.
    public static func reference(_ database: Database, limits: Limits = .default) -> BenchExecutor {
        let evaluator = ReferenceEvaluator(database: database, limits: limits)
        let execute = { (query: Query) throws(Diagnostic) -> QueryResult in
            return try evaluator.run(query)
        }
        return BenchExecutor(
            name: "ReferenceEvaluator (row by row, no indexes)", execute: execute,
            timedRun: { query throws(Diagnostic) in
                switch try execute(query) {
                case .count(let n): return n
                case .records(let records): return readIds(records.count) { records[$0].objectId }
                }
            })
    }
}

/// Runs the measurements of `quarry bench` over data already loaded: for each query, parse
/// and plan time, the median execution time over `repeatCount` runs and the number of
/// matches, and the same on the SQLite peer when there is one.
public struct BenchRunner {
    let executor: BenchExecutor
    let compile: (String) throws(Diagnostic) -> Query
    let peer: SQLitePeer?
    let repeatCount: Int
    /// The executor's own compile and planning of a text, which reuses the templates of texts
    /// it compiled before (`Engine.prepare`, docs/ARCHITECTURE.md#text-templates), and a text of
    /// the same shape with other literals that it accepts; nil where the executor has none.
    /// With them the time with new literals is that of the text itself, compiled and planned.
    public var textPrepare: ((String) throws(Diagnostic) -> Void)?
    public var textVariation: ((String) -> String?)?
    /// The executor's plans so far, lent as cached for the same literals and planned for others
    /// (`Engine.planOutcomes`).
    public var planOutcomes: (() -> (reused: Int, planned: Int))?

    /// - Parameters:
    ///   - compile: the front-end: query text to a `Query` on the benchmarked class.
    ///   - peer: SQLite holding the same rows and indexes, or nil to measure Quarry alone.
    public init(
        executor: BenchExecutor, repeatCount: Int, peer: SQLitePeer?,
        compile: @escaping (String) throws(Diagnostic) -> Query
    ) {
        self.executor = executor
        self.compile = compile
        self.peer = peer
        self.repeatCount = max(1, repeatCount)
    }

    /// Plan time is the front-end's compile time plus the executor's first planning of the
    /// query's shape, each averaged over many calls (the plan cache is emptied before each
    /// planning, outside the clock, so none is a cache hit; one timed call would mostly measure
    /// cold CPU caches after the previous query's run). Rebind time is the compile time plus
    /// planning the same shape with other literals, alternating two sets so that each call
    /// binds new ones; with `textPrepare`, the time of compiling and planning the two texts
    /// themselves.
    public func run(_ text: String) throws(Diagnostic) -> BenchResult {
        let query = try compile(text)
        let compileSeconds = Measurement.averageSeconds { _ = try? compile(text) }
        var planSeconds = compileSeconds
        var rebindSeconds: Double? = nil
        var reusedOwnPlans = false
        if let plan = executor.plan {
            try plan(query)
            let forget = executor.forgetPlans
            planSeconds += Measurement.averageSeconds(setup: { forget?() }) { try? plan(query) }
            var flip = false
            if let textPrepare, let otherText = textVariation?(text) {
                // Twice each: a text's second compile makes its template.
                for t in [text, otherText, text, otherText] { try? textPrepare(t) }
                let before = planOutcomes?()
                rebindSeconds = Measurement.averageSeconds {
                    flip.toggle()
                    try? textPrepare(flip ? otherText : text)
                }
                if let before, let after = planOutcomes?() {
                    reusedOwnPlans = after.reused - before.reused > after.planned - before.planned
                }
            } else {
                let other = LiteralVariation.vary(query)
                rebindSeconds =
                    compileSeconds
                    + Measurement.averageSeconds {
                        flip.toggle()
                        try? plan(flip ? other : query)
                    }
            }
        }
        // A query that cannot run fails on the first timed run, with its diagnostic.
        let one = { () throws(Diagnostic) -> Int in try executor.timedRun(query) }
        var result = BenchResult(
            query: text, planMicros: planSeconds * 1e6, rebindMicros: rebindSeconds.map { $0 * 1e6 },
            rebindReusedOwnPlans: reusedOwnPlans, execMillis: 0, matches: 0)
        if let parallel = executor.parallel {
            // Runs on one thread and on all of them alternate, so that a slow spell of the
            // machine weighs on both and not on the speedup.
            let (single, all) = try Measurement.medians(runs: repeatCount, one) { () throws(Diagnostic) -> Int in
                try parallel.run(query)
            }
            (result.execMillis, result.matches) = (single.seconds * 1e3, single.result)
            (result.parallelExecMillis, result.parallelMatches) = (all.seconds * 1e3, all.result)
        } else {
            let (seconds, matches) = try Measurement.median(runs: repeatCount, one)
            (result.execMillis, result.matches) = (seconds * 1e3, matches)
        }
        if let peer { measureSQLite(peer, query, &result) }
        return result
    }

    private func measureSQLite(_ peer: SQLitePeer, _ query: Query, _ result: inout BenchResult) {
        do throws(SQLitePeerError) {
            let prepared = try peer.prepare(query)
            // SQLite's own cost for the text it is given, as sqlite3_prepare_v2 would be timed;
            // the statement before is finalized outside the clock, as Quarry's plan is dropped.
            var last: SQLiteStatement? = nil
            result.sqlitePrepareMicros =
                Measurement.averageSeconds(setup: { last = nil }) {
                    last = try? peer.connection.prepare(prepared.sql)
                } * 1e6
            withExtendedLifetime(last) {}
            let (seconds, matches) = try Measurement.median(runs: repeatCount) { () throws(SQLitePeerError) -> Int in
                try matchCount(prepared)
            }
            result.sqliteExecMillis = seconds * 1e3
            result.sqliteMatches = matches
        } catch {
            switch error {
            case .notComparable(let reason): result.sqliteNote = "not comparable: \(reason.reason)"
            case .sqlite(let e): result.sqliteNote = e.description
            }
        }
    }

    private func matchCount(_ prepared: SQLitePreparedQuery) throws(SQLitePeerError) -> Int {
        do throws(SQLiteError) { return try prepared.matchCount() } catch { throw .sqlite(error) }
    }
}
