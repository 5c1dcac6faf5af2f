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
        try PostgresServer.psql("UPDATE c1 SET raw = '[[\"age\",' WHERE objectid = 'p0'", in: url)
        await Self.expectCorrupt(store, Self.compare("age", .le, .int(1)), naming: "p0")
        #expect(try await store.query(Self.compare("age", .eq, .int(2))).objectIds == ["p1"])
    }

    /// An answer of several batches is decoded on two threads as its rows arrive on the
    /// connection's event loop (docs/STORAGE.md#reading-rows): every record as written, in
    /// order; with two corrupt documents in the second batch, the error names the first.
    @Test func aLargeAnswerIsDecodedOnTwoThreads() async throws {
        let url = try PostgresServer.database()
        let store = try await PostgresStore.open(url: url, parallelism: ScanParallelism(threads: 2))
        defer { store.close() }
        let records = (0..<40_000).map { i in
            Record(
                objectId: "p\(i)",
                fields: [
                    ("age", .int(Int64(i % 100))), ("name", .string("n\(i % 37)")), ("score", .double(Double(i) / 8)),
                ])
        }
        try await store.write(records.map { .save($0, in: "Person") })
        let all = try await store.query(Self.compare("age", .ge, .int(0))).records
        #expect(all.count == records.count)
        #expect(all.indices.first { all[$0] != records[$0] } == nil)
        try PostgresServer.psql("UPDATE c1 SET raw = '[[\"age\",' WHERE objectid IN ('p25000', 'p33000')", in: url)
        await Self.expectCorrupt(store, Self.compare("age", .ge, .int(0)), naming: "p25000 ")
    }

    /// The query fails with `store.postgres-corrupt`, its message containing `objectId`.
    static func expectCorrupt(_ store: PostgresStore, _ query: Query, naming objectId: String) async {
        await #expect {
            try await store.query(query)
        } throws: { error in
            (error as? Diagnostic)?.code == "store.postgres-corrupt"
                && (error as? Diagnostic)?.message.contains(objectId) == true
        }
    }
}
