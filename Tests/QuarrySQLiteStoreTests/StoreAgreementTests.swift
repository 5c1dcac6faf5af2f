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
    static func check(_ store: SQLiteStore, _ db: Database, _ random: inout RandomData, queries: Int, depth: Int)
        -> Issue?
    {
        let reference = ReferenceEvaluator(database: db, now: { 1_700_000_000_000 }, random: { 0.5 })
        for _ in 0..<queries {
            let q = random.query(depth: depth)
            let expected = Outcome { () throws(Diagnostic) in try reference.run(q) }
            let actual = Outcome { () throws(Diagnostic) in try store.query(q) }
            if actual != expected {
                return Issue.record("\(actual) vs \(expected) for \(q)")
            }
        }
        return nil
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomQueriesAgreeWithTheReference(seed: UInt64) throws {
        let file = StoreFile()
        let store = try file.open()
        var random = RandomData(seed: seed, mixesTypes: seed % 2 == 1)
        let db = random.database(items: 40, others: 6)
        try store.save(db)
        _ = Self.check(store, db, &random, queries: 200, depth: 3)
    }

    @Test(arguments: [5, 6] as [UInt64])
    func withIndexes(seed: UInt64) throws {
        let file = StoreFile()
        let store = try file.open()
        var random = RandomData(seed: seed, mixesTypes: false)
        let db = random.database(items: 40, others: 6)
        try store.save(db)
        for key in ["i", "d", "s", "dt", "b", "g", "tags", "ptr", "ptr.name", "objectId", "labels", "nums"]
            as [FieldPath]
        {
            try store.declareIndex(seed == 5 ? .hash : .ordered, on: key, in: "Item")
        }
        try store.declareIndex(.geo, on: "g", in: "Item")
        try store.declareIndex(.ordered, on: "name", in: "Other")
        _ = Self.check(store, db, &random, queries: 200, depth: 3)
    }

    /// Random saves (new objects and new versions), deletes, and pointer targets that come
    /// and go, each followed by queries, with an index declared before the data changes.
    @Test(arguments: [7, 8] as [UInt64])
    func underRandomWrites(seed: UInt64) throws {
        let file = StoreFile()
        let store = try file.open()
        var random = RandomData(seed: seed, mixesTypes: seed % 2 == 1)
        var db = random.database(items: 30, others: 6)
        try store.save(db)
        try store.declareIndex(.ordered, on: "i", in: "Item")
        try store.declareIndex(.hash, on: "s", in: "Item")
        var next = 1000
        for _ in 0..<60 {
            var changes: [StoreChange] = []
            for _ in 0..<(1 + random.int(3)) {
                switch random.int(4) {
                case 0, 1:
                    let id = random.chance(50) ? "i\(random.int(30))" : "i\(next)"
                    next += 1
                    let fresh = random.database(items: 1, others: 0)["Item"]!.records[0]
                    let record = Record(objectId: id, fields: fresh.fieldOrder.map { ($0, fresh.fields[$0]!) })
                    db.insert(record, into: "Item")
                    changes.append(.save(record, in: "Item"))
                case 2:
                    let id = "i\(random.int(30))"
                    db.remove(id, from: "Item")
                    changes.append(.delete(objectId: id, from: "Item"))
                default:
                    let id = "o\(random.int(8))"
                    if random.chance(50) {
                        let record = Record(
                            objectId: id,
                            fields: [
                                ("name", .string(random.pick(RandomData.strings))),
                                ("n", .int(Int64(random.int(5)))),
                            ])
                        db.insert(record, into: "Other")
                        changes.append(.save(record, in: "Other"))
                    } else {
                        db.remove(id, from: "Other")
                        changes.append(.delete(objectId: id, from: "Other"))
                    }
                }
            }
            try store.apply(changes)
            if Self.check(store, db, &random, queries: 10, depth: 2) != nil { return }
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
        let answers = try await withThrowingTaskGroup(of: (Int, Int, Outcome).self) { group in
            for (i, q) in queries.enumerated() {
                for (b, backend) in backends.enumerated() {
                    group.addTask {
                        do throws(Diagnostic) {
                            return (i, b, .result(try await backend.run(q, variables: [:])))
                        } catch {
                            return (i, b, .failure(error.code))
                        }
                    }
                }
            }
            var out: [Int: [Int: Outcome]] = [:]
            for try await (i, b, o) in group { out[i, default: [:]][b] = o }
            return out
        }
        for i in queries.indices { #expect(answers[i]?[0] == answers[i]?[1], "\(queries[i])") }
        let catalog = try await store.catalog()
        #expect(catalog.map(\.name) == ["Item", "Other"])
        #expect(catalog.map(\.objectCount) == [40, 6])
        for name in ["Item", "Other"] { #expect(try await store.hasClass(name)) }
        for name in ["item", "Missing"] { #expect(try await !store.hasClass(name)) }
    }
}
