import Foundation
import Quarry

/// The store benchmark over any `BenchDatabase` (docs/STORAGE.md#benchmarks): import
/// throughput against the database's bulk load, then each standard query (Benchmarks/queries)
/// on the in-memory engine, on Quarry's backend over the database, and hand-written in the
/// database's SQL on the same data. Every query's answer size must agree across the three.
@MainActor struct StoreBench {
    struct Suite {
        let title: String
        let file: String
        let dialect: Dialect
        /// Declared (in every backend) before the suite runs; they stay for later suites.
        let indexes: [(FieldPath, IndexKind)]
    }

    static let suites = [
        Suite(title: "Full scans (no indexes)", file: "scan.sql", dialect: .sql, indexes: []),
        Suite(title: "Parse REST requests (no indexes)", file: "requests.json", dialect: .json, indexes: []),
        Suite(
            title: "Indexed lookups", file: "indexed.sql", dialect: .sql,
            indexes: [("age", .ordered), ("name", .ordered), ("score", .ordered), ("location", .geo)]),
    ]

    nonisolated static let minimumSeconds = 0.3
    nonisolated static let maximumRuns = 500

    let dataFile: String
    let queriesDirectory: String
    let className: String
    let repeats: Int

    /// Times `body`, returning the median of its runs (seconds) and its last result: `repeats`
    /// runs, and more until they add up to `minimumSeconds` (at most `maximumRuns`), so that a
    /// query of a fraction of a millisecond is the median of hundreds of runs rather than of a
    /// few that one thread wake-up of the machine can move.
    ///
    /// The runs are made off the main actor, from the global executor, as a server's request
    /// handler calls a store: timed from the main actor, every call of an async interface
    /// hopped on to it and back, which doubled a point lookup's time on this machine
    /// (docs/STORAGE.md#benchmarks).
    @concurrent nonisolated static func median<T: Sendable>(
        repeats: Int, _ body: @Sendable () async throws -> T
    ) async throws -> (Double, T) {
        var times: [Double] = []
        var last: T?
        var total = 0.0
        while times.count < max(repeats, 1) || (total < minimumSeconds && times.count < maximumRuns) {
            // The previous answer is freed before the clock starts: a run is timed without
            // freeing the one before it (half a million records take a while to free).
            last = nil
            let start = ContinuousClock.now
            last = try await body()
            times.append(seconds(ContinuousClock.now - start))
            total += times[times.count - 1]
        }
        return (times.sorted()[times.count / 2], last!)
    }

    /// Prints the tables; returns the number of answers whose sizes differ.
    func run(_ databases: [any BenchDatabase]) async throws -> Int {
        var mismatches = 0
        print("## Store benchmark: \(dataFile)\n")
        let loadStart = ContinuousClock.now
        let data = try DataFile.load(path: dataFile)
        let objects = data.classNames.reduce(0) { $0 + (data[$1]?.records.count ?? 0) }
        print("in-memory load: \(objects) objects in \(ms(seconds(ContinuousClock.now - loadStart))) ms\n")
        let memory = InMemoryBackend(database: data)
        var backends: [(any BenchDatabase, any QueryBackend)] = []
        print("### Import\n")
        print("| database | Quarry import (rows/s) | bulk load (rows/s) | import / bulk load |")
        print("|---|--:|--:|--:|")
        for database in databases {
            let start = ContinuousClock.now
            let imported = try database.importData(dataFile)
            let importRate = Double(imported) / seconds(ContinuousClock.now - start)
            let (rows, bulkSeconds) = try database.bulkLoad()
            let bulkRate = Double(rows) / bulkSeconds
            print(
                "| \(database.name) | \(Int(importRate)) | \(Int(bulkRate)) | \(String(format: "%.2f", importRate / bulkRate)) |"
            )
            backends.append((database, try database.backend()))
        }
        for suite in Self.suites {
            for (key, kind) in suite.indexes {
                try await memory.createIndex(kind, on: key, in: className)
                for (_, backend) in backends { try await backend.createIndex(kind, on: key, in: className) }
            }
            let texts = try Self.lines(of: "\(queriesDirectory)/\(suite.file)")
            print("\n### \(suite.title)\n")
            print(
                "| query | rows | in-memory ms | "
                    + databases.map {
                        "\($0.name) store ms | \($0.name) SQL ms | overhead | \($0.name) SQL awaited ms | overhead"
                    }.joined(separator: " | ") + " |")
            print("|---|--:|--:|" + String(repeating: "--:|--:|--:|--:|--:|", count: databases.count))
            var handWritten: [[String]] = []
            for database in databases {
                let sql = try Self.lines(of: "\(queriesDirectory)/\(database.name)/\(suite.file).sql")
                guard sql.count == texts.count else {
                    throw BenchFailure(
                        "\(database.name)/\(suite.file).sql has \(sql.count) statements for \(texts.count) queries")
                }
                handWritten.append(sql)
            }
            for (i, text) in texts.enumerated() {
                let query = try suite.dialect.compile(text, className: className, options: CompileOptions(schema: data))
                let (memoryTime, memoryResult) = try await Self.median(repeats: repeats) {
                    try await memory.run(query, variables: [:])
                }
                let rows = Self.size(memoryResult)
                var cells = ["`\(text.replacingOccurrences(of: "|", with: "\\|"))`", "\(rows)", ms(memoryTime)]
                for (d, (database, backend)) in backends.enumerated() {
                    let (storeTime, storeResult) = try await Self.median(repeats: repeats) {
                        try await backend.run(query, variables: [:])
                    }
                    let sql = handWritten[d][i]
                    nonisolated(unsafe) let handWrittenDatabase = database
                    let (sqlTime, sqlRows) = try await Self.median(repeats: repeats) {
                        try handWrittenDatabase.runHandWritten(sql)
                    }
                    let (awaitedTime, _) = try await Self.median(repeats: repeats) {
                        try await Self.awaited { try handWrittenDatabase.runHandWritten(sql) }
                    }
                    var note = ""
                    if Self.size(storeResult) != rows || sqlRows != rows {
                        mismatches += 1
                        note = " ≠ (store \(Self.size(storeResult)), SQL \(sqlRows))"
                    }
                    cells += [
                        ms(storeTime), ms(sqlTime) + note,
                        String(format: "%+.0f %%", (storeTime / sqlTime - 1) * 100), ms(awaitedTime),
                        String(format: "%+.0f %%", (storeTime / awaitedTime - 1) * 100),
                    ]
                }
                print("| " + cells.joined(separator: " | ") + " |")
            }
        }
        return mismatches
    }

    /// `body` run on a Dispatch thread and awaited: the two thread hops an async call into a
    /// blocking database makes (GRDB's async read runs its block on a reader's queue and then
    /// resumes the task), so that the store's async call can be compared with the same
    /// statement called the same way.
    nonisolated static func awaited(_ body: @escaping @Sendable () throws -> Int) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }

    static func size(_ result: QueryResult) -> Int {
        switch result {
        case .count(let n): return n
        case .records(let rs): return rs.count
        }
    }

    /// The non-empty lines of a file that are not `#` comments.
    static func lines(of path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.isEmpty && !$0.hasPrefix("#") && !$0.hasPrefix("--") }
    }
}

func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

func ms(_ s: Double) -> String { String(format: s < 0.001 ? "%.3f" : s < 0.01 ? "%.2f" : "%.1f", s * 1000) }
