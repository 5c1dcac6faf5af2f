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
            // Read from the execution by the cached plan, whose normalized predicate kept them in place.
            let planned = try engine.plan(shape(age, score))
            #expect(planned.plan.rebindable)
            #expect(planned.literals == [.int(age), .double(score)])
            let expected = try ReferenceEvaluator(database: Self.people).run(shape(age, score))
            #expect(try engine.run(shape(age, score)) == expected)
        }
    }

    /// A simple LIKE pattern is rewritten into a prefix test, whose text the cached plan reads
    /// from the execution (the pattern's text, in the form the normalized predicate holds it);
    /// a pattern that makes another test is planned again, its LIKE kept.
    @Test func aLikeRewriteBindsOnlyPatternsOfItsTest() throws {
        let engine = Engine(database: Self.people)
        let like = { (pattern: String) in
            Self.sql(.leaf(.string(.key("name"), .like(.sql(escape: nil)), .literal(.string(pattern)), []), .sql))
        }
        #expect(try engine.plan(like("J%")).plan.rebindable)
        #expect(try engine.plan(like("Ann%")).literals == [.string("Ann")])
        let plan = try engine.plan(like("J_e%")).plan
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

    // MARK: - Literals read from the execution

    /// A geo index answers a longitude range with a box of its grid, which reads the literal
    /// from each execution as the range's leaf does: other literals run the same plan (the
    /// wide range of the second through a box as wide).
    @Test func aCoordinateRangeOnAGeoIndexedKeyReadsItsLiteral() throws {
        let db = CoordinateBoxTests.grid
        let engine = Engine(database: db)
        try engine.createIndex(.geo, on: "home", in: "Person")
        let reference = ReferenceEvaluator(database: db)
        for lo in [-97.25, -98.55, -97.95] {
            let q = Query(className: "Person", predicate: compare("home.longitude", .ge, .double(lo), .sql))
            #expect(try engine.run(q) == reference.run(q))
        }
        #expect(engine.planCounts == Engine.PlanCounts(built: 1, reused: 0, rebound: 0, bound: 2))
    }

    /// Rows of int, double and date columns that also hold other types, nulls and missing keys.
    static let ranges: Database = {
        var rows: [Record] = []
        for i in 0..<120 {
            let n: Value = i % 17 == 0 ? .string("\(i)") : i % 13 == 0 ? .null : .int(Int64(i % 23) - 5)
            let x: Value = i % 19 == 0 ? .bool(true) : .double(Double(i % 29) / 4 - 2)
            var fields: [(String, Value)] = [("n", n), ("x", x)]
            if i % 11 != 0 { fields.append(("d", .date(Int64(i % 31) * 86_400_000))) }
            rows.append(Record(objectId: "r\(i)", fields: fields))
        }
        return database(("T", rows))
    }()

    /// A deterministic stream of numbers for the random shapes and literals.
    struct Draws {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
    }

    /// A random range leaf over one of the columns; `literal` draws its literals, so that the
    /// same draws of the shape with other literal draws give the same shape.
    static func leaf(_ shape: inout Draws, _ literal: inout Draws, _ s: LeafSemantics) -> Filter {
        let ops: [ComparisonOperator] = [.eq, .ne, .lt, .le, .gt, .ge]
        let key = shape.next(3)
        let negated = shape.next(4) == 0
        func value() -> Value {
            switch key {
            case 0: return .int(Int64(literal.next(30)) - 8)
            case 1: return .double(Double(literal.next(40)) / 4 - 3)
            default:
                guard s == .sql else { return .date(Int64(literal.next(35)) * 86_400_000) }
                let day = literal.next(35)
                // A date string that is no date makes another kind of leaf: planned again.
                return .string(day == 0 ? "no date" : "1970-01-\(String(format: "%02d", day % 28 + 1))T00:00:00.000Z")
            }
        }
        let path: FieldPath = ["n", "x", "d"][key]
        if shape.next(3) == 0 {
            return .leaf(
                Leaf(
                    .between(.key(path), lower: .literal(value()), upper: .literal(value())), negated: negated,
                    semantics: s))
        }
        return compare(path, ops[shape.next(ops.count)], value(), s, negated: negated)
    }

    static func predicate(_ shape: inout Draws, _ literal: inout Draws, _ s: LeafSemantics) -> Filter {
        let a = leaf(&shape, &literal, s)
        switch shape.next(4) {
        case 0: return a
        case 1: return .and([a, leaf(&shape, &literal, s)])
        case 2: return .or([a, .not(leaf(&shape, &literal, s))])
        default: return .not(.and([a, leaf(&shape, &literal, s)]))
        }
    }

    /// Each random shape with several sets of literals, on one thread and in morsels on three:
    /// the same answers (or errors) as the reference, and the cached plan runs with the new
    /// literals as parameters (docs/ARCHITECTURE.md#plan-parameters).
    @Test(arguments: LeafSemantics.allCases)
    func literalsReadFromTheExecutionAgreeWithTheReference(semantics: LeafSemantics) {
        let db = Self.ranges
        let reference = ReferenceEvaluator(database: db)
        let one = Engine(database: db, parallelism: .sequential)
        let many = Engine(database: db, parallelism: ScanParallelism(threads: 3, morselRows: 8))
        var shapes = Draws(state: 7)
        var literals = Draws(state: 8)
        for _ in 0..<150 {
            let shapeState = shapes.state
            for _ in 0..<4 {
                shapes.state = shapeState
                let q = Query(className: "T", predicate: Self.predicate(&shapes, &literals, semantics))
                let expected = ParallelScanTests.outcome { () throws(Diagnostic) in try reference.run(q) }
                for engine in [one, many] {
                    let actual = ParallelScanTests.outcome { () throws(Diagnostic) in try engine.run(q) }
                    #expect(actual == expected, "\(PredicateText.render(q.predicate))")
                }
            }
        }
        #expect(one.planCounts.bound > 100)
        #expect(many.planCounts.bound > 100)
    }
}
