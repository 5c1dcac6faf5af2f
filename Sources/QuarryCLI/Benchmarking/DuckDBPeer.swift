import ArgumentParser
import Foundation
import Quarry

/// `quarry bench --duckdb PYTHON`: DuckDB as a peer, run by `Benchmarks/duckdb/peer.py` in a
/// subprocess on the same rows (docs/ARCHITECTURE.md#benchmarks). Counts are compared with
/// `SELECT count(*)`, ids in order with DuckDB writing the matching objectIds into a temporary
/// table, each on one thread and on every core; loading is the whole command from a cold
/// process to the first answer, `quarry run --count` against DuckDB's `read_json`.
struct DuckDBOptions: ParsableArguments {
    @Option(
        name: .customLong("duckdb"),
        help: ArgumentHelp(
            "Also run the queries on DuckDB through this Python interpreter (with the duckdb package).",
            valueName: "python"))
    var python: String?

    @Option(
        name: .customLong("duckdb-script"), help: ArgumentHelp("The DuckDB peer script.", valueName: "file"))
    var script = "Benchmarks/duckdb/peer.py"

    @Option(
        name: .customLong("duckdb-queries"),
        help: ArgumentHelp(
            "DuckDB's where-clauses for the queries, one a line in the same order ('#' lines skipped).",
            valueName: "file"))
    var queries: String?

    @Option(
        name: .customLong("duckdb-table"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "CLASS=FILE: an NDJSON file of the same rows DuckDB loads as a table (repeat for each class); "
                + "the benchmarked class's file is also the loading comparison's.",
            valueName: "class=file"))
    var tables: [String] = []
}

/// One query's figures on both sides.
struct DuckDBComparison {
    var query: String
    var quarryCountMillis: Double
    var quarryIdsMillis: Double
    /// Quarry's ids time with every thread (nil: not measured).
    var quarryParallelIdsMillis: Double?
    var matches: Int
    /// By thread count: DuckDB's count and ids times, or its error.
    var duckdb: [Int: Result<(count: Double, ids: Double, matches: Int), DuckDBError>] = [:]
}

struct DuckDBError: Error {
    var message: String
}

struct DuckDBPeer {
    let options: DuckDBOptions
    let python: String
    let className: String
    let repeatCount: Int
    /// Every core, as DuckDB's default would use.
    let cores = ProcessInfo.processInfo.activeProcessorCount

    /// The loading comparison and the query table, in Markdown.
    func report(
        _ results: [BenchResult], quarryCount: (String) throws(Diagnostic) -> (millis: Double, matches: Int)
    ) throws(Failure) -> String {
        let tables = try parsedTables()
        var out = ""
        if let file = tables[className] { out += try loading(file) }
        guard let path = options.queries else { return out }
        let sql = try lines(path)
        guard sql.count == results.count else {
            throw .usage("--duckdb-queries \(path) holds \(sql.count) queries for \(results.count) benchmarked ones")
        }
        var rows: [DuckDBComparison] = []
        for r in results {
            do throws(Diagnostic) {
                let (millis, matches) = try quarryCount(r.query)
                rows.append(
                    DuckDBComparison(
                        query: r.query, quarryCountMillis: millis, quarryIdsMillis: r.execMillis,
                        quarryParallelIdsMillis: r.parallelExecMillis, matches: matches))
            } catch {
                throw .query(error, source: r.query)
            }
        }
        for threads in Set([1, cores]).sorted() {
            let answers = try run(["queries", String(threads), String(repeatCount)], tables: tables, sql)
            for (i, answer) in answers.enumerated() where i < rows.count { rows[i].duckdb[threads] = answer }
        }
        return out + table(rows)
    }

    // MARK: Loading

    private func loading(_ file: String) throws(Failure) -> String {
        let probe = "age > 50"
        let me =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let threadCounts = Set([1, cores]).sorted()
        // Each command `rounds` times, the three alternated so that a slow spell of the
        // machine weighs on all of them; one run each was a draw (1.13× and 1.03× in two runs
        // of the same build minutes apart).
        let rounds = max(1, repeatCount)
        var quarryRuns: [Subprocess] = [], duckRuns = [[Subprocess]](repeating: [], count: threadCounts.count)
        for _ in 0..<rounds {
            let quarry = Subprocess.run([me, "run", "--data", file, "--class", className, "--count", probe])
            guard quarry.status == 0 else { throw .usage("quarry run --data \(file) failed: \(quarry.output)") }
            quarryRuns.append(quarry)
            for (i, threads) in threadCounts.enumerated() {
                let duck = Subprocess.run([python, options.script, "load", file, String(threads), probe])
                guard duck.status == 0 else { throw .usage("the DuckDB peer failed: \(duck.output)") }
                duckRuns[i].append(duck)
            }
        }
        func median(_ runs: [Subprocess]) -> Subprocess { runs.sorted { $0.seconds < $1.seconds }[runs.count / 2] }
        let quarry = median(quarryRuns)
        // The finished columns, to set the load's peak memory against.
        var columns = 0
        if let loaded = try? Engine.load(contentsOfFile: file, className: className) {
            columns = loaded.schema.classNames.reduce(0) { sum, c in
                sum + (loaded.engine.columnBytes(of: c)?.reduce(0) { $0 + $1.bytes } ?? 0)
            }
        }
        var lines = [
            "",
            "### Loading \(file) (from a cold process to the first answer: the count of `\(probe)`; "
                + "the median of \(rounds) alternated runs)",
            "", "| | seconds | peak RSS (MB) | answer |", "|---|---:|---:|---:|",
            "| Quarry (`quarry run --count`) | \(f(quarry.seconds, 2)) | \(quarry.peakMB) | \(quarry.output) |",
        ]
        for (i, threads) in threadCounts.enumerated() {
            let duck = median(duckRuns[i])
            lines.append(
                "| DuckDB `read_json`, \(threads) thread\(threads == 1 ? "" : "s") | \(f(duck.seconds, 2)) "
                    + "| \(duck.peakMB) | \(duck.output) |")
            lines.append(
                "| Quarry / DuckDB (\(threads) thread\(threads == 1 ? "" : "s")) | "
                    + "\(f(quarry.seconds / duck.seconds, 2)) | | |")
        }
        if columns > 0 {
            lines.append("")
            lines.append(
                "Quarry's finished columns hold \(columns >> 20) MB; the load's peak RSS is "
                    + "\(f(Double(quarry.peakMB << 20) / Double(columns), 2))× that.")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Queries

    private func run(
        _ arguments: [String], tables: [String: String], _ sql: [String]
    ) throws(Failure) -> [Result<(count: Double, ids: Double, matches: Int), DuckDBError>] {
        let request = JSON.object(
            JSONObject([
                ("class", .string(className)),
                ("tables", .object(JSONObject(tables.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))),
                ("queries", .array(sql.map { .string($0) })),
            ]))
        let result = Subprocess.run([python, options.script] + arguments, input: Array(request.description.utf8))
        guard result.status == 0 else { throw .usage("the DuckDB peer failed: \(result.output)") }
        return result.output.split(separator: "\n").map { line in
            guard case .object(let o)? = try? JSONParser().parse(String(line)) else {
                return .failure(DuckDBError(message: String(line)))
            }
            if let e = o["error"]?.stringValue { return .failure(DuckDBError(message: e)) }
            return .success(
                (
                    o["count_ms"]?.doubleValue ?? .nan, o["ids_ms"]?.doubleValue ?? .nan,
                    Int(o["matches"]?.doubleValue ?? -1)
                ))
        }
    }

    private func table(_ rows: [DuckDBComparison]) -> String {
        let many =
            cores > 1
            ? " | Quarry ids ms (\(cores) threads) | speedup | DuckDB ids ms (\(cores) threads) | ratio" : ""
        var out = [
            "", "### Against DuckDB (\(repeatCount) runs each, median; ratio = Quarry / DuckDB)", "",
            "| Query | Quarry count ms | DuckDB count ms (1 thread) | ratio | Quarry ids ms | DuckDB ids ms (1 thread) | ratio"
                + many + " | Matches |",
            "|---|---:|---:|---:|---:|---:|---:|" + (cores > 1 ? "---:|---:|---:|---:|" : "") + "---:|",
        ]
        var notes: [String] = []
        for r in rows {
            var cells = ["`\(r.query.replacingOccurrences(of: "|", with: "\\|"))`", f(r.quarryCountMillis, 3)]
            func add(_ threads: Int, count: Bool) {
                switch r.duckdb[threads] {
                case .success(let d)?:
                    let theirs = count ? d.count : d.ids
                    cells.append(f(theirs, 3))
                    let ours =
                        count ? r.quarryCountMillis : threads == 1 ? r.quarryIdsMillis : r.quarryParallelIdsMillis
                    cells.append(f((ours ?? .nan) / theirs, 2))
                    if d.matches != r.matches, count, threads == 1 {
                        notes.append("DuckDB found \(d.matches) matches for `\(r.query)`, Quarry \(r.matches)")
                    }
                case .failure(let e)?:
                    cells += ["—", "—"]
                    if count && threads == 1 { notes.append("DuckDB could not run `\(r.query)`: \(e.message)") }
                case nil: cells += ["—", "—"]
                }
            }
            add(1, count: true)
            cells.append(f(r.quarryIdsMillis, 3))
            add(1, count: false)
            if cores > 1 {
                // Quarry's own speedup from one thread to all, beside DuckDB's all-threads time.
                let all = r.quarryParallelIdsMillis
                cells.append(all.map { f($0, 3) } ?? "—")
                cells.append(all.map { f(r.quarryIdsMillis / $0, 2) + "×" } ?? "—")
                add(cores, count: false)
            }
            cells.append(String(r.matches))
            out.append("| " + cells.joined(separator: " | ") + " |")
        }
        if !notes.isEmpty { out += [""] + notes.map { "- \($0)" } }
        return out.joined(separator: "\n") + "\n"
    }

    // MARK: Inputs

    private func parsedTables() throws(Failure) -> [String: String] {
        var tables: [String: String] = [:]
        for spec in options.tables {
            guard let eq = spec.firstIndex(of: "="), eq != spec.startIndex, spec.index(after: eq) != spec.endIndex
            else {
                throw .usage("--duckdb-table \(spec): expected CLASS=FILE")
            }
            tables[String(spec[..<eq])] = String(spec[spec.index(after: eq)...])
        }
        return tables
    }

    private func lines(_ path: String) throws(Failure) -> [String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw .usage("--duckdb-queries \(path): cannot read the file")
        }
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    private func f(_ x: Double, _ digits: Int) -> String { x.isFinite ? String(format: "%.\(digits)f", x) : "—" }
}
