import Quarry
import QuarryPostgres
import Testing

/// EXPLAIN on the PostgreSQL store: the statement with `$n` placeholders (never the literals),
/// the residual with its reasons, and PostgreSQL's own `EXPLAIN (FORMAT JSON)` plan, in text
/// and JSON; a declared index shows in the plan.
@Suite struct PostgresExplainTests {
    @Test func explainShowsStatementResidualAndPlan() async throws {
        let store = try await PostgresServer.store()
        defer { store.close() }
        let records = (0..<500).map { n in
            Record(
                objectId: "p\(n)",
                fields: [
                    ("age", .int(Int64(n % 90))), ("name", .string("n\(n)")), ("tags", .array([.string("t\(n % 7)")])),
                ])
        }
        try await store.write(records.map { .save($0, in: "Person") })
        try await store.createIndex(.ordered, on: "age", in: "Person")
        let q = Query(
            className: "Person",
            predicate: .and([
                .leaf(.compare(.key("age"), .eq, .literal(.int(42)), []), .sql),
                .leaf(
                    .string(.key("name"), .matches(RegexOptions(wholeString: false)), .literal(.string("^n4")), []),
                    .document),
            ]))
        let e = try await store.explain(q, variables: [:])
        let statement = try #require(e.statement as String?)
        #expect(statement.contains("$1::text::jsonb"))
        #expect(!statement.contains("42"))
        // The age, and the regex's LIKE superset `n4%` (bound, like every literal).
        #expect(e.parameterCount == 2)
        #expect(statement.contains(" LIKE $2::text") && !statement.contains("n4"))
        #expect(e.residual.count == 1)
        #expect(e.residual.first?.reason.contains("may throw") == true)
        #expect(!e.orderPushed && !e.pagePushed)
        let plan = e.plan.joined(separator: "\n")
        #expect(plan.contains("\"Plan\""))
        #expect(plan.contains("c1_f1_j"), "the index on age is used: \(plan)")
        #expect(e.text.contains("residual (evaluated by Quarry on the returned rows):"))
        #expect(e.json["sql"]?.stringValue == statement)
        // The answer is the reference's.
        let reference = ReferenceEvaluator(database: Database([ClassData(name: "Person", records: records)]))
        #expect(try await store.query(q) == (try reference.run(q)))
    }

    @Test func aFullyPushedQueryOrdersAndPagesInTheDatabase() async throws {
        let store = try await PostgresServer.store()
        defer { store.close() }
        try await store.write(
            (0..<20).map { .save(Record(objectId: "r\($0)", fields: [("n", .int(Int64($0 % 5)))]), in: "R") })
        let q = Query(
            className: "R", predicate: .leaf(.compare(.key("n"), .ge, .literal(.int(2)), []), .document),
            order: [.key("n", .descending)], skip: 1, limit: 3)
        let e = try await store.explain(q, variables: [:])
        #expect(e.residual.isEmpty && e.orderPushed && e.pagePushed)
        #expect(e.statement?.contains("LIMIT $2::text::bigint OFFSET $3::text::bigint") == true)
        #expect(try await store.query(q).objectIds == ["r9", "r14", "r19"])
    }
}
