import Quarry
import QuarryPostgres
import QuarryTestSupport
import Testing

/// The PostgreSQL store against the oracle on a real server: for random data and random
/// queries over every leaf kind and all three leaf semantics, the store returns exactly what
/// `ReferenceEvaluator.run` returns (records, order, count) or fails with the same error. Odd
/// seeds use data whose fields mix types (mostly residual), even seeds typed data (mostly
/// pushed down). Each test's seeds run one at a time (`.serialized`): every case opens a store
/// with connections of its own, and the hundreds of `make soak` at once exhausted the server's.
@Suite struct PostgresAgreementTests {
    /// Random queries on the store agree with the reference over `db`; records the first that
    /// does not (false then). With `runs`, each query runs that many times in a row, and an
    /// answer unlike the first is the one compared, so that any difference fails.
    static func check(
        _ store: PostgresStore, _ db: Database, _ random: inout RandomData, queries: Int, depth: Int, runs: Int = 1
    ) async -> Bool {
        let disagreement = await StoreAgreement.firstDisagreement(db, &random, queries: queries, depth: depth) {
            q throws(Diagnostic) in
            var answers: [QueryResult] = []
            for _ in 0..<runs { answers.append(try await store.run(q, variables: [:])) }
            return answers.first { $0 != answers[0] } ?? answers[0]
        }
        if let disagreement { Issue.record("\(disagreement)") }
        return disagreement == nil
    }

    /// With `runs` 3, each query runs three times in a row: its statement is sent unnamed, then
    /// prepared, then executed by name (docs/STORAGE.md#prepared-statements), with every
    /// parameter type the translator binds.
    @Test(
        .serialized,
        arguments: [(1, 1), (2, 1), (3, 1), (4, 1), (10, 3), (11, 3)]
            + SoakSeeds.seeds([], more: 1000).map { ($0, $0 % 3 == 0 ? 3 : 1) } as [(UInt64, Int)])
    func randomQueriesAgreeWithTheReference(seed: UInt64, runs: Int) async throws {
        let store = try await PostgresServer.store()
        defer { store.close() }
        var random = RandomData(seed: seed, mixesTypes: seed % 2 == 1)
        let db = random.database(items: 40, others: 6)
        try await store.save(db)
        _ = await Self.check(store, db, &random, queries: 120, depth: 3, runs: runs)
    }

    @Test(.serialized, arguments: SoakSeeds.seeds([5, 6], more: 2000))
    func withIndexes(seed: UInt64) async throws {
        let store = try await PostgresServer.store()
        defer { store.close() }
        var random = RandomData(seed: seed, mixesTypes: false)
        let db = random.database(items: 40, others: 6)
        try await store.save(db)
        for key in ["i", "d", "s", "dt", "b", "g", "tags", "ptr", "ptr.name", "objectId", "labels", "nums"]
            as [FieldPath]
        {
            try await store.createIndex(seed % 2 == 1 ? .hash : .ordered, on: key, in: "Item")
        }
        try await store.createIndex(.geo, on: "g", in: "Item")
        try await store.createIndex(.ordered, on: "name", in: "Other")
        _ = await Self.check(store, db, &random, queries: 120, depth: 3)
    }

    /// Random saves (new objects and new versions), deletes, and pointer targets that come
    /// and go, each followed by queries, with indexes declared before the data changes.
    @Test(.serialized, arguments: SoakSeeds.seeds([7, 8], more: 3000))
    func underRandomWrites(seed: UInt64) async throws {
        let store = try await PostgresServer.store()
        defer { store.close() }
        var random = RandomData(seed: seed, mixesTypes: seed % 2 == 1)
        var db = random.database(items: 30, others: 6)
        try await store.save(db)
        try await store.createIndex(.ordered, on: "i", in: "Item")
        try await store.createIndex(.hash, on: "s", in: "Item")
        var next = 1000
        for _ in 0..<25 {
            let changes = StoreAgreement.randomChanges(&random, to: &db, next: &next)
            try await store.write(changes)
            if !(await Self.check(store, db, &random, queries: 10, depth: 2)) { return }
        }
        // Every stored object reads back exactly, in insertion order.
        let all = try await store.run(Query(className: "Item", predicate: .constant(true)), variables: [:])
        #expect(all.records == db["Item"]?.records)
    }

    /// The backend interface from many tasks at once: the same answers as the in-memory backend.
    @Test func asyncSurfaceFromManyTasks() async throws {
        let store = try await PostgresServer.store()
        defer { store.close() }
        var random = RandomData(seed: 9)
        let db = random.database(items: 40, others: 6)
        try await store.save(db)
        let memory = InMemoryBackend(database: db, now: { 1_700_000_000_000 }, random: { 0.5 })
        let queries = (0..<40).map { _ in random.query(depth: 2) }
        let backends: [any QueryBackend] = [store, memory]
        let answers = await StoreAgreement.outcomesFromManyTasks(queries, on: backends)
        for i in queries.indices { #expect(answers[i][0] == answers[i][1], "\(queries[i])") }
        let catalog = try await store.catalog()
        #expect(catalog.map(\.name) == ["Item", "Other"])
        #expect(catalog.map(\.objectCount) == [40, 6])
    }
}
