import QuarryCore
import Testing
import QuarryTestSupport

@testable import QuarryEngine

/// Random boolean combinations of the leaf-semantics table's conditions.
private func randomPredicate(_ rng: inout SplitMix64, depth: Int, semantics: [LeafSemantics]) -> Filter {
    let pick = Int(rng.next() % 6)
    if depth == 0 || pick < 3 {
        let c = semanticsCases[Int(rng.next() % UInt64(semanticsCases.count))]
        let s = semantics[Int(rng.next() % UInt64(semantics.count))]
        return .leaf(c.condition, negated: rng.next() % 2 == 0, s)
    }
    let children = (0..<(2 + Int(rng.next() % 2))).map { _ in randomPredicate(&rng, depth: depth - 1, semantics: semantics) }
    switch pick {
    case 3: return .and(children)
    case 4: return .or(children)
    default: return .not(children[0])
    }
}

@Suite struct PropertyTests {
    let db = Datasets.semantics

    /// `run` and `matches` are two roads to the same answer.
    @Test func runAgreesWithMatchesOnEveryObject() throws {
        var rng = SplitMix64(seed: 11)
        let evaluator = ReferenceEvaluator(database: db)
        let records = try #require(db["T"]?.records)
        for _ in 0..<300 {
            let p = randomPredicate(&rng, depth: 3, semantics: LeafSemantics.allCases)
            var expected: [String] = []
            for r in records where try evaluator.matches(r, className: "T", predicate: p) { expected.append(r.objectId) }
            #expect(try evaluator.run(Query(className: "T", predicate: p)).objectIds == expected)
        }
    }

    /// With two-valued leaves, pushing NOT to the leaves (De Morgan plus each leaf's own NOT)
    /// is the same as NOT itself. (With `.sql` leaves it deliberately is not: see the
    /// semantics table.)
    @Test func pushingNotToTwoValuedLeavesIsLogicalNot() throws {
        var rng = SplitMix64(seed: 12)
        for _ in 0..<300 {
            let p = randomPredicate(&rng, depth: 3, semantics: [.predicate, .document])
            #expect(try ids(db, "T", .not(p)) == ids(db, "T", p.pushingNotToLeaves()))
        }
    }
}
