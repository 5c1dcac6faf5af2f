import QuarryCore
import Testing

@testable import QuarryEngine

/// `Engine.runLazily`: the objectIds of `Engine.run`'s objects without building records, as a
/// built value that later changes do not touch.
@Suite struct ResultSetTests {
    static let db = database(
        ("City", [record("c1", ["name": "Oslo", "pop": 700]), record("c2", ["name": "Lima", "pop": 9000])]),
        (
            "Person",
            [
                record("p1", ["name": "Ann", "age": 31, "city": pointer("City", "c2")]),
                record("p2", ["name": "Bob", "age": 52, "city": pointer("City", "c1")]),
                record("p3", ["age": 67, "city": pointer("City", "gone")]),
                record("p4", ["name": "Dan", "age": 12]),
            ]
        ))

    static func rows(_ result: LazyQueryResult) -> ResultSet? {
        if case .rows(let r) = result { return r }
        return nil
    }

    @Test(arguments: [
        Query(className: "Person", predicate: compare("age", .gt, 30, .sql)),
        Query(
            className: "Person", predicate: compare("age", .gt, 30, .sql), order: [.key("name", .descending)], skip: 1),
        Query(className: "Person", predicate: .constant(true), keys: ["name"], includes: ["city"]),
        Query(className: "Person", predicate: .constant(true), excludeKeys: ["age"], includes: ["city"]),
        Query(className: "Person", predicate: compare("city.pop", .gt, 1000, .sql)),
        Query(className: "Person", predicate: compare("age", .gt, 100, .sql)),
    ])
    func readsWhatRunReturns(_ query: Query) throws {
        let engine = Engine(database: Self.db)
        let expected = try ReferenceEvaluator(database: Self.db).run(query)
        let lazy = try #require(Self.rows(try engine.runLazily(query)))
        #expect(lazy.count == expected.records.count)
        #expect(lazy.objectIds == expected.objectIds)
        #expect(Array(lazy) == expected.objectIds)
        #expect(lazy.indices.map { lazy.objectId(at: $0) } == expected.objectIds)
        #expect(try engine.run(query) == expected)
    }

    /// ObjectIds of every length (the copy takes two words from 8 to 16 bytes, a byte copy
    /// otherwise) and any script, in scan order and sorted, copied on one thread and in chunks
    /// on several (docs/ARCHITECTURE.md#result-sets).
    @Test(arguments: [(1, 4), (2, 1), (2, 3), (3, 7)] as [(Int, Int)])
    func objectIdsOfAnyLengthAreCopiedWhole(threads: Int, morselRows: Int) throws {
        let ids =
            (1...40).map { n in
                String((0..<n).map { i in Character(Unicode.Scalar(UInt8(97 + (n + i) % 26))) })
            } + ["ø", "日本語のID", "😀x", String(repeating: "é", count: 9)]
        let db = database(("T", ids.enumerated().map { i, id in record(id, ["n": .int(Int64(i % 5))]) }))
        let engine = Engine(database: db, parallelism: ScanParallelism(threads: threads, morselRows: morselRows))
        let reference = ReferenceEvaluator(database: db)
        for query in [
            Query(className: "T"),
            Query(className: "T", predicate: compare("n", .ne, 2, .sql)),
            Query(className: "T", order: [.key("n", .descending)]),
            Query(className: "T", predicate: compare("n", .gt, 9, .sql)),
        ] {
            let lazy = try #require(Self.rows(try engine.runLazily(query)))
            let expected = try reference.run(query).objectIds
            #expect(lazy.objectIds == expected)
            #expect(
                lazy.indices.map { i in lazy.withUTF8(at: i) { Array($0) } } == expected.map { Array($0.utf8) })
        }
    }

    @Test func countsAreCounts() throws {
        let engine = Engine(database: Self.db)
        var query = Query(className: "Person", predicate: compare("age", .gt, 30, .sql))
        query.count = true
        guard case .count(let n) = try engine.runLazily(query) else {
            Issue.record("not a count")
            return
        }
        #expect(n == 3)
    }

    @Test func errorsAreTheReferences() {
        let engine = Engine(database: Self.db)
        #expect(
            errorCode { _ = try engine.runLazily(Query(className: "Nope", predicate: .constant(true))) }
                == "query.unknown-class")
        #expect(
            errorCode { _ = try engine.runLazily(Query(className: "Person", predicate: .constant(true), skip: -1)) }
                == "query.invalid-skip")
    }

    /// A result set is a built value: changes after its run neither trap nor show through.
    @Test func aResultSetKeepsTheObjectsOfItsRun() throws {
        let engine = Engine(database: Self.db)
        let rows = try #require(Self.rows(try engine.runLazily(Query(className: "Person"))))
        engine.insert(record("p9", ["age": 1]), into: "Person")
        #expect(engine.delete("p1", from: "Person"))
        #expect(rows.objectIds == ["p1", "p2", "p3", "p4"])
        #expect(rows.objectId(at: 0) == "p1")
    }

    /// A result set made after a change reads the changed data.
    @Test func aResultSetReadsTheDataOfItsRun() throws {
        let engine = Engine(database: Self.db)
        let query = Query(className: "Person", predicate: compare("age", .gt, 30, .sql))
        engine.insert(record("p5", ["name": "Eve", "age": 44]), into: "Person")
        #expect(engine.delete("p1", from: "Person"))
        let lazy = try #require(Self.rows(try engine.runLazily(query)))
        #expect(lazy.objectIds == ["p2", "p3", "p5"])
    }
}
