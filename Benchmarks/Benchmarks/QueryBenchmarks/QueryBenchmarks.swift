import Benchmark
import Foundation
import Quarry
import QuarrySQLite
import QuarryTestSupport

// Quarry against SQLite `:memory:` on the same generated rows, in the same run: parsing,
// parse + plan, and every query of ../../queries/ on Quarry's engine and on SQLite, each
// without indexes and with the same indexes. The benchmark tool runs each benchmark in a
// process of its own, so the data is built lazily, by the benchmarks that need it.
//
// QUARRY_BENCH_ROWS sets the number of Person rows (default 100,000, so that the whole suite
// takes a few minutes; `make bench` measures 1,000,000 rows with `quarry bench`).

let rowCount = ProcessInfo.processInfo.environment["QUARRY_BENCH_ROWS"].flatMap { Int($0) } ?? 100_000
let className = SyntheticData.personClass
let indexedKeys: [FieldPath] = ["age", "name", "score", "location"]

/// The generated database, Quarry's engines and the SQLite twins, made on first use in each
/// process.
final class Fixture: @unchecked Sendable {
    static let shared = Fixture()
    private let lock = NSLock()
    private var database: Database?
    private var peers: [Bool: SQLitePeer] = [:]
    private var engines: [Bool: Engine] = [:]

    func data() -> Database {
        lock.lock()
        defer { lock.unlock() }
        if let database { return database }
        let made = SyntheticData(rows: rowCount).database()
        database = made
        return made
    }

    /// The engine over the data, with a geo index on `location` and ordered indexes on the
    /// other indexed keys, or none (as `quarry bench --index`).
    func engine(indexed: Bool) throws -> Engine {
        let db = data()
        lock.lock()
        defer { lock.unlock() }
        if let e = engines[indexed] { return e }
        let e = Engine(database: db)
        for key in indexed ? indexedKeys : [] {
            try e.createIndex(key == "location" ? .geo : .ordered, on: key, in: className)
        }
        engines[indexed] = e
        return e
    }

    func peer(indexed: Bool) throws -> SQLitePeer {
        let db = data()
        lock.lock()
        defer { lock.unlock() }
        if let p = peers[indexed] { return p }
        let p = try SQLitePeer(database: db)
        if indexed { for key in indexedKeys { try p.createIndex(on: key, in: className) } }
        peers[indexed] = p
        return p
    }
}

/// The where-clauses of a query file: one a line; blank lines and `#` comments skipped.
func queries(_ file: String) -> [String] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../queries/\(file)")
    guard let text = try? String(contentsOf: url, encoding: .utf8) else {
        fatalError("cannot read \(url.path)")
    }
    return text.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") }
}

/// A where-clause (SQL dialect), or a Parse REST find body when `json`.
func compile(_ text: String, json: Bool = false, schema: Database?) throws -> Query {
    if json { return try ParseWhere.parse(text, className: className) }
    return Query(className: className, predicate: try SQLWhere.parse(text, className: className, schema: schema))
}

let benchmarks: @Sendable () -> Void = {
    let fast = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        scalingFactor: .kilo, maxDuration: .seconds(1), maxIterations: 1_000)
    let scan = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(1), maxIterations: 5)
    let typical = "age > 50 AND name LIKE 'J%'"

    Benchmark("parse: \(typical)", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try SQLWhere.parse(typical, className: className)) }
    }
    Benchmark("parse (schema-checked): \(typical)", configuration: fast) { benchmark in
        let db = Fixture.shared.data()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try compile(typical, schema: db)) }
    } setup: {
        _ = Fixture.shared.data()
    }
    Benchmark("parse+plan (plan cache hit): \(typical)", configuration: fast) { benchmark in
        let engine = try Fixture.shared.engine(indexed: true)
        let db = Fixture.shared.data()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try engine.prepare(try compile(typical, schema: db))) }
    } setup: {
        _ = try Fixture.shared.engine(indexed: true)
    }
    Benchmark("SQLite translate+prepare: \(typical)", configuration: fast) { benchmark in
        let peer = try Fixture.shared.peer(indexed: false)
        let query = try compile(typical, schema: Fixture.shared.data())
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try peer.prepare(query)) }
    } setup: {
        _ = try Fixture.shared.peer(indexed: false)
    }

    var seen: Set<String> = []
    // The box query is in both SQL files: a full scan without indexes, a lookup with them.
    let clauses = (queries("scan.sql") + queries("indexed.sql")).filter { seen.insert($0).inserted }
    for (text, json) in clauses.map({ ($0, false) }) + queries("requests.json").map({ ($0, true) }) {
        for indexed in [false, true] {
            Benchmark("Quarry\(indexed ? " indexed" : ""): \(text)", configuration: scan) { benchmark in
                let engine = try Fixture.shared.engine(indexed: indexed)
                let query = try compile(text, json: json, schema: Fixture.shared.data())
                _ = try engine.prepare(query)
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations { blackHole(try engine.run(query)) }
            } setup: {
                _ = try Fixture.shared.engine(indexed: indexed)
            }
        }
        for indexed in [false, true] {
            Benchmark("SQLite\(indexed ? " indexed" : ""): \(text)", configuration: scan) { benchmark in
                let peer = try Fixture.shared.peer(indexed: indexed)
                let prepared = try peer.prepare(try compile(text, json: json, schema: Fixture.shared.data()))
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations { blackHole(try prepared.matchCount()) }
            } setup: {
                _ = try Fixture.shared.peer(indexed: indexed)
            }
        }
    }
}
