import Quarry
@testable import QuarrySQLite
import Testing
import QuarryTestSupport
@_spi(Benchmarking) import QuarryEngine

@testable import QuarryCLI

/// `quarry bench`'s measurements and reports, without timing assertions: the shape of the
/// JSON, the match counts, and what happens when SQLite cannot run a query.
@Suite struct BenchReportTests {
    static let database = SyntheticData(rows: 1_000).database()

    static func runner(sqlite: Bool) throws -> BenchRunner {
        BenchRunner(
            executor: .reference(database), repeatCount: 2,
            peer: sqlite ? try SQLitePeer(database: database) : nil
        ) {
            text throws(Diagnostics) in
            Query(className: "Person", predicate: try SQLWhere.parse(text, className: "Person", schema: database))
        }
    }

    static func reference(_ text: String) throws -> Int {
        let query = Query(
            className: "Person", predicate: try SQLWhere.parse(text, className: "Person", schema: database))
        return try ReferenceEvaluator(database: database).run(query).records.count
    }

    @Test func jsonHasTheContractsKeysAndTypes() throws {
        let runner = try Self.runner(sqlite: true)
        let texts = ["age > 50", "name LIKE 'J%'", "tags = 'a1' OR score < 10"]
        var results: [BenchResult] = []
        for t in texts { results.append(try runner.run(t)) }
        let report = BenchReport(
            results: results, rows: 1_000, className: "Person", executor: "E", indexes: [],
            quarryBytesPerRow: nil, sqliteBytesPerRow: nil, notes: [])
        guard case .array(let items) = try JSONParser().parse(report.json()) else {
            Issue.record("not a JSON array: \(report.json())")
            return
        }
        #expect(items.count == texts.count)
        for (item, text) in zip(items, texts) {
            guard case .object(let o) = item else { Issue.record("not an object"); continue }
            #expect(o.keys == ["query", "plan_us", "exec_ms", "matches", "sqlite_exec_ms", "ratio"])
            #expect(o["query"]?.stringValue == text)
            #expect(o["plan_us"].map(Self.isNumber) == true)
            #expect(o["exec_ms"].map(Self.isNumber) == true)
            #expect(o["sqlite_exec_ms"].map(Self.isNumber) == true)
            #expect(o["ratio"].map(Self.isNumber) == true)
            guard case .int(let matches)? = o["matches"] else { Issue.record("matches is not an integer"); continue }
            #expect(Int(matches) == (try Self.reference(text)))
        }
        #expect(report.disagreements.isEmpty)
    }

    @Test func withoutSQLiteTheSQLiteFieldsAreNull() throws {
        let result = try Self.runner(sqlite: false).run("age = 42")
        #expect(result.sqliteExecMillis == nil && result.ratio == nil && result.sqliteNote == nil)
        let json = BenchReport(
            results: [result], rows: 1_000, className: "Person", executor: "E", indexes: [],
            quarryBytesPerRow: nil, sqliteBytesPerRow: nil, notes: []
        ).json()
        #expect(json.contains("\"sqlite_exec_ms\":null,\"ratio\":null}"))
        #expect(result.matches == (try Self.reference("age = 42")))
    }

    @Test func aQuerySQLiteCannotAnswerIsNotedNotFailed() throws {
        let db = Self.database
        let runner = BenchRunner(executor: .reference(db), repeatCount: 1, peer: try SQLitePeer(database: db)) {
            text throws(Diagnostics) in
            // A token search: Quarry runs it, SQLite has no equivalent.
            Query(className: "Person", predicate: .leaf(.text("name", TextSearch(terms: text)), .document))
        }
        let result = try runner.run("Joe")
        #expect(result.sqliteExecMillis == nil)
        #expect(result.sqliteNote?.hasPrefix("not comparable: text search") == true)
        let table = BenchReport(
            results: [result], rows: 1_000, className: "Person", executor: "E", indexes: [],
            quarryBytesPerRow: 300, sqliteBytesPerRow: 120, notes: ["a note"]
        ).markdown()
        #expect(table.contains("| `Joe` |"))
        #expect(table.contains("SQLite not comparable: text search"))
        #expect(table.contains("- a note"))
        #expect(table.contains("memory per object: Quarry 300 B"))
    }

    @Test func anInvalidQueryIsADiagnostic() throws {
        #expect(throws: Diagnostics.self) { try Self.runner(sqlite: true).run("age > AND") }
    }

    @Test func theMarkdownTableHasOneRowPerQuery() throws {
        let runner = try Self.runner(sqlite: true)
        let results = [try runner.run("age > 50"), try runner.run("name = 'x|y'")]
        let table = BenchReport(
            results: results, rows: 1_000, className: "Person", executor: "E", indexes: ["age"],
            quarryBytesPerRow: nil, sqliteBytesPerRow: nil, notes: []
        ).markdown()
        let lines = table.split(separator: "\n")
        #expect(
            lines[0]
                == "| query | plan µs | SQLite prepare µs | Quarry ms | SQLite ms | Quarry/SQLite | Quarry rows/s | SQLite rows/s | matches |"
        )
        #expect(lines[2].hasPrefix("| `age > 50` |"))
        #expect(lines[3].hasPrefix("| `name = 'x\\|y'` |"))
        #expect(lines[3].hasSuffix("| 0 |"))
        #expect(table.contains("Quarry executor: E; SQLite"))
        #expect(table.contains("indexes: age"))
    }

    /// The new-literals figure of a query whose varied literal is inside an inner query times
    /// the two texts' own cached plans (the inner query is part of the shape), and the table
    /// says so; a query whose literals bind one plan has no such remark.
    @Test func newLiteralsThatReuseTheirOwnPlansAreNoted() throws {
        let engine = Engine(database: Self.database)
        var runner = BenchRunner(
            executor: try .engine(engine, schema: Self.database, indexes: [], in: "Person"), repeatCount: 1, peer: nil
        ) { text throws(Diagnostic) in
            Query(className: "Person", predicate: try SQLWhere.parse(text, className: "Person", schema: Self.database))
        }
        runner.textPrepare = { text throws(Diagnostic) in _ = try engine.prepare(text, on: "Person") }
        runner.textVariation = { text in
            LiteralVariation.preparedVariation(of: text) { t throws(Diagnostic) in
                _ = try engine.prepare(t, on: "Person")
            }
        }
        runner.planOutcomes = { engine.planOutcomes }
        let inner = "city.objectId IN (City[country = 'BR'].objectId)"
        let results = [try runner.run("age > 50"), try runner.run(inner)]
        #expect(results.map(\.rebindReusedOwnPlans) == [false, true])
        let table = BenchReport(
            results: results, rows: 1_000, className: "Person", executor: "E", indexes: [],
            quarryBytesPerRow: nil, sqliteBytesPerRow: nil, notes: []
        ).markdown()
        #expect(table.contains("- `\(inner)`: new literals µs times texts whose own plans were cached"))
        #expect(!table.contains("- `age > 50`: new literals"))
    }

    static func isNumber(_ j: JSON) -> Bool {
        switch j {
        case .int, .double: return true
        default: return false
        }
    }
}
