import Foundation
import Quarry
import Testing

@testable import QuarryCLI

/// The queries `make bench` and the benchmark suite measure (Benchmarks/queries/*.sql): each
/// compiles against the generated data, SQLite can run each one, and SQLite finds exactly the
/// objects Quarry finds, in the same order.
@Suite struct StandardQueryTests {
    static let database = SyntheticData(rows: 2_000).database()
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

    static let all = queries("scan.sql") + queries("indexed.sql")

    @Test func theQueryFilesAreThere() {
        #expect(Self.queries("scan.sql").count >= 10)
        #expect(Self.queries("indexed.sql").count >= 5)
    }

    @Test(arguments: all)
    func sqliteFindsWhatQuarryFinds(_ text: String) throws {
        let query = Query(className: "Person",
                          predicate: try SQLWhere.parse(text, className: "Person", schema: Self.database))
        let expected = try ReferenceEvaluator(database: Self.database).run(query).objectIds
        #expect(try Self.peer.prepare(query).objectIds() == expected)
        #expect(try Self.indexedPeer.prepare(query).objectIds() == expected)
    }
}
