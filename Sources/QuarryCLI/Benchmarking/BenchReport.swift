import CSQLite
import Foundation
import Quarry

/// The results of one `quarry bench` run, printed as the JSON of docs/ARCHITECTURE.md#benchmarks or
/// as a Markdown table that can go into a README as it is.
public struct BenchReport: Sendable {
    public var results: [BenchResult]
    /// Objects of the benchmarked class (what a full scan visits).
    public var rows: Int
    public var className: String
    /// The Quarry executor measured (`BenchExecutor.name`).
    public var executor: String
    public var indexes: [String]
    /// Heap bytes the engine holds (its columns and indexes), per object of every class.
    public var quarryBytesPerRow: Double?
    /// SQLite's allocation for the tables and indexes, per object of every class.
    public var sqliteBytesPerRow: Double?
    /// Things the reader should know: indexes SQLite has no equivalent for, and so on.
    public var notes: [String]
    /// The queries that failed, with their diagnostics; the others were measured.
    public var failures: [BenchFailure] = []

    public init(
        results: [BenchResult], rows: Int, className: String, executor: String, indexes: [String],
        quarryBytesPerRow: Double?, sqliteBytesPerRow: Double?, notes: [String]
    ) {
        self.results = results
        self.rows = rows
        self.className = className
        self.executor = executor
        self.indexes = indexes
        self.quarryBytesPerRow = quarryBytesPerRow
        self.sqliteBytesPerRow = sqliteBytesPerRow
        self.notes = notes
    }

    /// `[{"query","plan_us","exec_ms","matches","sqlite_exec_ms","ratio"}]`, one object a
    /// line; the SQLite fields are null when SQLite did not run the query.
    public func json() -> String {
        let lines = results.map { r in
            "{\"query\":\(Self.quote(r.query)),\"plan_us\":\(Self.number(r.planMicros, 3)),"
                + "\"exec_ms\":\(Self.number(r.execMillis, 4)),\"matches\":\(r.matches),"
                + "\"sqlite_exec_ms\":\(r.sqliteExecMillis.map { Self.number($0, 4) } ?? "null"),"
                + "\"ratio\":\(r.ratio.map { Self.number($0, 4) } ?? "null")}"
        }
        let failed = failures.map { f in
            "{\"query\":\(Self.quote(f.query)),\"ok\":false,\"errors\":["
                + f.errors.map { e in
                    "{" + e.map { "\(JSONText.quote($0.0)):\($0.1.json)" }.joined(separator: ",") + "}"
                }.joined(separator: ",") + "]}"
        }
        let all = lines + failed
        return all.isEmpty ? "[]\n" : "[\n" + all.joined(separator: ",\n") + "\n]\n"
    }

    /// A Markdown table with throughput, then the notes and the setting.
    public func markdown() -> String {
        let sqlite = results.contains { $0.sqliteExecMillis != nil || $0.sqliteNote != nil }
        let rebind = results.contains { $0.rebindMicros != nil }
        var header = ["query", "plan µs"]
        if rebind { header.append("new literals µs") }
        if sqlite { header.append("SQLite prepare µs") }
        header.append("Quarry ms")
        let threads = parallelThreads
        if let threads { header += ["Quarry \(threads) threads ms", "speedup"] }
        if sqlite { header += ["SQLite ms", "Quarry/SQLite"] }
        header.append("Quarry rows/s")
        if sqlite { header.append("SQLite rows/s") }
        header.append("matches")
        var out =
            "| " + header.joined(separator: " | ") + " |\n|---" + String(repeating: "|--:", count: header.count - 1)
            + "|\n"
        var remarks: [String] = []
        for r in results {
            var row = [
                "`" + r.query.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "`", with: "'") + "`",
                String(format: "%.1f", r.planMicros),
            ]
            if rebind { row.append(r.rebindMicros.map { String(format: "%.1f", $0) } ?? "—") }
            if sqlite { row.append(r.sqlitePrepareMicros.map { String(format: "%.1f", $0) } ?? "—") }
            row.append(Self.millis(r.execMillis))
            if threads != nil { row += parallelCells(r) }
            if sqlite {
                row += [r.sqliteExecMillis.map(Self.millis) ?? "—", r.ratio.map { String(format: "%.2f", $0) } ?? "—"]
            }
            row.append(Self.rate(rows, r.execMillis))
            if sqlite { row.append(r.sqliteExecMillis.map { Self.rate(rows, $0) } ?? "—") }
            row.append(String(r.matches))
            out += "| " + row.joined(separator: " | ") + " |\n"
            if let note = r.sqliteNote { remarks.append("`\(r.query)`: SQLite \(note)") }
            if r.rebindReusedOwnPlans {
                remarks.append(
                    "`\(r.query)`: new literals µs times texts whose own plans were cached: a literal that "
                        + "varied is not a parameter of the shape's plan (an inner query's is part of the shape)")
            }
            if let m = r.parallelMatches, m != r.matches {
                remarks.append(
                    "`\(r.query)`: \(m) matches on \(threads ?? 0) threads, \(r.matches) on one: the results differ")
            }
            if let m = r.sqliteMatches, m != r.matches {
                remarks.append("`\(r.query)`: SQLite found \(m) matches, Quarry \(r.matches): the results differ")
            }
        }
        for f in failures {
            let first = f.errors.first.flatMap { e in e.first { $0.0 == "code" }.map { "\($0.1.json)" } } ?? ""
            remarks.append("`\(f.query)`: failed (\(first.replacingOccurrences(of: "\"", with: "")))")
        }
        out += "\n"
        for line in remarks + notes { out += "- \(line)\n" }
        out += "- \(rows) \(className) objects; Quarry executor: \(executor)"
        if sqlite { out += "; SQLite \(String(cString: sqlite3_libversion())) `:memory:`" }
        out += "; indexes: " + (indexes.isEmpty ? "none" : indexes.joined(separator: ", ")) + "\n"
        var memory: [String] = []
        if let q = quarryBytesPerRow {
            memory.append(
                "Quarry \(Int(q.rounded())) B (heap in use, glibc mallinfo2, after minus before building the engine and its indexes from the loaded data)"
            )
        }
        if let s = sqliteBytesPerRow {
            memory.append("SQLite \(Int(s.rounded())) B (sqlite3_memory_used, tables and indexes)")
        }
        if !memory.isEmpty { out += "- memory per object: " + memory.joined(separator: "; ") + "\n" }
        return out
    }

    /// Threads of the parallel column (nil: no query ran on several threads).
    public var parallelThreads: Int? = nil

    /// Results whose SQLite match count differs from Quarry's.
    public var disagreements: [BenchResult] {
        results.filter { r in r.sqliteMatches.map { $0 != r.matches } ?? false }
    }

    private static func millis(_ ms: Double) -> String {
        ms >= 100 ? String(format: "%.0f", ms) : ms >= 1 ? String(format: "%.1f", ms) : String(format: "%.3f", ms)
    }

    /// Objects per second a full scan would cover in that time.
    private static func rate(_ rows: Int, _ ms: Double) -> String {
        guard ms > 0 else { return "—" }
        let perSecond = Double(rows) / (ms / 1000)
        if perSecond >= 1e9 { return String(format: "%.1f G", perSecond / 1e9) }
        if perSecond >= 1e6 { return String(format: "%.1f M", perSecond / 1e6) }
        if perSecond >= 1e3 { return String(format: "%.1f k", perSecond / 1e3) }
        return String(format: "%.0f", perSecond)
    }

    private static func number(_ x: Double, _ places: Int) -> String {
        guard x.isFinite else { return "null" }
        return String(format: "%.\(places)f", x)
    }

    /// A JSON string literal.
    static func quote(_ s: String) -> String { JSONWriter.string(.string(s)) }
}

/// A query `quarry bench` could not measure, with its diagnostics in the `--json` shape of
/// docs/ARCHITECTURE.md#diagnostic-output.
public struct BenchFailure: Sendable {
    public var query: String
    var errors: [[(String, JSONScalar)]]
}
