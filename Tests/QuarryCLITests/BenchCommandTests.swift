import Foundation
import Quarry
import Testing
import QuarryTestSupport

@testable import QuarryCLI

/// `quarry bench` end to end, in-process: output shapes and match counts, never timings.
@Suite struct BenchCommandTests {
    static let data = SyntheticData(rows: 400, seed: 3)
    /// One file for every run (a suite has no hook to remove it after its tests): written
    /// under a temporary name, then renamed over the last run's, which holds the same bytes.
    static let file: String = {
        let path = NSTemporaryDirectory() + "quarry-bench-tests-400-3.json"
        let temporary = path + ".\(UUID().uuidString)"
        try! data.write(toFile: temporary)
        precondition(rename(temporary, path) == 0, "rename \(temporary): \(errno)")
        return path
    }()

    static func matches(_ text: String, dialect: Dialect = .sql) throws -> Int {
        let db = data.database()
        let query = try dialect.compile(text, className: "Person", options: CompileOptions(schema: db))
        switch try ReferenceEvaluator(database: db).run(query) {
        case .count(let n): return n
        case .records(let r): return r.count
        }
    }

    static func objects(_ json: String) throws -> [JSONObject] {
        guard case .array(let items) = try JSONParser().parse(json) else { return [] }
        return items.compactMap { if case .object(let o) = $0 { return o } else { return nil } }
    }

    @Test func jsonReportsEachQueryWithTheContractsKeys() throws {
        let queries = ["age > 50", "name LIKE 'J%' AND score < 50", "city.population > 1000000"]
        let out = quarry(["bench", "--data", Self.file, "--class", "Person", "--repeat", "2", "--json"] + queries)
        #expect(out.status == 0, "\(out.err)")
        let objects = try Self.objects(out.out)
        #expect(objects.count == queries.count)
        for (o, text) in zip(objects, queries) {
            #expect(o.keys == ["query", "plan_us", "exec_ms", "matches", "sqlite_exec_ms", "ratio"])
            #expect(o["query"]?.stringValue == text)
            #expect(o["sqlite_exec_ms"]?.isNull == true && o["ratio"]?.isNull == true)
            if case .int(let n)? = o["matches"] {
                #expect(Int(n) == (try Self.matches(text)))
            } else {
                Issue.record("matches")
            }
            for key in ["plan_us", "exec_ms"] {
                if case .double(let d)? = o[key] { #expect(d >= 0) } else { Issue.record("\(key) is not a number") }
            }
        }
    }

    @Test func sqliteAddsItsTimeAndTheRatio() throws {
        let out = quarry([
            "bench", "--data", Self.file, "--class", "Person", "--sqlite", "--index", "age",
            "--index", "location", "--json", "age = 42", "tags = 'a1'",
        ])
        #expect(out.status == 0, "\(out.err)")
        for o in try Self.objects(out.out) {
            if case .double(let d)? = o["sqlite_exec_ms"] { #expect(d >= 0) } else { Issue.record("sqlite_exec_ms") }
            if case .double? = o["ratio"] {} else { Issue.record("ratio") }
        }
        #expect(out.err.isEmpty)
    }

    @Test func queriesComeFromStandardInputOneALine() throws {
        let out = quarry(
            ["bench", "--data", Self.file, "--class", "Person", "--repeat", "1", "--json", "-"],
            stdin: "# a comment\nage < 10\n\nscore >= 90\n")
        #expect(out.status == 0, "\(out.err)")
        #expect(try Self.objects(out.out).map { $0["query"]?.stringValue } == ["age < 10", "score >= 90"])
    }

    @Test func standardInputWithoutAQueryIsAUsageError() {
        let out = quarry(["bench", "--data", Self.file, "--class", "Person", "-"], stdin: "# only a comment\n\n")
        #expect(out.status == 2)
        #expect(out.err.contains("standard input held no query"))
    }

    @Test func theTableNamesWhatSQLiteCannotCompare() throws {
        let out = quarry([
            "bench", "--data", Self.file, "--class", "Person", "--dialect", "predicate", "--sqlite",
            "--repeat", "1", "--threads", "3", "ANY tags == 'a1'", "age > 30",
        ])
        #expect(out.status == 0, "\(out.err)")
        let lines = out.out.split(separator: "\n")
        #expect(
            lines.first?.hasPrefix(
                "| query | plan µs | new literals µs | SQLite prepare µs | Quarry ms | Quarry 3 threads ms | speedup "
                    + "| SQLite ms |") == true)
        #expect(lines.contains { $0.hasPrefix("| `ANY tags == 'a1'` |") && $0.contains("| — |") })
        #expect(out.out.contains("SQLite not comparable: ANY/ALL/NONE quantifiers"))
        #expect(out.out.contains("400 Person objects"))
        #expect(!out.out.contains("memory per object"))  // too few objects to measure
    }

    /// The DuckDB table (a shell script stands in for the peer) sets Quarry's all-threads ids
    /// time and speedup beside DuckDB's all-threads time, and their ratio.
    @Test func theDuckDBTableShowsQuarrysParallelSpeedup() throws {
        let base = NSTemporaryDirectory() + "quarry-duckdb-\(UUID().uuidString)"
        let script = base + ".sh", clauses = base + ".sql"
        try "cat > /dev/null\necho '{\"count_ms\":1.0,\"ids_ms\":2.0,\"matches\":1}'\n".write(
            toFile: script, atomically: true, encoding: .utf8)
        try "age > 50\n".write(toFile: clauses, atomically: true, encoding: .utf8)
        defer { for f in [script, clauses] { try? FileManager.default.removeItem(atPath: f) } }
        let out = quarry([
            "bench", "--data", Self.file, "--class", "Person", "--repeat", "1", "--duckdb", "/bin/sh",
            "--duckdb-script", script, "--duckdb-queries", clauses, "age > 50",
        ])
        #expect(out.status == 0, "\(out.err)")
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let header = out.out.split(separator: "\n").first { $0.hasPrefix("| Query | Quarry count ms") }
        if cores > 1 {
            #expect(
                header?.contains(
                    "| Quarry ids ms (\(cores) threads) | speedup | DuckDB ids ms (\(cores) threads) | ratio |") == true
            )
            let row = out.out.split(separator: "\n").last { $0.hasPrefix("| `age > 50` | ") }
            // Query; count, DuckDB, ratio; ids, DuckDB, ratio; all-threads ids, speedup, DuckDB, ratio; matches.
            #expect(row.map { $0.split(separator: "|").count } == 12)
            #expect(row?.contains("×") == true)
        } else {
            #expect(header?.contains("threads)") == false)
        }
    }

    /// The loading comparison runs `quarry run --count` and the peer's load `--repeat` times each,
    /// alternated, and reports the medians (a shell script stands in for the peer).
    @Test func theLoadingComparisonIsAMedianOfAlternatedRuns() throws {
        let base = NSTemporaryDirectory() + "quarry-duckdb-load-\(UUID().uuidString)"
        let script = base + ".sh", clauses = base + ".sql", log = base + ".log"
        try """
        if [ "$1" = load ]; then echo "$1 $3" >> \(log); echo 7; exit 0; fi
        cat > /dev/null
        echo '{"count_ms":1.0,"ids_ms":2.0,"matches":1}'

        """.write(toFile: script, atomically: true, encoding: .utf8)
        try "age > 50\n".write(toFile: clauses, atomically: true, encoding: .utf8)
        defer { for f in [script, clauses, log] { try? FileManager.default.removeItem(atPath: f) } }
        let out = quarry([
            "bench", "--data", Self.file, "--class", "Person", "--repeat", "3", "--duckdb", "/bin/sh",
            "--duckdb-script", script, "--duckdb-queries", clauses, "--duckdb-table", "Person=\(Self.file)",
            "age > 50",
        ])
        #expect(out.status == 0, "\(out.err)")
        #expect(out.out.contains("the median of 3 alternated runs)"))
        #expect(out.out.contains("| DuckDB `read_json`, 1 thread | "))
        #expect(out.out.contains("| Quarry / DuckDB (1 thread) | "))
        // Three rounds, each loading on one thread and on every core.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let loads = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(loads.count == 3 * Set([1, cores]).count)
        #expect(loads.filter { $0 == "load 1" }.count == 3)
    }

    @Test func anInvalidQueryIsReportedAndTheOthersStillRun() {
        let out = quarry(["bench", "--data", Self.file, "--class", "Person", "age > 5", "age > AND"])
        #expect(out.status == 1)
        #expect(out.err.contains("error[syntax.unexpected-token]"))
        #expect(out.out.contains("| `age > 5` |"))
        #expect(out.out.contains("- `age > AND`: failed (syntax.unexpected-token)"))
    }

    @Test(arguments: [
        (["--repeat", "0", "age > 1"], "--repeat must be 1 or more"),
        (["--index", "nothing", "age > 1"], "has no field 'nothing'"),
        (["--index", "a..b", "age > 1"], "expected a key path such as 'age' or 'address.city'"),
        ([String](), "Missing expected argument '<query> ...'"),
    ])
    func usageErrorsExitTwo(_ extra: [String], _ message: String) {
        let out = quarry(["bench", "--data", Self.file, "--class", "Person"] + extra)
        #expect(out.status == 2)
        #expect(out.err.contains(message), "\(out.err)")
    }

    @Test func anUnreadableDataFileExitsThree() {
        let out = quarry(["bench", "--data", "/nonexistent/data.json", "age > 1"])
        #expect(out.status == 3)
    }
}
