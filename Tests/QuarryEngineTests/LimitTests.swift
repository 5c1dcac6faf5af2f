import QuarryCore
import Testing
import QuarryTestSupport

@testable import QuarryEngine

@Suite struct InnerQueryLimitTests {
    /// Parse T39: 150 posts with an image, each with one comment.
    let db = database(
        ("Post", (1...150).map { record("pa\($0)", ["image": .file(FileRef(name: "\($0).png"))]) }),
        ("Comment", (1...150).map { record("ca\($0)", ["post": pointer("Post", "pa\($0)")]) }))

    private func commentsMatching(innerLimit: Int?, profile: Profile, limits: Limits = .default) throws -> QueryResult {
        let withImage = Query(
            className: "Post", predicate: .leaf(.isNull(.key("image")), negated: true, .document),
            limit: innerLimit, profile: profile)
        let q = Query(
            className: "Comment", predicate: .leaf(.inQuery("post", withImage), .document), count: true,
            profile: profile)
        return try ReferenceEvaluator(database: db, limits: limits).run(q)
    }

    @Test func compatibilityProfilesTruncateInnerQueries() throws {
        #expect(try commentsMatching(innerLimit: nil, profile: .parse) == .count(100))
        #expect(try commentsMatching(innerLimit: nil, profile: .leancloud) == .count(100))
        #expect(try commentsMatching(innerLimit: 1000, profile: .parse) == .count(150))
        #expect(try commentsMatching(innerLimit: 5000, profile: .maxleap) == .count(150))
        #expect(try commentsMatching(innerLimit: 20, profile: .parse) == .count(20))
    }

    @Test func exactProfileSeesEveryInnerRow() throws {
        #expect(try commentsMatching(innerLimit: nil, profile: .exact) == .count(150))
        #expect(try commentsMatching(innerLimit: nil, profile: .backendless) == .count(150))
        #expect(try commentsMatching(innerLimit: 7, profile: .exact) == .count(7))
    }

    @Test func truncationKeepsTheInnerOrder() throws {
        let lastFive = Query(className: "Post", order: [.key("objectId", .descending)], limit: 5, profile: .parse)
        let q = Query(className: "Comment", predicate: .leaf(.inQuery("post", lastFive), .document))
        // Descending objectIds as strings: pa99, pa98, pa97, pa96, pa95.
        #expect(try ids(db, q) == ["ca95", "ca96", "ca97", "ca98", "ca99"])
    }

    @Test func runawayInnerQueriesFailInEveryProfile() throws {
        let small = Limits(maxInnerRows: 120)
        #expect(
            errorCode { _ = try commentsMatching(innerLimit: nil, profile: .exact, limits: small) }
                == "limit.inner-rows")
        #expect(
            errorCode { _ = try commentsMatching(innerLimit: 1000, profile: .parse, limits: small) }
                == "limit.inner-rows")
        // Under the cap it runs.
        #expect(try commentsMatching(innerLimit: nil, profile: .parse, limits: small) == .count(100))
    }
}

@Suite struct ErrorTests {
    let db = ReferenceData.relations

    @Test func regexBudgetIsAnErrorNotANonMatch() {
        let db = database(("S", [record("s", ["v": .string(String(repeating: "a", count: 40) + "b")])]))
        let p = Filter.leaf(
            .string(.key("v"), .matches(RegexOptions(wholeString: false)), .literal("(a+)+$"), []), .document)
        #expect(errorCode { _ = try ids(db, "S", p) } == "limit.regex")
        // NOT does not turn the error into a match either.
        #expect(errorCode { _ = try ids(db, "S", .not(p)) } == "limit.regex")
    }

    @Test func invalidRegex() {
        let p = Filter.leaf(
            .string(.key("name"), .matches(RegexOptions(wholeString: true)), .literal("(unclosed"), []), .predicate)
        #expect(errorCode { _ = try ids(db, "Contact", p) } == "regex.invalid")
    }

    @Test func deadline() throws {
        let expired = Limits(deadlineSeconds: 0)
        #expect(errorCode { _ = try ids(db, "Contact", .constant(true), limits: expired) } == "limit.deadline")
        #expect(try ids(db, "Contact", .constant(true), limits: Limits(deadlineSeconds: 3600)).count == 6)
        #expect(
            errorCode { _ = try ids(db, "Contact", .constant(true), limits: Limits(deadlineSeconds: -.infinity)) }
                == "limit.deadline")
    }

    @Test func unboundVariablesFailBeforeAnyRowIsRead() {
        let p = Filter.leaf(.compare(.key("age"), .gt, .variable("minAge"), []), .predicate)
        #expect(errorCode { _ = try ids(db, "Contact", p) } == "query.unbound-variable")
        let empty = database(("Nobody", []))
        #expect(errorCode { _ = try ids(empty, "Nobody", p) } == "query.unbound-variable")
        #expect(errorCode { _ = try ids(db, "Contact", p, variables: ["minAge": 30]) } == nil)
        let evaluator = ReferenceEvaluator(database: db)
        #expect(
            errorCode { _ = try evaluator.matches(record("x"), className: "Contact", predicate: p) }
                == "query.unbound-variable")
    }

    @Test func quantifierVariablesAreScoped() {
        let bound = Filter.leaf(
            .quantified(
                .any, .key("contacts"), variable: "c",
                .leaf(.compare(.member(.variable("c"), "age"), .gt, .literal(30), []), .predicate)),
            .predicate)
        #expect(errorCode { _ = try ids(db, "PhoneBook", bound) } == nil)
        // Outside its quantifier the variable is unbound, and so inside an inner query.
        let leaked = Filter.and([bound, .leaf(.compare(.variable("c"), .eq, .literal(1), []), .predicate)])
        #expect(errorCode { _ = try ids(db, "PhoneBook", leaked) } == "query.unbound-variable")
        let inner = Query(
            className: "Contact", predicate: .leaf(.compare(.key("age"), .eq, .variable("c"), []), .predicate))
        let correlated = Filter.leaf(
            .quantified(.any, .key("contacts"), variable: "c", .leaf(.inQuery("owner", inner), .predicate)),
            .predicate)
        #expect(errorCode { _ = try ids(db, "PhoneBook", correlated) } == "query.unbound-variable")
    }

    @Test func unknownClasses() {
        #expect(errorCode { _ = try ids(db, "Nope", .constant(true)) } == "query.unknown-class")
        let inner = Query(className: "Ghost")
        #expect(
            errorCode { _ = try ids(db, "Contact", .leaf(.inQuery("address", inner), .document)) }
                == "query.unknown-class")
        #expect(
            errorCode { _ = try ids(db, "Contact", .leaf(.select("name", inner, innerKey: "name"), .sql)) }
                == "query.unknown-class")
    }

    @Test func subqueryCaps() {
        func nested(_ depth: Int) -> Query {
            depth == 0
                ? Query(className: "Address")
                : Query(
                    className: "Address",
                    predicate: .leaf(.select("objectId", nested(depth - 1), innerKey: "objectId"), .sql))
        }
        let four = Filter.leaf(.select("objectId", nested(3), innerKey: "objectId"), .sql)
        let five = Filter.leaf(.select("objectId", nested(4), innerKey: "objectId"), .sql)
        #expect(errorCode { _ = try ids(db, "Address", four) } == nil)
        #expect(errorCode { _ = try ids(db, "Address", five) } == "limit.subquery-depth")
        let many = Filter.or((0..<17).map { _ in .leaf(.inQuery("address", Query(className: "Address")), .document) })
        #expect(errorCode { _ = try ids(db, "Contact", many) } == "limit.subqueries")
        #expect(errorCode { _ = try ids(db, "Contact", many, limits: Limits(maxSubqueries: 17)) } == nil)
    }

    @Test func nestingCap() {
        var p = Filter.constant(true)
        for _ in 0..<300 { p = .not(p) }
        #expect(errorCode { _ = try ids(db, "Contact", p) } == "limit.nesting")
        #expect(errorCode { _ = try ids(db, "Contact", p, limits: Limits(maxNestingDepth: 200)) } == nil)
    }

    /// The deepest node of a leaf holding a list is its list's items, three levels below the
    /// filters above it: the limit counts them whether the predicate is checked leaf by leaf
    /// (keys and literals only) or walked node by node (a variable in it), in the reference
    /// and in the engine.
    @Test(arguments: [false, true]) func nestingCapCountsTheItemsOfAList(walked: Bool) {
        let limits = Limits(maxNestingDepth: 10)
        let maxDepth = 2 * limits.maxNestingDepth + 8
        let engine = Engine(database: db, limits: limits)
        let other: Expr = walked ? .variable("v") : .literal(.int(2))
        for height in (maxDepth - 5)...(maxDepth - 1) {
            var p = Filter.leaf(.inCollection(.key("age"), .list([.literal(.int(1)), other]), []), .predicate)
            for _ in 0..<height { p = .not(p) }
            let query = Query(className: "Contact", predicate: p)
            let expected = height + 3 > maxDepth ? "limit.nesting" : nil
            #expect(errorCode { _ = try ids(db, query, variables: ["v": .int(2)], limits: limits) } == expected)
            #expect(errorCode { _ = try engine.run(query, variables: ["v": .int(2)]) } == expected, "\(height)")
        }
    }

    /// An invalid pattern is found before any row is read, at its leaf.
    @Test func anInvalidPatternIsLocatedAtItsLeaf() {
        let leaf = Leaf(
            .string(.key("name"), .matches(RegexOptions(wholeString: true)), .literal(.string("(")), []),
            semantics: .sql, range: SourceRange(offset: 12, length: 9))
        let query = Query(className: "Contact", predicate: .and([compare("age", .gt, 1, .sql), .leaf(leaf)]))
        for run in [{ _ = try ids(db, query) }, { _ = try Engine(database: db).run(query) }] as [() throws -> Void] {
            let error = #expect(throws: Diagnostic.self) { try run() }
            #expect(error?.code == "regex.invalid")
            #expect(error?.range == SourceRange(offset: 12, length: 9))
        }
    }

    @Test func malformedIR() {
        let wrongArity = Filter.leaf(.compare(.function(.sqrt, []), .eq, .literal(1), []), .predicate)
        #expect(errorCode { _ = try ids(db, "Contact", wrongArity) } == "query.function-arity")
        #expect(errorCode { _ = try ids(db, Query(className: "Contact", skip: -1)) } == "query.invalid-skip")
        #expect(errorCode { _ = try ids(db, Query(className: "Contact", limit: -5)) } == "query.invalid-limit")
    }

    @Test func unparseableDateLiteralUnderSQL() {
        let db = database(("Contact", [record("u", ["updated": .date(1_427_068_800_000)])]))
        #expect(
            errorCode { _ = try ids(db, "Contact", compare("updated", .gt, "2015.03.23", .sql)) } == "date.unparseable")
    }

    @Test func badRelativeTime() {
        let db = database(("E", [record("e", ["at": .date(0)])]))
        let p = Filter.leaf(.compare(.key("at"), .lt, .function(.relativeTime, [.literal("sometime")]), []), .document)
        #expect(errorCode { _ = try ids(db, "E", p) } == "date.relative-time")
    }
}

@Suite struct DepthTests {
    /// The deepest IR the validator lets through evaluates without exhausting the stack.
    @Test func deepestAllowedQueryRuns() throws {
        let db = ReferenceData.relations
        var p = compare("age", .gt, 0, .sql)
        for i in 0..<103 { p = i % 2 == 0 ? .not(.not(p)) : .and([.or([p, .constant(false)])]) }
        #expect(try ids(db, "Contact", p).count == 6)
        var e = Expr.key("age")
        for _ in 0..<206 { e = .arithmetic(.add, e, .literal(1)) }
        #expect(try ids(db, "Contact", .leaf(.compare(e, .gt, .literal(0), []), .predicate)).count == 6)
    }

    /// Inner queries run inside the outer evaluation: four of them, each as deep as allowed.
    @Test func deepestNestedInnerQueriesRun() throws {
        let db = ReferenceData.relations
        func deep(_ p: Filter) -> Filter {
            var p = p
            for _ in 0..<103 { p = .not(.not(p)) }
            return p
        }
        var query = Query(className: "Contact", predicate: deep(compare("age", .gt, 0, .sql)))
        for _ in 0..<4 {
            query = Query(
                className: "Contact", predicate: deep(.leaf(.select("objectId", query, innerKey: "objectId"), .sql)))
        }
        #expect(try ids(db, query).count == 6)
    }
}
