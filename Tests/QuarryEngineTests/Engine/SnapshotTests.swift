import QuarryCore
import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// Concurrent readers and one writer (docs/ARCHITECTURE.md#concurrency): each query runs on
/// one published version, a batch of changes is seen whole or not at all, queries in one
/// `read` agree with each other, and the engine and what crosses tasks are `Sendable`.
@Suite struct SnapshotTests {
    static let batchSize = 12

    /// Generation `g` of the class: `batchSize` objects tagged `g`, ids shared by every
    /// generation at even positions (replaced in place) and new at odd ones.
    static func generation(_ g: Int) -> [Record] {
        (0..<batchSize).map { i in
            let id = i.isMultiple(of: 2) ? "s\(i)" : "g\(g)-\(i)"
            return record(id, ["gen": .int(Int64(g)), "i": .int(Int64(i))])
        }
    }

    /// The changes from generation `g - 1` to `g`: the odd objects of the old one deleted, the
    /// new ones saved (the even ones replace the old versions in place).
    static func changes(to g: Int) -> [StoreChange] {
        let deletes = (0..<batchSize).filter { !$0.isMultiple(of: 2) }.map {
            StoreChange.delete(objectId: "g\(g - 1)-\($0)", from: "T")
        }
        return deletes + generation(g).map { .save($0, in: "T") }
    }

    static let all = Query(className: "T", predicate: .constant(true), limit: 1000)
    static var countAll: Query {
        var q = all
        q.count = true
        return q
    }

    /// What a reader may see: exactly one generation, whole, in insertion order (after the
    /// first, the replaced objects keep their rows and the new ones follow).
    static func check(_ records: [Record]) -> Int? {
        guard records.count == batchSize, case .int(let g)? = records.first?.fields["gen"] else { return nil }
        let ids = generation(Int(g)).map(\.objectId)
        let expected = g == 0 ? ids : ids.filter { $0.hasPrefix("s") } + ids.filter { !$0.hasPrefix("s") }
        return records.map(\.objectId) == expected && records.allSatisfy({ $0.fields["gen"] == .int(g) })
            ? Int(g) : nil
    }

    @Test func readersSeeEveryBatchWholeOrNotAtAll() async throws {
        let engine = Engine(database: database(("T", Self.generation(0))))
        try engine.createIndex(.ordered, on: "gen", in: "T")
        let generations = 150
        let seen = await withTaskGroup(of: [Int].self) { group in
            group.addTask {
                for g in 1...generations { engine.apply(Self.changes(to: g)) }
                return []
            }
            for reader in 0..<4 {
                group.addTask {
                    var seen: [Int] = []
                    for n in 0..<200 {
                        do {
                            let (count, records, indexed) = try engine.read { (s) throws(Diagnostic) in
                                let records = try s.run(Self.all).records
                                let g = records.first?.fields["gen"] ?? .int(-1)
                                let indexed = try s.run(
                                    Query(className: "T", predicate: compare("gen", .eq, g, .sql), limit: 1000))
                                return (try s.run(Self.countAll), records, indexed.records)
                            }
                            guard let g = Self.check(records), count == .count(records.count), indexed == records
                            else {
                                Issue.record("reader \(reader), read \(n): \(records.map(\.objectId)) count \(count)")
                                return seen
                            }
                            seen.append(g)
                        } catch {
                            Issue.record("reader \(reader): \(error)")
                            return seen
                        }
                        await Task.yield()
                    }
                    return seen
                }
            }
            var all: [[Int]] = []
            for await s in group { all.append(s) }
            return all
        }
        // Each reader's versions only move forward, and the last write is published.
        for s in seen { #expect(s == s.sorted()) }
        #expect(Self.check(try engine.run(Self.all).records) == generations)
    }

    /// A server's count and page, run together by `InMemoryBackend`, agree while batches are
    /// written.
    @Test func aBackendRunsQueriesTogetherOnOneVersion() async throws {
        let backend = InMemoryBackend(database: database(("T", Self.generation(0))))
        let pairs = await withTaskGroup(of: Int.self) { group in
            group.addTask {
                for g in 1...100 { try? await backend.write(Self.changes(to: g)) }
                return 0
            }
            group.addTask {
                var agreeing = 0
                for _ in 0..<200 {
                    guard let results = try? await backend.run([Self.countAll, Self.all], variables: [:]),
                        Self.check(results[1].records) != nil, results[0] == .count(results[1].records.count)
                    else {
                        Issue.record("a count and its page disagree")
                        return agreeing
                    }
                    agreeing += 1
                }
                return agreeing
            }
            return await group.reduce(0, +)
        }
        #expect(pairs == 200)
    }

    /// Queries of one shape with different literals from many tasks at once: each gets the
    /// answer for its own literals (plans are never shared by two runs at once).
    @Test func concurrentRunsOfOneShapeKeepTheirLiterals() async throws {
        var random = RandomData(seed: 41)
        let db = random.database(items: 200, others: 10)
        let engine = Engine(database: db, now: { 0 }, random: { 0.5 })
        try engine.createIndex(.ordered, on: "i", in: "Item")
        let reference = ReferenceEvaluator(database: db, now: { 0 }, random: { 0.5 })
        let queries = (0..<40).map { n in
            Query(
                className: "Item",
                predicate: compare("i", n.isMultiple(of: 2) ? .gt : .le, Value.int(Int64(n - 20)), .sql))
        }
        let expected = try queries.map { try reference.run($0) }
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for t in 0..<4 {
                group.addTask {
                    var bad = 0
                    for round in 0..<25 {
                        for (q, e) in Array(zip(queries, expected)).shuffled(seed: UInt64(t * 100 + round))
                        where (try? engine.run(q)) != e {
                            bad += 1
                        }
                    }
                    return bad
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    /// A snapshot answers from its version while the writer publishes others.
    @Test func aReadKeepsItsVersionWhileTheWriterMovesOn() throws {
        let engine = Engine(database: database(("T", Self.generation(0))))
        try engine.read { (s) throws(Diagnostic) in
            let before = try s.run(Self.all)
            // The writer changes the other replica and publishes it; this read's replica is
            // untouched (a second write would wait for this read to end).
            engine.apply(Self.changes(to: 1))
            #expect(try s.run(Self.all) == before)
            #expect(Self.check(try engine.run(Self.all).records) == 1)
        }
        #expect(Self.check(try engine.run(Self.all).records) == 1)
        engine.apply(Self.changes(to: 2))
        #expect(Self.check(try engine.run(Self.all).records) == 2)
    }

    @Test func sharedTypesAreSendable() {
        func sendable<T: Sendable>(_: T.Type) {}
        sendable(Engine.self)
        sendable(InMemoryBackend.self)
        sendable(PreparedQuery.self)
        sendable(LazyQueryResult.self)
        sendable(ResultSet.self)
        sendable(QueryResult.self)
        sendable(StoreChange.self)
    }
}

extension Array {
    /// The elements in an order drawn from `seed` (the same every run).
    fileprivate func shuffled(seed: UInt64) -> [Element] {
        var rng = SplitMix64(seed: seed)
        return shuffled(using: &rng)
    }
}
