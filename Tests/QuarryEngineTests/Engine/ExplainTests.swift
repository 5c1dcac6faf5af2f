import QuarryCore
import Testing

@testable import QuarryEngine

/// EXPLAIN's text for a few plans (golden), and what ANALYZE adds.
@Suite struct ExplainTests {
    static let people: Database = {
        var persons: [Record] = []
        for i in 0..<20 {
            let name: Value = .string(["Jane", "Joe", "Ann", "Bob"][i % 4] + "\(i)")
            let home: Value = .geoPoint(GeoPoint(latitude: 30 + Double(i) / 10, longitude: -97))
            persons.append(
                record(
                    "p\(i)",
                    [
                        "name": name, "age": .int(Int64(20 + i % 7)), "score": .double(Double(i) * 1.5),
                        "home": home, "team": pointer("Team", "t\(i % 3)"),
                    ]))
        }
        let teams = [
            record("t0", ["city": "Austin"]), record("t1", ["city": "Dallas"]), record("t2", ["city": "Austin"]),
        ]
        return database(("Person", persons), ("Team", teams))
    }()

    static func engine(_ indexes: [(IndexKind, FieldPath)] = []) -> Engine {
        let e = Engine(database: people)
        for (kind, key) in indexes { try? e.createIndex(kind, on: key, in: "Person") }
        return e
    }

    static func cases() -> [(String, Engine, Query)] {
        [
            (
                "scan", engine(),
                Query(
                    className: "Person",
                    predicate: .and([
                        compare("age", .gt, 21, .sql), compare("age", .gt, 22, .sql),
                        .or([compare("name", .eq, "Joe1", .sql), compare("name", .eq, "Ann2", .sql)]),
                    ]))
            ),
            (
                "hash", engine([(.hash, "age")]),
                Query(
                    className: "Person",
                    predicate: .and([
                        compare("age", .eq, 23, .sql),
                        .leaf(.string(.key("name"), .like(.sql(escape: nil)), .literal("J%"), .caseInsensitive), .sql),
                    ]))
            ),
            (
                "order", engine([(.ordered, "score")]),
                Query(
                    className: "Person", predicate: compare("age", .ge, 21, .document),
                    order: [.key("score", .descending)], limit: 3)
            ),
            (
                "contradiction", engine(),
                Query(
                    className: "Person",
                    predicate: .and([
                        compare("age", .gt, 30, .predicate), compare("age", .lt, 25, .predicate),
                    ]))
            ),
            (
                "inner", engine([(.hash, "team")]),
                Query(
                    className: "Person",
                    predicate: .leaf(
                        .inQuery(
                            "team",
                            Query(
                                className: "Team", predicate: compare("city", .eq, "Austin", .document), profile: .parse
                            )), .document),
                    profile: .parse)
            ),
            (
                "geo", engine([(.geo, "home")]),
                Query(
                    className: "Person",
                    predicate: .leaf(
                        .geo(
                            .withinCircle(
                                "home", center: GeoPoint(latitude: 30.5, longitude: -97),
                                radius: Distance(20, .kilometers))), .document),
                    count: true)
            ),
            // Operands in rank order (cost over the share of rows removed): realm-core's
            // `8·64/dD + dT` would put the substring test first for its few matches.
            (
                "filter-order", engine(),
                Query(
                    className: "Person",
                    predicate: .and([
                        .leaf(.string(.key("name"), .contains, .literal("o1"), []), .predicate),
                        compare("age", .ge, 21, .predicate),
                        compare("score", .lt, 9, .predicate),
                    ]))
            ),
        ]
    }

    static let golden: [String: String] = [
        "scan": """
        query: Person where age > 22 [sql] AND name IN ("Joe1", "Ann2") [sql] (profile exact)  (est. 1 rows)
        ├─ rewrites: 2 applied
        │  ├─ or-to-in: name == "Joe1" [sql] OR name == "Ann2" [sql] → name IN ("Joe1", "Ann2") [sql]
        │  └─ range-merge: age > 21 [sql] AND age > 22 [sql] → age > 22 [sql]
        ├─ access: full scan  (est. 20 rows)
        ├─ filter: in evaluation order  (est. 1 rows)
        │  ├─ age > 22 [sql]  {cost 0.25, pass 66.67%}  (est. 13 rows)
        │  └─ name IN ("Joe1", "Ann2") [sql]  {cost 10, pass 9.52%}  (est. 1 rows)
        └─ page: skip 0, no limit
        """,
        "hash": """
        query: Person where age == 23 [sql] AND name BEGINSWITH[c] "J" [sql] (profile exact)  (est. 1 rows)
        ├─ rewrites: 1 applied
        │  └─ like-to-prefix: name LIKE[c] "J%" [sql] → name BEGINSWITH[c] "J" [sql]
        ├─ access: hash index on age = 23  (est. 3 rows)
        ├─ filter: in evaluation order  (est. 1 rows)
        │  └─ name BEGINSWITH[c] "J" [sql]  {cost 35, pass 30%}  (est. 1 rows)
        └─ page: skip 0, no limit
        """,
        "order": """
        query: Person where age >= 21 [document] (profile exact)  (est. 17 rows)
        ├─ access: ordered index on score walked descending  (est. 20 rows)
        ├─ filter: in evaluation order  (est. 17 rows)
        │  └─ age >= 21 [document]  {cost 0.25, pass 83.33%}  (est. 17 rows)
        ├─ order: score DESC, from the index walk (no sort)
        └─ page: skip 0, limit 3
        """,
        "contradiction": """
        query: Person where FALSE (profile exact)  (est. 0 rows)
        ├─ rewrites: 1 applied
        │  └─ contradiction: age > 30 [predicate] AND age < 25 [predicate] → FALSE
        ├─ access: nothing (the predicate is FALSE)  (est. 0 rows)
        └─ page: skip 0, no limit
        """,
        "inner": """
        query: Person where team IN QUERY Team [document] (profile parse)  (est. 2 rows)
        ├─ inner: keeps at most 100 rows (profile parse default 100), fails past 1000000
        │  └─ query: Team where city == "Austin" [document] (profile parse)  (est. 2 rows)
        │     ├─ access: full scan  (est. 3 rows)
        │     ├─ filter: in evaluation order  (est. 2 rows)
        │     │  └─ city == "Austin" [document]  {cost 10, pass 50%}  (est. 2 rows)
        │     └─ page: skip 0, limit 100
        ├─ access: full scan  (est. 20 rows)
        ├─ filter: in evaluation order  (est. 2 rows)
        │  └─ team IN QUERY Team [document]  {cost 2, pass 10%}  (est. 2 rows)
        └─ page: skip 0, limit 100
        """,
        "geo": """
        query: Person where home WITHIN CIRCLE (30.5, -97.0) 20.0km [document] (profile exact)  (est. 0 rows)
        ├─ access: geo index on home within 20000.0 m  (est. 3 rows)
        ├─ filter: in evaluation order  (est. 0 rows)
        │  └─ home WITHIN CIRCLE (30.5, -97.0) 20.0km [document]  {cost 20, pass 10%}  (est. 0 rows)
        └─ page: count
        """,
        // Expected work per row: 1 + 0.32 × 0.25 + 0.32 × 0.83 × 50 ≈ 14; realm-core's order
        // (the substring test, then score, then age) ≈ 50.
        "filter-order": """
        query: Person where name CONTAINS "o1" [predicate] AND age >= 21 [predicate] AND score < 9 [predicate] (profile exact)  (est. 1 rows)
        ├─ access: full scan  (est. 20 rows)
        ├─ filter: in evaluation order  (est. 1 rows)
        │  ├─ score < 9 [predicate]  {cost 1, pass 31.58%}  (est. 6 rows)
        │  ├─ age >= 21 [predicate]  {cost 0.25, pass 83.33%}  (est. 5 rows)
        │  └─ name CONTAINS "o1" [predicate]  {cost 50, pass 20%}  (est. 1 rows)
        └─ page: skip 0, no limit
        """,
    ]

    @Test func goldenPlans() throws {
        for (name, engine, q) in Self.cases() {
            let text = try engine.explain(q).description
            #expect(text == Self.golden[name], "\(name):\n\(text)")
        }
    }

    /// A narrow range on the ORDER BY key: walking its index would pass every smaller key
    /// before the first match (the server's range benchmark ran at 4 requests/s), so the range
    /// is looked up and its few rows sorted; a wide range still walks the index.
    @Test func aRangeOnTheSortKeyIsLookedUpRatherThanWalked() throws {
        let rows = (0..<10_000).map { record("p\($0)", ["score": .double(Double($0) / 100)]) }
        let engine = Engine(database: database(("Person", rows)))
        try engine.createIndex(.ordered, on: "score", in: "Person")
        func query(_ low: Double, _ high: Double) -> Query {
            var q = Query(
                className: "Person",
                predicate: .and([
                    compare("score", .ge, .double(low), .document), compare("score", .lt, .double(high), .document),
                ]))
            q.order = [.key("score", .ascending)]
            q.limit = 20
            return q
        }
        let narrow = try engine.explain(query(42, 42.1)).root.children.first { $0.kind == "access" }
        #expect(
            narrow?.detail.contains("ordered index range on score") == true
                && narrow?.detail.contains("walked") == false)
        #expect(try engine.run(query(42, 42.1)).records.map(\.objectId) == (4200..<4210).map { "p\($0)" })
        let wide = try engine.explain(query(1, 100)).root.children.first { $0.kind == "access" }
        #expect(wide?.detail.contains("walked ascending") == true, "\(wide?.detail ?? "")")
    }

    /// ANALYZE runs the query: every step reports the rows it saw, and the page the rows the
    /// query returned.
    @Test func analyzeReportsActualRows() throws {
        let (_, engine, q) = Self.cases()[1]
        let report = try engine.explain(q, analyze: true)
        #expect(report.analyzed)
        let expected = try engine.run(q).records.count
        #expect(report.root.actualRows == expected)
        let access = try #require(report.root.children.first { $0.kind == "access" })
        #expect(access.actualRows == 3)
        let filter = try #require(report.root.children.first { $0.kind == "filter" })
        #expect(filter.rowsIn == 3 && filter.actualRows == expected)
        #expect(report.root.children.last?.actualRows == expected)
        #expect(report.description.contains("[actual 3 → \(expected) rows"))
    }

    @Test func analyzeShowsInnerQueryRows() throws {
        let (_, engine, q) = Self.cases()[4]
        let report = try engine.explain(q, analyze: true)
        let inner = try #require(report.root.children.first { $0.kind == "inner" })
        #expect(inner.actualRows == 2)
        #expect(report.root.actualRows == 13)
    }

    @Test func jsonForm() throws {
        let (_, engine, q) = Self.cases()[3]
        #expect(
            try engine.explain(q).json
                == #"{"analyzed":false,"plan":{"kind":"query","detail":"Person where FALSE (profile exact)","estimated_rows":0,"children":[{"kind":"rewrites","detail":"1 applied","children":[{"kind":"rewrite","detail":"contradiction: age > 30 [predicate] AND age < 25 [predicate] → FALSE","children":[]}]},{"kind":"access","detail":"nothing (the predicate is FALSE)","estimated_rows":0,"children":[]},{"kind":"page","detail":"skip 0, no limit","children":[]}]}}"#
        )
    }

    /// The plans the goldens show also give the reference's answers.
    @Test func explainedPlansAgreeWithTheReference() throws {
        for (name, engine, q) in Self.cases() {
            #expect(try engine.run(q) == ReferenceEvaluator(database: Self.people).run(q), "\(name)")
        }
    }
}
