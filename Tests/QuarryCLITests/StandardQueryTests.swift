import Foundation
import Quarry
@testable import QuarrySQLite
import Testing
import QuarryTestSupport

@testable import QuarryCLI

/// The queries `make bench` and the benchmark suite measure (Benchmarks/queries/): each
/// compiles against the generated data, SQLite can run each one, and SQLite and the indexed
/// engine find exactly the objects the reference evaluator finds, in the same order.
@Suite struct StandardQueryTests {
    static let database = SyntheticData(rows: 10_000).database()
    static let peer = SQLitePeerBox(try! SQLitePeer(database: database))
    static let indexedPeer: SQLitePeerBox = {
        let peer = try! SQLitePeer(database: database)
        for key in ["age", "name", "score", "location"] { _ = try! peer.createIndex(on: FieldPath(key), in: "Person") }
        return SQLitePeerBox(peer)
    }()

    static func queries(_ file: String) -> [String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Benchmarks/queries/\(file)")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// What `quarry bench --index age --index name --index score --index location` measures.
    static let engine = ExecutorBox(
        try! BenchExecutor.engine(
            database, indexes: ["age", "name", "score", "location"],
            in: "Person"))

    static let clauses = queries("scan.sql") + queries("indexed.sql")
    static let requests = queries("requests.json")

    @Test func theQueryFilesAreThere() {
        #expect(Self.queries("scan.sql").count >= 10)
        #expect(Self.queries("indexed.sql").count >= 5)
        #expect(Self.requests.count >= 8)
    }

    @Test(arguments: clauses)
    func sqliteFindsWhatQuarryFindsForEachClause(_ text: String) throws {
        try agree(
            Query(
                className: "Person",
                predicate: try SQLWhere.parse(text, className: "Person", schema: Self.database)))
    }

    @Test(arguments: requests)
    func sqliteFindsWhatQuarryFindsForEachRequest(_ text: String) throws {
        try agree(try ParseWhere.parse(text, className: "Person"))
    }

    private func agree(_ query: Query) throws {
        let evaluator = ReferenceEvaluator(database: Self.database)
        if query.count {
            guard case .count(let n) = try evaluator.run(query) else {
                Issue.record("no count")
                return
            }
            #expect(try Self.peer.prepare(query).matchCount() == n)
            #expect(try Self.engine.execute(query) == .count(n))
            return
        }
        let expected = try evaluator.run(query).objectIds
        #expect(!expected.isEmpty)
        #expect(try Self.peer.prepare(query).objectIds() == expected)
        #expect(try Self.indexedPeer.prepare(query).objectIds() == expected)
        #expect(try Self.engine.execute(query).objectIds == expected)
    }
}

/// An engine is not safe to use from several threads at once; parallel tests take turns.
final class ExecutorBox: @unchecked Sendable {
    private let executor: BenchExecutor
    private let lock = NSLock()
    init(_ executor: BenchExecutor) { self.executor = executor }

    func execute(_ query: Query) throws -> QueryResult {
        lock.lock()
        defer { lock.unlock() }
        return try executor.execute(query)
    }
}
