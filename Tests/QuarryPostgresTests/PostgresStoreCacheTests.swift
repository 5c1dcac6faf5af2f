import Quarry
import QuarryPostgres
import Testing

/// The PostgreSQL store's catalog, reused only while no transaction has changed it
/// (docs/STORAGE.md#fixed-cost-per-query), and a row whose `raw` cannot be read.
@Suite struct PostgresStoreCacheTests {
    static func person(_ id: String, _ fields: [(String, Value)]) -> StoreChange {
        .save(Record(objectId: id, fields: fields), in: "Person")
    }

    static func compare(_ key: String, _ op: ComparisonOperator, _ v: Value) -> Query {
        Query(className: "Person", predicate: .leaf(.compare(.key(FieldPath(key)), op, .literal(v), []), .document))
    }

    /// Another store on the same database adds a field, widens a kind, declares an index and
    /// adds a class; the first store's next queries answer with all of it.
    @Test func catalogChangesByAnotherStoreAreSeen() async throws {
        let url = try PostgresServer.database()
        let a = try await PostgresStore.open(url: url)
        defer { a.close() }
        try await a.write([Self.person("p0", [("age", .int(1))])])
        #expect(try await a.query(Self.compare("age", .eq, .int(1))).objectIds == ["p0"])

        let b = try await PostgresStore.open(url: url)
        defer { b.close() }
        try await b.write([
            Self.person("p1", [("age", .int(2)), ("name", .string("x"))]),
            Self.person("p2", [("age", .string("old"))]),
        ])
        try await b.createIndex(.ordered, on: "name", in: "Person")
        try await b.write([.save(Record(objectId: "c0", fields: [("n", .int(1))]), in: "City")])

        #expect(try await a.query(Self.compare("name", .eq, .string("x"))).objectIds == ["p1"])
        // age now mixes numbers and strings: answered exactly, the comparison left to Quarry.
        #expect(try await a.query(Self.compare("age", .gt, .int(1))).objectIds == ["p1"])
        #expect(try await !a.explain(Self.compare("age", .gt, .int(1)), variables: [:]).residual.isEmpty)
        #expect(try await a.schema().classNames == ["Person", "City"])
        #expect(try await a.catalog().map(\.objectCount) == [3, 1])
    }

    /// A `raw` document that is not one is `store.postgres-corrupt` naming the object.
    @Test func aCorruptRowIsAnErrorNamingTheObject() async throws {
        let url = try PostgresServer.database()
        let store = try await PostgresStore.open(url: url)
        defer { store.close() }
        try await store.write([Self.person("p0", [("age", .int(1))]), Self.person("p1", [("age", .int(2))])])
        let server = try PostgresServer.shared.get()
        // postgresql://user@localhost:5432/<database>?host=<socket folder>
        let database = String(url.split(separator: "?")[0].split(separator: "/").last!)
        try server.psql("UPDATE c1 SET raw = '[[\"age\",' WHERE objectid = 'p0'", database: database)
        await #expect {
            try await store.query(Self.compare("age", .le, .int(1)))
        } throws: { error in
            (error as? Diagnostic)?.code == "store.postgres-corrupt"
                && (error as? Diagnostic)?.message.contains("p0") == true
        }
        #expect(try await store.query(Self.compare("age", .eq, .int(2))).objectIds == ["p1"])
    }
}
