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

        // Sent alone on the kept catalog, which has no `name`, the statement answers nothing;
        // the version read after it sends it again on the new catalog.
        #expect(try await a.query(Self.compare("name", .eq, .string("x"))).objectIds == ["p1"])
        // A count's row carries the version of its snapshot.
        try await b.write([Self.person("p3", [("nick", .string("y"))])])
        var count = Self.compare("nick", .eq, .string("y"))
        count.count = true
        #expect(try await a.query(count) == .count(1))
        // age now mixes numbers and strings: answered exactly, the comparison left to Quarry.
        #expect(try await a.query(Self.compare("age", .gt, .int(1))).objectIds == ["p1"])
        #expect(try await !a.explain(Self.compare("age", .gt, .int(1)), variables: [:]).residual.isEmpty)
        #expect(try await a.schema().classNames == ["Person", "City"])
        #expect(try await a.catalog().map(\.objectCount) == [4, 1])
    }

    /// A query Quarry finishes from its statement's rows alone is that one statement, with no
    /// transaction around it; one whose residual reads other objects runs in a read transaction
    /// (docs/STORAGE.md#fixed-cost-per-query).
    /// The server's own statistics (`pg_stat_statements`) count what the store sent.
    @Test func aQueryFinishedFromItsRowsIsOneStatement() async throws {
        let url = try PostgresServer.database()
        try PostgresServer.psql("CREATE EXTENSION pg_stat_statements", in: url)
        let store = try await PostgresStore.open(url: url)
        defer { store.close() }
        try await store.write([Self.person("p0", [("age", .int(1))]), Self.person("p1", [("age", .int(2))])])
        #expect(try await store.query(Self.compare("age", .eq, .int(1))).objectIds == ["p0"])
        func sent() throws -> [String: Int] {
            let rows = try PostgresServer.psql(
                """
                SELECT split_part(query, ' ', 1) || ' ' || split_part(query, ' ', 2), sum(calls) FROM pg_stat_statements
                WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
                AND (query LIKE 'BEGIN%' OR query LIKE 'SELECT %quarry_catalog_version%') GROUP BY 1
                """, in: url)
            var counts: [String: Int] = [:]
            for line in rows.split(separator: "\n") {
                let parts = line.split(separator: "|")
                if parts.count == 2 { counts[String(parts[0]), default: 0] += Int(parts[1]) ?? 0 }
            }
            return counts
        }
        let before = try sent()
        var count = Self.compare("age", .gt, .int(0))
        count.count = true
        for _ in 0..<3 {
            #expect(try await store.query(Self.compare("age", .eq, .int(2))).objectIds == ["p1"])
            #expect(try await store.query(Self.compare("age", .eq, .int(9))).objectIds == [])
            #expect(try await store.query(count) == .count(2))
        }
        var after = try sent()
        // No BEGIN; the three queries' statements carry the version, and the empty answers
        // read it once more each.
        #expect(after["BEGIN ISOLATION", default: 0] == before["BEGIN ISOLATION", default: 0])
        #expect(after["SELECT version::text", default: 0] == before["SELECT version::text", default: 0] + 3)

        // `age` now mixes numbers and strings: the comparison stays residual, and Quarry decides
        // it on the statement's rows alone.
        try await store.write([
            Self.person(
                "p2", [("age", .string("old")), ("city", .pointer(Pointer(className: "City", objectId: "c0")))]),
            .save(Record(objectId: "c0", fields: [("name", .string("Bern"))]), in: "City"),
        ])
        #expect(try await store.query(Self.compare("age", .gt, .int(1))).objectIds == ["p1"])
        let residual = try sent()
        for _ in 0..<3 { #expect(try await store.query(Self.compare("age", .gt, .int(1))).objectIds == ["p1"]) }
        after = try sent()
        for statement in ["BEGIN ISOLATION", "SELECT version::text"] {
            #expect(after[statement, default: 0] == residual[statement, default: 0], "\(statement)")
        }

        // A residual regex through a pointer reads the City the pointer leads to: in the
        // statement's snapshot, so in a transaction.
        let throughPointer = Query(
            className: "Person",
            predicate: .leaf(
                Leaf(
                    .string(.key("city.name"), .matches(RegexOptions(wholeString: true)), .literal(.string("B.*")), []),
                    semantics: .document)))
        for _ in 0..<3 { #expect(try await store.query(throughPointer).objectIds == ["p2"]) }
        let pointer = try sent()
        #expect(pointer["BEGIN ISOLATION", default: 0] == after["BEGIN ISOLATION", default: 0] + 3)
    }

    /// A query's statement is prepared on its second sending on a connection and executed by
    /// name after that, whatever its literals: the server plans it once a connection when its
    /// plan may be generic (docs/STORAGE.md#prepared-statements), where an unnamed statement is
    /// planned on every execution. Counted by the server (`pg_stat_statements` with
    /// `track_planning`); `plan_cache_mode = force_generic_plan` makes the server's choice of
    /// plan certain.
    @Test func aRepeatedStatementIsPreparedAndPlannedOnce() async throws {
        let url = try PostgresServer.database()
        let name = String(url.split(separator: "?")[0].split(separator: "/").last!)
        try PostgresServer.psql("CREATE EXTENSION pg_stat_statements", in: url)
        try PostgresServer.psql(
            "ALTER DATABASE \(name) SET pg_stat_statements.track_planning = on; "
                + "ALTER DATABASE \(name) SET plan_cache_mode = force_generic_plan", in: url)
        let store = try await PostgresStore.open(url: url)
        defer { store.close() }
        try await store.write(
            (0..<10).map { Self.person("p\($0)", [("age", .int(Int64($0))), ("name", .string("n\($0)"))]) })
        func counts(_ pattern: String) throws -> (calls: Int, plans: Int) {
            let row = try PostgresServer.psql(
                """
                SELECT sum(calls), sum(plans) FROM pg_stat_statements
                WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
                AND query LIKE '\(pattern)'
                """, in: url
            ).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|").map { Int($0) ?? -1 }
            return (row.first ?? -1, row.last ?? -1)
        }
        // One task, so one connection at a time: its first execution is unnamed, and the
        // pool may lend another connection for some of the later ones.
        for i in 0..<12 as Range<Int64> {
            #expect(try await store.query(Self.compare("age", .eq, .int(i % 10))).objectIds == ["p\(i % 10)"])
        }
        let age = try counts("SELECT t0.objectid%")
        #expect(age.calls == 12)
        #expect(age.plans >= 1 && age.plans <= 4, "planned \(age.plans) times for 12 executions")

        // A count's statement goes the same way, and an empty answer (whose catalog version
        // a second statement reads) through a prepared statement is still empty.
        var count = Self.compare("age", .gt, .int(3))
        count.count = true
        for _ in 0..<6 { #expect(try await store.query(count) == .count(6)) }
        let counted = try counts("SELECT count(*)%")
        #expect(counted.calls == 6 && counted.plans <= 4, "\(counted)")
        for _ in 0..<6 { #expect(try await store.query(Self.compare("age", .eq, .int(99))).objectIds == []) }

        // `prepared_statements=off` (for a pooler that does not keep them): planned every time.
        let unprepared = try await PostgresStore.open(url: url + "&prepared_statements=off")
        defer { unprepared.close() }
        let byName = Self.compare("name", .eq, .string("n1"))
        for _ in 0..<6 { #expect(try await unprepared.query(byName).objectIds == ["p1"]) }
        let named = try counts("SELECT t0.objectid%")
        #expect(named.calls == age.calls + 12 && named.plans >= age.plans + 6, "\(named) after \(age)")
        // Any other value is refused before connecting, naming the option and its value.
        await #expect {
            try await PostgresStore.open(url: url + "&prepared_statements=yes")
        } throws: { error in
            guard let d = error as? Diagnostic else { return false }
            return d.code == "store.postgres" && d.message.contains("prepared_statements=yes")
                && d.message.contains("neither 'on' nor 'off'")
        }
    }

    /// A prepared statement follows what changes under its text: an index declared on its key
    /// (the server plans it again), a field whose kind changes (the query gets another text),
    /// and a class emptied and filled again.
    @Test func preparedStatementsFollowChangesToTheTables() async throws {
        let url = try PostgresServer.database()
        let store = try await PostgresStore.open(url: url)
        defer { store.close() }
        try await store.write((0..<5).map { Self.person("p\($0)", [("age", .int(Int64($0)))]) })
        let query = Self.compare("age", .ge, .int(3))
        for _ in 0..<3 { #expect(try await store.query(query).objectIds == ["p3", "p4"]) }
        try await store.createIndex(.ordered, on: "age", in: "Person")
        for _ in 0..<3 { #expect(try await store.query(query).objectIds == ["p3", "p4"]) }
        try await store.write([Self.person("p5", [("age", .string("old"))]), Self.person("p6", [("age", .int(7))])])
        for _ in 0..<3 { #expect(try await store.query(query).objectIds == ["p3", "p4", "p6"]) }
        try await store.write((0..<7).map { .delete(objectId: "p\($0)", from: "Person") })
        for _ in 0..<3 { #expect(try await store.query(query).objectIds == []) }
        try await store.write([Self.person("q0", [("age", .int(9))])])
        for _ in 0..<3 { #expect(try await store.query(query).objectIds == ["q0"]) }
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
