import Quarry
import QuarrySQLite
import Testing

/// EXPLAIN on the store: the statement with placeholders, the residual with its reason, and
/// SQLite's own plan, in text and JSON.
@Suite struct StoreExplainTests {
    static func store(_ file: StoreFile) throws -> SQLiteStore {
        let store = try file.open()
        try store.apply(
            (0..<50).map { n in
                .save(
                    Record(
                        objectId: "p\(n)",
                        fields: [
                            ("age", .int(Int64(n))), ("name", .string("n\(n)")),
                            ("tags", .array([.string("t\(n % 3)")])),
                        ]), in: "Person")
            })
        return store
    }

    @Test func pushedQueryShowsSQLAndTheIndexSQLiteUses() throws {
        let file = StoreFile()
        let store = try Self.store(file)
        try store.declareIndex(.ordered, on: "age", in: "Person")
        var q = Query(
            className: "Person", predicate: .leaf(.compare(.key("age"), .gt, .literal(.int(40)), []), .document))
        q.order = [.key("age", .descending)]
        q.limit = 3
        let e = try store.explanation(q)
        #expect(e.residual.isEmpty && e.orderPushed && e.pagePushed)
        #expect(e.statement?.contains("?1") == true && e.statement?.contains("40") == false)
        #expect(e.plan.contains { $0.contains("USING INDEX") })
        #expect(e.text.contains("residual: none"))
        #expect(try store.query(q).objectIds == ["p49", "p48", "p47"])
    }

    @Test func residualIsListedWithItsReason() throws {
        let file = StoreFile()
        let store = try Self.store(file)
        let q = Query(
            className: "Person",
            predicate: .and([
                .leaf(.compare(.key("age"), .lt, .literal(.int(10)), []), .document),
                .leaf(
                    .string(.key("name"), .matches(RegexOptions(wholeString: true)), .literal(.string("n[0-4]")), []),
                    .document),
            ]))
        let e = try store.explanation(q)
        #expect(e.residual.count == 1)
        #expect(e.residual.first?.reason.contains("may throw") == true)
        #expect(!e.orderPushed && !e.pagePushed)
        let json = JSONWriter.string(e.json)
        #expect(json.contains("\"residual\":[{") && json.contains("\"sql\":\"SELECT"))
        #expect(try store.query(q).objectIds == ["p0", "p1", "p2", "p3", "p4"])
    }
}
