import ArgumentParser
import Foundation
import Quarry
import QuarrySQLite
@_spi(Benchmarking) import QuarryEngine

/// `quarry bench`: how long queries take over a data file, and optionally how long SQLite
/// takes for the same queries on the same rows (docs/ARCHITECTURE.md#benchmarks).
struct BenchCommand: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time queries over a data file, optionally against SQLite on the same rows.",
        discussion: """
            Loads the data once; then, for each query, reports the parse and plan time (µs, \
            averaged over many runs, each planning the query's shape for the first time), the \
            parse and plan time of the same shape with other literals once its plan is cached, \
            the median execution time over --repeat runs (ms) and the number of matches. --sqlite loads the same rows and indexes into SQLite \
            :memory:, runs the same queries there, and adds SQLite's time and the ratio \
            Quarry/SQLite; a query SQLite cannot answer with Quarry's exact semantics is \
            reported as not comparable.

            A QUERY of '-' reads queries from standard input, one a line (blank lines and \
            lines starting with '#' are skipped). The output is a Markdown table, or with \
            --json: [{"query","plan_us","exec_ms","matches","sqlite_exec_ms","ratio"}].

            A query that fails is reported (on stderr, or with --json as \
            {"query":…,"ok":false,"errors":[…]} in the array) and the others still run; the \
            exit status is then 1.
            """)

    @OptionGroup var data: DataOptions

    @Option(help: "The query language.")
    var dialect: Dialect = .sql

    @OptionGroup var indexes: IndexOptions

    @Option(name: .customLong("repeat"), help: ArgumentHelp("Runs per query; the median is reported.", valueName: "n"))
    var repeatCount = 5

    @OptionGroup var deadline: DeadlineOption

    @OptionGroup var threads: ThreadsOption

    @Flag(help: "Also run every query on SQLite :memory: holding the same rows and indexes.")
    var sqlite = false

    @OptionGroup var duckdb: DuckDBOptions

    @Flag(help: "Print the answer (or the errors) as one JSON document on stdout.")
    var json = false

    @OptionGroup var color: ColorOption

    @Argument(
        help: ArgumentHelp(
            "Queries to time, or '-' to read them from standard input, one a line.",
            valueName: "query"))
    var queries: [String]

    var reportsJSON: Bool { json }
    var colorChoice: ColorChoice { color.choice }

    func validate() throws {
        if repeatCount < 1 { throw ValidationError("--repeat must be 1 or more (got \(repeatCount)).") }
    }
}

extension BenchCommand {
    func execute(_ console: Console) throws(Failure) {
        let texts = try queryTexts(console)
        if let store = try data.openStore(parallelism: threads.parallelism) {
            return try benchStore(store, texts, console)
        }
        let loadStart = ContinuousClock.now
        if queries.contains("-") { try data.requireOneStandardInput(query: "-") }
        // The file is mapped, not on the heap: the growth is the engine's columns and indexes.
        let (engineBytes, (source, executor, keys)) = try Measurement.heapGrowth {
            () throws(Failure) -> (DataSource, BenchExecutor, [FieldPath]) in
            let source = try data.load(console, limits: deadline.limits)
            let (keys, kinds) = try indexKeys(source.schema, source.className)
            do throws(Diagnostic) {
                let executor = try BenchExecutor.engine(
                    source.engine, schema: source.schema, indexes: keys, kinds: kinds, in: source.className,
                    parallelism: threads.parallelism)
                return (source, executor, keys)
            } catch {
                throw .query(error, source: "")
            }
        }
        let loadSeconds = Measurement.seconds(ContinuousClock.now - loadStart)
        let schema = source.schema, storage = source.engine.storage
        let rowCount = storage.rowCount(of: source.className) ?? 0
        let totalRows = schema.classNames.reduce(0) { $0 + (storage.rowCount(of: $1) ?? 0) }

        var notes: [String] = []
        if let columns = executor.columnBytes, rowCount >= 10_000 {
            let perRow = columns.map { "\($0.field) \(String(format: "%.1f", Double($0.bytes) / Double(rowCount)))" }
            notes.append("Quarry's columns of \(source.className), bytes per object: " + perRow.joined(separator: ", "))
        }
        notes.insert(
            "loading took \(Self.seconds(loadSeconds)) in Quarry (the data file, the engine's store and indexes)", at: 0
        )
        var peer: SQLitePeer?
        if sqlite {
            let sqliteStart = ContinuousClock.now
            do throws(SQLiteError) {
                let p = try SQLitePeer(database: source.engine.database)
                for key in keys {
                    if let reason = try p.createIndex(on: key, in: source.className) {
                        notes.append("SQLite has no index for --index \(key): \(reason)")
                    }
                }
                peer = p
            } catch {
                throw .query(
                    Diagnostic(.sqlite.error, "SQLite could not load the data: \(error.message)"),
                    source: "")
            }
            notes[0] +=
                ", \(Self.seconds(Measurement.seconds(ContinuousClock.now - sqliteStart))) in SQLite (with its indexes)"
        }

        let options = CompileOptions(schema: schema, profile: .exact)
        let dialect = self.dialect, className = source.className
        var runner = BenchRunner(executor: executor, repeatCount: repeatCount, peer: peer) { text throws(Diagnostic) in
            try dialect.compile(text, className: className, options: options)
        }
        if dialect != .predicate {
            let engine = source.engine
            runner.textPrepare = { text throws(Diagnostic) in
                _ = try engine.prepare(text, on: className, dialect: dialect)
            }
            runner.textVariation = { text in
                LiteralVariation.preparedVariation(of: text, dialect: dialect) { t throws(Diagnostic) in
                    _ = try engine.prepare(t, on: className, dialect: dialect)
                }
            }
            runner.planOutcomes = { engine.planOutcomes }
        }
        let (results, failures) = run(texts, with: runner, console)
        // Below some thousands of objects, allocator and page granularity swamp the figure.
        let perRow = { (bytes: Int64) -> Double? in totalRows >= 10_000 ? Double(bytes) / Double(totalRows) : nil }
        var report = BenchReport(
            results: results, rows: rowCount, className: className,
            executor: executor.name, indexes: keys.map(\.description),
            quarryBytesPerRow: engineBytes.flatMap { perRow(Int64($0)) },
            sqliteBytesPerRow: peer.flatMap { perRow($0.bytesUsed) }, notes: notes)
        report.failures = failures
        report.parallelThreads = executor.parallel?.parallelism.threads
        if json {
            console.output.write(report.json())
            for r in report.disagreements {
                console.error.write(
                    "warning: SQLite found \(r.sqliteMatches ?? 0) matches for '\(r.query)', Quarry \(r.matches)\n")
            }
        } else {
            console.output.write(report.markdown())
            if let python = duckdb.python {
                let peer = DuckDBPeer(options: duckdb, python: python, className: className, repeatCount: repeatCount)
                let count = { (text: String) throws(Diagnostic) -> (millis: Double, matches: Int) in
                    var query = try dialect.compile(text, className: className, options: options)
                    query.count = true
                    let (seconds, matches) = try Measurement.median(runs: repeatCount) {
                        () throws(Diagnostic) -> Int in try executor.timedRun(query)
                    }
                    return (seconds * 1e3, matches)
                }
                console.output.write(try peer.report(results, quarryCount: count))
            }
        }
        if !failures.isEmpty { throw .reported(.queryFailed) }
    }

    /// Runs every query; one that fails is reported (text on stderr as it fails, or with
    /// --json in the report) and the others still run.
    func run(_ texts: [String], with runner: BenchRunner, _ console: Console) -> ([BenchResult], [BenchFailure]) {
        var results: [BenchResult] = []
        var failures: [BenchFailure] = []
        let style = Style.choose(color.choice, terminal: console.errorIsTerminal, environment: console.environment)
        for text in texts {
            do throws(Diagnostic) {
                results.append(try runner.run(text))
            } catch {
                let source = SourceText(text)
                failures.append(BenchFailure(query: text, errors: error.all.map { source.jsonObject($0) }))
                if !json { console.error.write(style.diagnostics(error.all.map(source.render).joined())) }
            }
        }
        return (results, failures)
    }

    /// The queries, with '-' replaced by the lines of standard input (read once).
    private func queryTexts(_ console: Console) throws(Failure) -> [String] {
        var texts: [String] = []
        var stdinLines: [String]?
        for q in queries {
            guard q == "-" else { texts.append(q); continue }
            if stdinLines == nil { stdinLines = try Self.lines(console) }
            texts += stdinLines ?? []
        }
        guard !texts.isEmpty else { throw .usage("standard input held no query") }
        return texts
    }

    /// The most standard input may hold: a thousand queries of the longest length.
    private static let maxInput = Limits.default.maxQueryLength * 1000

    /// Standard input's queries: one a line, blank lines and `#` comments skipped.
    private static func lines(_ console: Console) throws(Failure) -> [String] {
        let bytes: [UInt8]
        do { bytes = try console.readInput(maxInput + 1) } catch { throw .usage("\(error)") }
        guard bytes.count <= maxInput else {
            throw .usage("standard input holds more than \(maxInput) bytes of queries")
        }
        let input = String(decoding: bytes, as: UTF8.self)
        guard input.utf8.elementsEqual(bytes) else {
            throw .query(Diagnostic(.input.encoding, "standard input is not valid UTF-8"), source: "")
        }
        return input.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty || trimmed.hasPrefix("#") ? nil : String(line)
        }
    }

    /// `--index KEY[:kind]` keys, each naming a field of the class (the first step of a path),
    /// and the kinds given.
    private func indexKeys(_ schema: any Schema, _ className: String) throws(Failure)
        -> ([FieldPath], [FieldPath: IndexKind])
    {
        var keys: [FieldPath] = []
        var kinds: [FieldPath: IndexKind] = [:]
        for text in indexes.specs {
            let (key, kind) = try IndexOptions.parse(text, schema: schema, className: className)
            guard schema.resolveField(key.first, in: className) != nil else {
                throw .usage("--index \(text): the class \(className) has no field '\(key.first)'")
            }
            if text.contains(":") { kinds[key] = kind }
            if !keys.contains(key) { keys.append(key) }
        }
        return (keys, kinds)
    }

    private static func seconds(_ s: Double) -> String {
        String(Double((s * 10).rounded()) / 10) + " s"
    }
}
