import Quarry
import QuarryPostgres
import Testing

/// Literals and key names are data, never SQL: hostile strings as objectIds, field names,
/// class names, values and query literals come back exactly, match only themselves, never
/// appear in the statement sent, and leave the store intact. PostgreSQL text cannot hold NUL:
/// a NUL inside a value is kept (the value reads back, tests on it are residual), a NUL in a
/// class name, field name or objectId is refused with `store.unstorable` and nothing is saved.
@Suite struct PostgresHostileInputTests {
    static let hostile: [String] = [
        "'", "''", "\"", "'; DROP TABLE c1; --", "\"); DELETE FROM quarry_classes; --", "--", ";", "\\", "\\'", "%",
        "_", "*", "__proto__", "a.b", "$where", "$gt", "$1", "?1", ":name", "@x", "->>'f1'",
        String(repeating: "x'y\"z;--", count: 1300),
    ]
    static let nul: [String] = ["a\u{0}b", "\u{0}"]

    @Test func hostileStringsAreData() async throws {
        let store = try await PostgresServer.store()
        defer { store.close() }
        var records: [Record] = []
        for (n, h) in Self.hostile.enumerated() {
            records.append(Record(objectId: h, fields: [(h, .string(h)), ("n", .int(Int64(n))), ("s", .string(h))]))
        }
        for (n, h) in Self.nul.enumerated() {
            records.append(Record(objectId: "nul\(n)", fields: [("n", .int(Int64(100 + n))), ("z", .string(h))]))
        }
        let db = Database([ClassData(name: "H", records: records)])
        try await store.save(db)
        try await store.createIndex(.ordered, on: "s", in: "H")
        let reference = ReferenceEvaluator(database: db)
        for h in Self.hostile + Self.nul {
            for condition: Condition in [
                .compare(.key(FieldPath([h])), .eq, .literal(.string(h)), []),
                .compare(.key("s"), .eq, .literal(.string(h)), []),
                .compare(.key("s"), .lt, .literal(.string(h)), []),
                .compare(.key("z"), .eq, .literal(.string(h)), []),
                .compare(.key("objectId"), .eq, .literal(.string(h)), []),
                .string(.key("s"), .beginsWith, .literal(.string(h)), []),
                .string(.key("s"), .like(.sql(escape: nil)), .literal(.string(h)), []),
                .inCollection(.key("s"), .list([.literal(.string(h))]), []),
            ] {
                let q = Query(className: "H", predicate: .leaf(condition, .document))
                let (got, expected) = (try await store.query(q), try reference.run(q))
                #expect(got == expected, "\(condition): \(got.objectIds.count) vs \(expected.objectIds.count)")
                let statement = try #require(try await store.explain(q, variables: [:]).statement)
                if h.count > 2 { #expect(!statement.contains(h)) }
            }
        }
        // Every object reads back exactly, and the catalog still lists the class.
        #expect(try await store.query(Query(className: "H", predicate: .constant(true))).records == records)
        #expect(try await store.catalog().map(\.name) == ["H"])
    }

    @Test func hostileClassNames() async throws {
        let store = try await PostgresServer.store()
        defer { store.close() }
        for h in Self.hostile {
            try await store.write([.save(Record(objectId: "o", fields: [("v", .string(h))]), in: h)])
        }
        let names = try await store.catalog().map(\.name)
        #expect(names == Self.hostile, "\(names.map { $0.prefix(20) })")
        for h in Self.hostile { #expect(try await store.hasClass(h)) }
        #expect(try await !store.hasClass("Missing"))
        for h in Self.hostile {
            let q = Query(className: h, predicate: .leaf(.compare(.key("v"), .eq, .literal(.string(h)), []), .document))
            #expect(try await store.query(q).objectIds == ["o"])
        }
    }

    @Test func nulInNamesIsRefusedAndNothingIsSaved() async throws {
        let store = try await PostgresServer.store()
        defer { store.close() }
        try await store.write([.save(Record(objectId: "ok", fields: [("v", .int(1))]), in: "C")])
        for change: StoreChange in [
            .save(Record(objectId: "a\u{0}", fields: [("v", .int(2))]), in: "C"),
            .save(Record(objectId: "b", fields: [("v\u{0}", .int(2))]), in: "C"),
            .save(Record(objectId: "c", fields: [("v", .int(2))]), in: "C\u{0}"),
        ] {
            await #expect(throws: Diagnostic.self) {
                try await store.write([.save(Record(objectId: "first", fields: []), in: "C"), change])
            }
            do {
                try await store.write([change])
            } catch {
                #expect(error.code == "store.unstorable")
            }
        }
        let all = try await store.query(Query(className: "C", predicate: .constant(true)))
        #expect(all.objectIds == ["ok"])
        #expect(try await store.catalog().map(\.name) == ["C"])
    }
}
