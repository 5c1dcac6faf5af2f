// The PostgreSQL store against the same queries hand-written in SQL on the same database, and
// Quarry's import against PostgreSQL's COPY of the same rows (docs/STORAGE.md#postgresql-benchmarks):
//
//     quarry-bench-postgres --store postgresql://user@host:port/db [--rows N] [--repeat R]
//
// The database must be empty; the tool imports SyntheticData (Person and City) into it.
import Foundation
import Logging
import PostgresNIO
import Quarry
import QuarryPostgres
import QuarryTestSupport

var rows = 1_000_000
var repeatCount = 5
var url: String?
var arguments = CommandLine.arguments.dropFirst()
func usage(_ problem: String) -> Never {
    FileHandle.standardError.write(
        Data("error: \(problem)\nusage: quarry-bench-postgres --store URL [--rows N] [--repeat R]\n".utf8))
    exit(2)
}
while let option = arguments.popFirst() {
    guard let value = arguments.popFirst() else { usage("\(option) needs a value") }
    switch option {
    case "--rows":
        guard let n = Int(value), n > 0 else { usage("--rows takes a count") }
        rows = n
    case "--repeat":
        guard let n = Int(value), n > 0 else { usage("--repeat takes a count") }
        repeatCount = n
    case "--store": url = value
    default: usage("unknown option \(option)")
    }
}
guard let url, let parts = URLComponents(string: url) else { usage("--store postgresql://… is required") }

/// The same statements on a connection of the tool's own, for the hand-written SQL and COPY.
let socket = parts.queryItems?.first { $0.name == "host" }?.value
let user = parts.user ?? "postgres", database = String(parts.path.dropFirst())
let configuration =
    socket.map {
        PostgresClient.Configuration(
            unixSocketPath: "\($0)/.s.PGSQL.\(parts.port ?? 5432)", username: user, password: parts.password,
            database: database)
    }
    ?? PostgresClient.Configuration(
        host: parts.host ?? "localhost", port: parts.port ?? 5432, username: user, password: parts.password,
        database: database, tls: .disable)
let client = PostgresClient(configuration: configuration, backgroundLogger: Logger(label: "bench"))
let running = Task { await client.run() }

func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

/// Milliseconds with two decimals below 10 (a short answer's time), one above.
func ms(_ x: Double) -> String { String(format: x < 10 ? "%.2f" : "%.1f", x) }

func sql(_ text: String) async throws -> Int {
    var n = 0
    for try await _ in try await client.query(PostgresQuery(unsafeSQL: text)) { n += 1 }
    return n
}

/// Rows of a hand-written `SELECT objectid, raw`, each column read as a string the way an
/// application reads its rows (counting rows without reading them would flatter the SQL).
func texts(_ text: String) async throws -> Int {
    var n = 0
    for try await _ in try await client.query(PostgresQuery(unsafeSQL: text)).decode((String, String).self) { n += 1 }
    return n
}

do {
    let store = try await PostgresStore.open(url: url)
    guard try await store.catalog().isEmpty else { usage("the database must be empty (the tool imports into it)") }
    let data = SyntheticData(rows: rows)
    let db = data.database()
    let total = db.classNames.reduce(0) { $0 + ($1 == "" ? 0 : db[$1]!.records.count) }
    let importSeconds = try await seconds {
        try await store.transaction { @Sendable t in
            for name in db.classNames { for r in db[name]!.records { try t.save(r, in: name) } }
        }
    }

    // The field keys (f<n>) of Person, for the hand-written SQL.
    var keys: [String: String] = [:]
    let table =
        "c"
        + (try await client.query("SELECT id::text FROM quarry_classes WHERE name = 'Person'")
            .collect().first!.decode(String.self))
    for try await (name, number) in try await client.query(
        "SELECT f.name, f.number::text FROM quarry_fields f JOIN quarry_classes c ON c.id = f.class WHERE c.name = 'Person'"
    ).decode((String, String).self) { keys[name] = "f" + number }

    // COPY of the very rows the import wrote, into a twin table.
    let file = "/tmp/quarry-bench-copy-\(ProcessInfo.processInfo.processIdentifier).tsv"
    _ = try await sql("COPY (SELECT objectid, createdat, updatedat, doc, raw FROM \(table) ORDER BY seq) TO '\(file)'")
    _ = try await sql("CREATE TABLE bench_copy (LIKE \(table) INCLUDING ALL)")
    let copyRows = db["Person"]!.records.count
    let copySeconds = try await seconds {
        _ = try await sql("COPY bench_copy (objectid, createdat, updatedat, doc, raw) FROM '\(file)'")
    }
    _ = try await sql("DROP TABLE bench_copy")
    try? FileManager.default.removeItem(atPath: file)
    // The declared indexes come after COPY's twin is loaded: the import did not maintain them
    // either, so both loads keep the same two (seq and objectid).
    for key in ["age", "name", "score"] { try await store.createIndex(.ordered, on: FieldPath(key), in: "Person") }
    print("## PostgreSQL store, \(rows) Person rows\n")
    print("| import | rows/s |\n|---|---|")
    print(
        "| Quarry import (one transaction, upserts of 2,000 rows, \(total) objects) | \(Int(Double(total) / importSeconds)) |"
    )
    print("| PostgreSQL COPY of the same Person rows | \(Int(Double(copyRows) / copySeconds)) |\n")

    // Each standard query beside the same filter written by hand on the same tables.
    func k(_ name: String) -> String { keys[name]! }
    func element(_ key: String, _ value: String) -> String {
        "EXISTS (SELECT 1 FROM jsonb_array_elements_text(doc->'\(k(key))') AS e(v) WHERE v = '\(value)')"
    }
    let cases: [(String, String)] = [
        ("age > 50", "doc->'\(k("age"))' > '50'::jsonb"),
        ("age = 42", "doc->'\(k("age"))' = '42'::jsonb"),
        ("age IN (7, 21, 42)", "doc->'\(k("age"))' IN ('7'::jsonb, '21'::jsonb, '42'::jsonb)"),
        ("name = 'Ian764'", "(doc->>'\(k("name"))') COLLATE \"C\" = 'Ian764'"),
        ("score >= 99.5", "doc->'\(k("score"))' >= '99.5'::jsonb"),
        (
            "age BETWEEN 10 AND 20 AND NOT (score > 50)",
            "doc->'\(k("age"))' BETWEEN '10'::jsonb AND '20'::jsonb AND doc->'\(k("score"))' <= '50'::jsonb"
        ),
        ("tags = 'a1'", element("tags", "a1")),
        ("age > 50 AND name LIKE 'J%'", "doc->'\(k("age"))' > '50'::jsonb AND doc->>'\(k("name"))' ILIKE 'J%'"),
        // The polygon is a rectangle: by hand, the box it covers (as the SQLite benchmark writes it).
        (
            "Within(location, 'POLYGON((-97.2 3, -96.7 3, -96.7 3.5, -97.2 3.5, -97.2 3))') = TRUE",
            "(doc->'\(k("location"))'->>0)::float8 BETWEEN 3 AND 3.5 AND (doc->'\(k("location"))'->>1)::float8 BETWEEN -97.2 AND -96.7"
        ),
        // A Parse REST request (the JSON dialect), compiled as the server compiles it.
        (
            #"{"where":{"tags":{"$all":["a1","b2"]},"age":{"$gte":10}}}"#,
            "\(element("tags", "a1")) AND \(element("tags", "b2")) AND doc->'\(k("age"))' >= '10'::jsonb"
        ),
    ]
    let schema = try await store.schema()
    print("| query | Quarry store (ms) | hand-written SQL (ms) | ratio | rows | residual |")
    print("|---|---|---|---|---|---|")
    for (text, filter) in cases {
        let dialect = text.hasPrefix("{") ? Dialect.json : .sql
        var query = try dialect.compile(text, className: "Person", options: CompileOptions(schema: schema))
        query.limit = nil
        query.profile = .exact
        var n = 0
        let explanation = try await store.explain(query, variables: [:])
        var quarry: [Double] = []
        var hand: [Double] = []
        let handSQL = "SELECT objectid, raw FROM \(table) WHERE \(filter) ORDER BY seq"
        // At least `repeatCount` runs of each, alternated, and more until the two sides add up
        // to half a second (at most 500): a query of a fraction of a millisecond is then the
        // median of hundreds of runs rather than of a few that one thread wake-up can move.
        var spent = 0.0
        while quarry.count < repeatCount || (spent < 0.5 && quarry.count < 500) {
            // The answer is freed after the clock stops, as quarry-bench-store does (the
            // hand-written side keeps no rows).
            var answer: QueryResult? = nil
            quarry.append(try await seconds { answer = try await store.run(query, variables: [:]) })
            n = answer?.objectIds.count ?? 0
            answer = nil
            var m = 0
            hand.append(try await seconds { m = try await texts(handSQL) })
            if m != n { print("<!-- \(text): the hand-written SQL returned \(m) rows, Quarry \(n) -->") }
            spent += quarry[quarry.count - 1] + hand[hand.count - 1]
        }
        let (q, h) = (median(quarry) * 1000, median(hand) * 1000)
        print(
            "| `\(text)` | \(ms(q)) | \(ms(h)) | \(String(format: "%.2f", q / h)) | \(n) | \(explanation.residual.isEmpty ? "none" : "\(explanation.residual.count) conjunct(s)") |"
        )
    }
    store.close()
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    running.cancel()
    exit(1)
}
running.cancel()
