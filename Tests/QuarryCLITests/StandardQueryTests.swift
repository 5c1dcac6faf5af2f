import Foundation
import Quarry
import Testing

@testable import QuarryCLI

/// The queries `make bench` and the benchmark suite measure (Benchmarks/queries/*.sql): each
/// compiles against the generated data, SQLite can run each one, and SQLite finds exactly the
/// objects Quarry finds, in the same order.
@Suite struct StandardQueryTests {
    static let database = SyntheticData(rows: 10_000).database()
    static let peer = SQLitePeerBox(try! SQLitePeer(database: database))
    static let indexedPeer: SQLitePeerBox = {
        let peer = try! SQLitePeer(database: database)
        for key in ["age", "name", "score", "location"] { _ = try! peer.createIndex(on: KeyPath(key), in: "Person") }
        return SQLitePeerBox(peer)
    }()

    static func queries(_ file: String) -> [String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Benchmarks/queries/\(file)")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    static let clauses = queries("scan.sql") + queries("indexed.sql")
    static let requests = queries("requests.json")

    @Test func theQueryFilesAreThere() {
        #expect(Self.queries("scan.sql").count >= 10)
        #expect(Self.queries("indexed.sql").count >= 5)
        #expect(Self.requests.count >= 8)
    }

    @Test(arguments: clauses)
    func sqliteFindsWhatQuarryFindsForEachClause(_ text: String) throws {
        try agree(Query(className: "Person",
                        predicate: try SQLWhere.parse(text, className: "Person", schema: Self.database)))
    }

    @Test(arguments: requests)
    func sqliteFindsWhatQuarryFindsForEachRequest(_ text: String) throws {
        try agree(try ParseWhere.decode(text, className: "Person"))
    }

    private func agree(_ query: Query) throws {
        let evaluator = ReferenceEvaluator(database: Self.database)
        if query.count {
            guard case .count(let n) = try evaluator.run(query) else {
                Issue.record("no count")
                return
            }
            #expect(try Self.peer.prepare(query).matchCount() == n)
            return
        }
        let expected = try evaluator.run(query).objectIds
        #expect(!expected.isEmpty)
        #expect(try Self.peer.prepare(query).objectIds() == expected)
        #expect(try Self.indexedPeer.prepare(query).objectIds() == expected)
    }
}
