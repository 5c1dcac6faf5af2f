import QuarryCore
import Testing

@testable import QuarryEngine

/// New literals bound into a cached plan without normalizing again (docs/ARCHITECTURE.md#plan-cache):
/// only where normalization did not read the literals, with the new query's ranges and rewrites.
@Suite struct PlanRebindingTests {
    static let people = PlanCacheTests.people

    static func sql(_ p: Filter) -> Query { Query(className: "Person", predicate: p) }

    @Test func shapesWhoseRewritesIgnoreTheValuesAreRebound() throws {
        let engine = Engine(database: Self.people)
        let shape = { (age: Int64, score: Double) in
            Self.sql(
                .and([
                    .leaf(.compare(.literal(.int(age)), .lt, .key("age"), []), .sql),
                    .not(compare("score", .gt, .double(score), .sql)),
                ]))
        }
        _ = try engine.plan(shape(5, 10))
        for (age, score) in [(9, 14.5), (2, 1.5), (11, 0.5)] as [(Int64, Double)] {
            let plan = try engine.plan(shape(age, score))
            #expect(plan.rebindable == true)
            #expect(PlanShape.literals(of: plan.normalized) == [.int(age), .double(score)])
            let expected = try ReferenceEvaluator(database: Self.people).run(shape(age, score))
            #expect(try engine.run(shape(age, score)) == expected)
        }
    }

    @Test func shapesWhoseRewritesReadTheValuesArePlannedAgain() throws {
        let engine = Engine(database: Self.people)
        let like = { (pattern: String) in
            Self.sql(.leaf(.string(.key("name"), .like(.sql(escape: nil)), .literal(.string(pattern)), []), .sql))
        }
        _ = try engine.plan(like("J%"))
        let plan = try engine.plan(like("J_e%"))
        #expect(plan.rebindable != true)
        #expect(plan.normalized == like("J_e%").predicate)
        #expect(try engine.run(like("J_e%")) == (try ReferenceEvaluator(database: Self.people).run(like("J_e%"))))
    }

    @Test func aReboundPlanExplainsItsOwnLiterals() throws {
        let engine = Engine(database: Self.people)
        let swapped = { (age: Int64) in Self.sql(.leaf(.compare(.literal(.int(age)), .lt, .key("age"), []), .sql)) }
        _ = try engine.run(swapped(3))
        _ = try engine.run(swapped(7))
        let rewrites = try engine.explain(swapped(7)).root.children.first { $0.kind == "rewrites" }
        #expect(rewrites?.children.map(\.detail).joined().contains("7") == true)
        #expect(rewrites?.children.map(\.detail).joined().contains("3") == false)
    }

    /// The leaf ranges are the new query's: an error a rebound plan raises points into its text.
    @Test func aReboundPlanLocatesErrorsInItsOwnText() throws {
        let engine = Engine(database: Self.people)
        let regex = { (pattern: String, at: Int) in
            Self.sql(
                .leaf(
                    Leaf(
                        .string(
                            .key("name"), .matches(RegexOptions(wholeString: false)), .literal(.string(pattern)), []),
                        semantics: .document, range: SourceRange(offset: at, length: 3))))
        }
        _ = try engine.run(regex("^J", 0))
        do throws(Diagnostic) {
            _ = try engine.run(regex("(", 5))
            Issue.record("no error")
        } catch {
            #expect(error.code == "regex.invalid")
            #expect(error.range == SourceRange(offset: 5, length: 3))
        }
    }
}
