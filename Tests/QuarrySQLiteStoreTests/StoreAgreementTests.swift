import Quarry
import QuarrySQLite
import QuarryTestSupport
import Testing

/// The SQLite store against the oracle on a real file: for random data and random queries
/// over every leaf kind and all three leaf semantics, the store returns exactly what
/// `ReferenceEvaluator.run` returns (records, order, count) or fails with the same error.
/// Odd seeds use data whose fields mix types (mostly residual), even seeds typed data
/// (mostly pushed down).
@Suite struct StoreAgreementTests {
    /// Random queries on the store agree with the reference over `db`; records the first that
    /// does not (false then).
    static func check(_ store: SQLiteStore, _ db: Database, _ random: inout RandomData, queries: Int, depth: Int)
        async -> Bool
    {
        let disagreement = await StoreAgreement.firstDisagreement(db, &random, queries: queries, depth: depth) {
            q throws(Diagnostic) in try store.query(q)
        }
        if let disagreement { Issue.record("\(disagreement)") }
        return disagreement == nil
    }

    @Test(arguments: SoakSeeds.seeds([1, 2, 3, 4], more: 1000))
    func randomQueriesAgreeWithTheReference(seed: UInt64) async throws {
        let file = StoreFile()
        let store = try file.open()
        var random = RandomData(seed: seed, mixesTypes: seed % 2 == 1)
        let db = random.database(items: 40, others: 6)
        try store.save(db)
        _ = await Self.check(store, db, &random, queries: 200, depth: 3)
    }

    @Test(arguments: SoakSeeds.seeds([5, 6], more: 2000))
    func withIndexes(seed: UInt64) async throws {
        let file = StoreFile()
        let store = try file.open()
        var random = RandomData(seed: seed, mixesTypes: false)
        let db = random.database(items: 40, others: 6)
        try store.save(db)
        for key in ["i", "d", "s", "dt", "b", "g", "tags", "ptr", "ptr.name", "objectId", "labels", "nums"]
            as [FieldPath]
        {
            try store.declareIndex(seed % 2 == 1 ? .hash : .ordered, on: key, in: "Item")
        }
        try store.declareIndex(.geo, on: "g", in: "Item")
        try store.declareIndex(.ordered, on: "name", in: "Other")
        _ = await Self.check(store, db, &random, queries: 200, depth: 3)
    }

    /// Random saves (new objects and new versions), deletes, and pointer targets that come
    /// and go, each followed by queries, with an index declared before the data changes.
    @Test(arguments: SoakSeeds.seeds([7, 8], more: 3000))
    func underRandomWrites(seed: UInt64) async throws {
        let file = StoreFile()
        let store = try file.open()
        var random = RandomData(seed: seed, mixesTypes: seed % 2 == 1)
        var db = random.database(items: 30, others: 6)
        try store.save(db)
        try store.declareIndex(.ordered, on: "i", in: "Item")
        try store.declareIndex(.hash, on: "s", in: "Item")
        var next = 1000
        for _ in 0..<60 {
            let changes = StoreAgreement.randomChanges(&random, to: &db, next: &next)
            try store.apply(changes)
            if !(await Self.check(store, db, &random, queries: 10, depth: 2)) { return }
        }
        // Every stored object reads back exactly, in insertion order.
        let all = try store.query(Query(className: "Item", predicate: .constant(true)))
        #expect(all.records == db["Item"]?.records)
    }

    /// The backend interface: the same answers through the async surface, from many tasks.
    @Test func asyncSurfaceFromManyTasks() async throws {
        let file = StoreFile()
        let store = try file.open()
        var random = RandomData(seed: 9)
        let db = random.database(items: 40, others: 6)
        try await store.write(db.classNames.flatMap { n in db[n]!.records.map { StoreChange.save($0, in: n) } })
        let memory = InMemoryBackend(database: db, now: { 1_700_000_000_000 }, random: { 0.5 })
        let queries = (0..<40).map { _ in random.query(depth: 2) }
        let backends: [any QueryBackend] = [store, memory]
        let answers = await StoreAgreement.outcomesFromManyTasks(queries, on: backends)
        for i in queries.indices { #expect(answers[i][0] == answers[i][1], "\(queries[i])") }
        let catalog = try await store.catalog()
        #expect(catalog.map(\.name) == ["Item", "Other"])
        #expect(catalog.map(\.objectCount) == [40, 6])
        for name in ["Item", "Other"] { #expect(try await store.hasClass(name)) }
        for name in ["item", "Missing"] { #expect(try await !store.hasClass(name)) }
    }

    /// A task cancelled before its read starts gets `query.cancelled` without the read running,
    /// and the store answers the next read as before (docs/STORAGE.md#fixed-cost-per-query).
    @Test func aCancelledTaskGetsQueryCancelled() async throws {
        let file = StoreFile()
        let store = try file.open()
        try await store.write([.save(Record(objectId: "a", fields: [("n", .int(1))]), in: "Item")])
        let query = Query(className: "Item", predicate: .constant(true))
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.run(query, variables: [:])
        }
        await #expect {
            _ = try await cancelled.value
        } throws: { error in
            (error as? Diagnostic)?.code == "query.cancelled"
        }
        #expect(try await store.run(query, variables: [:]).records.map(\.objectId) == ["a"])
    }
}
