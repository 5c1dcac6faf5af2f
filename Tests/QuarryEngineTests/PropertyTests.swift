import QuarryCore
import Testing
import QuarryTestSupport

@testable import QuarryEngine

@Suite struct PropertyTests {
    let db = Datasets.semantics

    /// `run` and `matches` are two roads to the same answer.
    @Test func runAgreesWithMatchesOnEveryObject() throws {
        var generator = RandomIR(
            seed: 11, subset: .conditions(semanticsCases.map(\.condition), semantics: LeafSemantics.allCases))
        let evaluator = ReferenceEvaluator(database: db)
        let records = try #require(db["T"]?.records)
        for _ in 0..<300 {
            let p = generator.filter()
            var expected: [String] = []
            for r in records where try evaluator.matches(r, className: "T", predicate: p) {
                expected.append(r.objectId)
            }
            #expect(try evaluator.run(Query(className: "T", predicate: p)).objectIds == expected)
        }
    }

    /// With two-valued leaves, pushing NOT to the leaves (De Morgan plus each leaf's own NOT)
    /// is the same as NOT itself. (With `.sql` leaves it deliberately is not: see the
    /// semantics table.)
    @Test func pushingNotToTwoValuedLeavesIsLogicalNot() throws {
        var generator = RandomIR(
            seed: 12, subset: .conditions(semanticsCases.map(\.condition), semantics: [.predicate, .document]))
        for _ in 0..<300 {
            let p = generator.filter()
            #expect(try ids(db, "T", .not(p)) == ids(db, "T", p.pushingNotToLeaves()))
        }
    }
}
