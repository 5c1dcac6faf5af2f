import QuarryCore
import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// The engine against the oracle: for random data and random queries across all three leaf
/// semantics, `Engine.run` returns exactly `ReferenceEvaluator.run`'s result, or fails with the
/// same error code.
@Suite struct EngineAgreementTests {
    enum Outcome: Equatable, CustomStringConvertible {
        case result(QueryResult)
        case failure(String)

        var description: String {
            switch self {
            case .result(.count(let n)): return "count \(n)"
            case .result(let r): return "ids \(r.objectIds)"
            case .failure(let code): return "error \(code)"
            }
        }
    }

    static func outcome(_ body: () throws(Diagnostic) -> QueryResult) -> Outcome {
        do {
            return .result(try body())
        } catch {
            return .failure(error.code)
        }
    }

    /// The smallest part of the predicate (a subtree in place of the whole) that still fails.
    static func shrink(_ q: Query, _ fails: (Query) -> Bool) -> Query {
        var current = q
        while true {
            var next: Query? = nil
            let parts: [Filter]
            switch current.predicate {
            case .and(let ps), .or(let ps): parts = ps
            case .not(let p): parts = [p]
            default: parts = []
            }
            for p in parts {
                var candidate = current
                candidate.predicate = p
                if fails(candidate) { next = candidate; break }
            }
            guard let n = next else { return current }
            current = n
        }
    }

    static func check(
        seed: UInt64, items: Int, queries: Int, depth: Int,
        indexes: [(IndexKind, FieldPath, String)] = []
    ) {
        var random = RandomData(seed: seed)
        let db = random.database(items: items, others: 6)
        let engine = Engine(database: db, now: { 1_700_000_000_000 }, random: { 0.5 })
        for (kind, key, className) in indexes { try? engine.createIndex(kind, on: key, in: className) }
        let reference = ReferenceEvaluator(database: db, now: { 1_700_000_000_000 }, random: { 0.5 })
        for _ in 0..<queries {
            let q = random.query(depth: depth)
            let expected = outcome { () throws(Diagnostic) in try reference.run(q) }
            let actual = outcome { () throws(Diagnostic) in try engine.run(q) }
            if actual != expected {
                let small = shrink(q) { q in
                    outcome { () throws(Diagnostic) in try reference.run(q) }
                        != outcome { () throws(Diagnostic) in try engine.run(q) }
                }
                let a = outcome { () throws(Diagnostic) in try engine.run(small) }
                let e = outcome { () throws(Diagnostic) in try reference.run(small) }
                Issue.record("\(a) vs \(e) for \(PredicateText.render(small.predicate)) in \(small)")
            }
            if actual != expected { return }
        }
    }

    @Test(arguments: SoakSeeds.seeds([1, 2, 3, 4], more: 1000))
    func randomQueriesAgreeWithTheReference(seed: UInt64) {
        Self.check(seed: seed, items: 40, queries: 250, depth: 3)
    }

    static let indexedKeys: [FieldPath] = [
        "i", "d", "s", "dt", "b", "tags", "m", "ptr", "rel", "ptr.name", "objectId", "labels", "nums",
    ]

    @Test(arguments: [IndexKind.hash, .ordered], SoakSeeds.seeds([5, 6], more: 2000))
    func withValueIndexes(kind: IndexKind, seed: UInt64) {
        Self.check(
            seed: seed, items: 40, queries: 250, depth: 3,
            indexes: Self.indexedKeys.map { (kind, $0, "Item") } + [(kind, "name", "Other"), (kind, "owner", "Other")])
    }

    @Test(arguments: SoakSeeds.seeds([7, 8], more: 3000))
    func withGeoIndexes(seed: UInt64) {
        Self.check(seed: seed, items: 60, queries: 250, depth: 2, indexes: [(.geo, "g", "Item"), (.geo, "m", "Item")])
    }

    /// Several batches, so that scans, early LIMITs and index walks cross batch boundaries.
    @Test func largerThanOneBatch() {
        Self.check(
            seed: 9, items: 9000, queries: 30, depth: 2,
            indexes: [(.ordered, "i", "Item"), (.hash, "s", "Item"), (.geo, "g", "Item")])
    }
}
