import Testing
@testable import QuarryParseREST
import QuarryCore

/// IR → request model → IR, without JSON text: printing must give back exactly the IR the
/// front-end made, and report what `where` JSON cannot say.
@Suite struct PrinterTests {
    static let here = geo(37.7749, -122.4194)
    static let q = QueryBuilder("GameScore")

    /// One builder query per builder feature.
    static let builderQueries: [QueryBuilder] = [
        q.where("playerName" == "Dan Stemkoski"),
        q.where("playerName" != "Michael Yabuti", "playerAge" > 18),
        q.where("wins" < 50, "wins" >= 10, Field("wins").equalTo(20)),
        q.where("wins" <= 5.5, "createdAt" > RelativeDate("3 days ago"), "updatedAt" < .date(1_000)),
        q.where("score" == nil, "post" == .pointer(ptr("Post", "p1"))),
        q.where(Field("a").containedIn([1, "x", .pointer(ptr("T", "t"))]), Field("b").notContainedIn([true])),
        q.where(Field("a").containsAll([2, 3]), Field("b").containedBy(["x"]), Field("c").sizeEqualTo(3)),
        q.where(Field("a").exists, Field("b").doesNotExist),
        q.where(
            Field("n").hasPrefix("Big"), Field("m").hasSuffix(#"a\Eb"#, caseInsensitive: true),
            Field("o").containsString("l.nch")),
        q.where(Field("n").matchesRegex("^((?!ticket).)*$"), Field("m").matchesRegex("x", modifiers: "smix")),
        q.where(Field("body").matchesText("\"a b\" -c", language: "de", diacriticSensitive: true)),
        q.where(
            Field("post").matchesQuery(
                QueryBuilder("Post").where(Field("image").exists).limit(5).skip(1)
                    .order(.descending("createdAt")))),
        q.where(Field("post").doesNotMatchQuery(QueryBuilder("Post"))),
        q.where(
            Field("home").matchesKey("city", in: QueryBuilder("Team").where("winPct" > 0.5)),
            Field("home").doesNotMatchKey("city", in: QueryBuilder("Team"))),
        q.where(.relatedTo(ptr("_User", "u1"), key: "likes")),
        q.where(Field("location").near(here)).limit(10),
        q.where(Field("location").near(here, within: Distance(10, .miles))).order(.ascending("name")),
        q.where(Field("location").near(here, within: Distance(0.5, .radians)), Field("other").near(here)),
        q.where(Field("location").withinGeoBox(southwest: geo(1, 1), northeast: geo(2, 2))),
        q.where(Field("location").withinPolygon([geo(0, 0), geo(0, 1), geo(1, 0)])),
        q.where(Field("location").withinCircle(center: here, radius: Distance(3, .kilometers))),
        q.where(Field("bounds").polygonContains(here)),
        q.where(("wins" < 5) || ("wins" > 150), "team" == "A"),
        q.where(("a" == 1 && "b" == 2) || !("c" == 3), .nor(["d" == 4, "e" == 5])),
        q.where(("a" > 1) && ("a" > 2), "b" == 1, ("a" < 9) && ("b" == 2)),
        QueryBuilder.or(q.where("a" == 1), q.where("b" == 2)).where("c" == 3),
        QueryBuilder.and(q.where("a" == 1), q.where("a" == 2)),
        QueryBuilder.nor(q.where("a" == 1)),
        q.order(.ascending("score"), .descending("name")).skip(20).limit(10).select("a", "b.c").exclude("d")
            .include("post.author"),
        q.where("x" == 1).limit(0),
    ]

    @Test(arguments: builderQueries.indices)
    func builderQueriesRoundTrip(_ i: Int) throws {
        for profile in [Profile.exact, .leancloud] {
            let query = try Self.builderQueries[i].build(profile: profile)
            let printed = try Printer.spec(query, schema: nil)
            #expect(try Lowerer.lower(printed, profile: profile, limits: .default) == query)
        }
        let counting = try Self.builderQueries[i].buildCount()
        #expect(
            try Lowerer.lower(try Printer.spec(counting, schema: nil), profile: .exact, limits: .default) == counting)
    }

    @Test func conjunctOrderSurvivesRepeatedKeys() throws {
        let ir = Query(
            className: "T",
            predicate: .and([
                cmp("a", .gt, 1), eq("b", 2), cmp("a", .lt, 5),
                .or([eq("c", 1)]), .or([eq("d", 1)]), eq("b", 3),
            ]))
        let spec = try Printer.spec(ir, schema: nil)
        #expect(try Lowerer.lower(spec, profile: .exact, limits: .default) == ir)
    }

    @Test func constantsAndNegations() throws {
        for p: Filter in [
            .constant(true), .constant(false), .not(eq("a", 1)), .not(.or([eq("a", 1), eq("b", 2)])),
            .or([.constant(true), eq("a", 1)]),
            doc(.string(key("n"), .beginsWith, lit("x"), []), negated: true),
            doc(.geo(.withinBox("l", southwest: geo(0, 0), northeast: geo(1, 1))), negated: true),
        ] {
            let ir = Query(className: "T", predicate: p)
            let lowered = try Lowerer.lower(try Printer.spec(ir, schema: nil), profile: .exact, limits: .default)
            switch p {
            case .not(.leaf(var l)):
                // NOT of a document leaf is that leaf negated.
                l.negated.toggle()
                #expect(lowered.predicate == .leaf(l))
            default:
                #expect(lowered.predicate == p)
            }
        }
    }

    func printed(_ p: Filter, schema: (any Schema)? = nil, order: [SortKey] = []) throws -> Filter {
        let ir = Query(className: "T", predicate: p, order: order)
        return try Lowerer.lower(try Printer.spec(ir, schema: schema), profile: .exact, limits: .default).predicate
    }

    func inexpressible(_ p: Filter, schema: (any Schema)? = nil, order: [SortKey] = []) -> [Diagnostic] {
        diagnostics { () throws(Diagnostics) in
            try Printer.spec(Query(className: "T", predicate: p, order: order), schema: schema)
        }
    }

    @Test func positiveSQLTestsAgreeWithParse() throws {
        let sql: [Filter] = [
            .leaf(.compare(key("age"), .gt, lit(21), []), .sql),
            .leaf(.compare(key("name"), .eq, lit("x"), []), .sql),
            .leaf(.inCollection(key("n"), list([1, 2]), []), .sql),
            .leaf(.string(key("n"), .beginsWith, lit("a"), .caseInsensitive), .sql),
        ]
        for p in sql {
            guard case .leaf(var l) = p else { continue }
            l.semantics = .document
            #expect(try printed(p) == .leaf(l))
        }
        // `21 < age` reads as `age > 21`.
        #expect(try printed(.leaf(.compare(lit(21), .lt, key("age"), []), .sql)) == cmp("age", .gt, 21))
    }

    @Test func likeBecomesAnAnchoredRegex() throws {
        let p = Filter.leaf(.string(key("name"), .like(.sql(escape: "!")), lit("a%b_c!%"), .caseInsensitive), .sql)
        #expect(
            try printed(p)
                == doc(
                    .string(
                        key("name"), .matches(RegexOptions(wholeString: false, flags: [.caseInsensitive, .dotAll])),
                        lit(#"\A\Qa\E.*\Qb\E.\Qc%\E\z"#), [])))
        #expect(LikePattern.regex(#"*.txt\?"#, .glob) == #"\A.*\Q.txt?\E\z"#)
        let whole = Filter.leaf(
            .string(
                key("n"), .matches(RegexOptions(wholeString: true, flags: [.multiline])),
                lit("a|b"), []), .document)
        #expect(
            try printed(whole)
                == doc(
                    .string(
                        key("n"), .matches(RegexOptions(wholeString: false, flags: .multiline)),
                        lit(#"\A(?:a|b)\z"#), [])))
    }

    @Test func nullSensitiveTestsNeedASchema() throws {
        let ne = Filter.leaf(.compare(key("name"), .ne, lit("foo"), []), .sql)
        let isNull = Filter.leaf(.isNull(key("name")), .sql)
        let nsEq = Filter.leaf(.compare(key("name"), .eq, lit("foo"), []), .predicate)
        for p in [ne, isNull, nsEq] {
            let d = inexpressible(p)
            #expect(d.map(\.code) == ["translate.inexpressible"])
            #expect(d.first?.path == "where")
        }
        let schema = TestSchema([
            "T": ["name": .string, "tags": .array(of: .string), "post": .pointer(to: "Post")],
            "Post": ["title": .string],
        ])
        #expect(
            try printed(ne, schema: schema)
                == .and([
                    doc(.compare(key("name"), .eq, lit("foo"), []), negated: true),
                    doc(.isNull(key("name")), negated: true),
                ]))
        #expect(try printed(isNull, schema: schema) == doc(.isNull(key("name"))))
        #expect(try printed(nsEq, schema: schema) == eq("name", "foo"))
        #expect(
            try printed(.leaf(.compare(key("post.title"), .ne, lit("x"), []), .predicate), schema: schema)
                == doc(.compare(key("post.title"), .eq, lit("x"), []), negated: true))
        #expect(
            try printed(.leaf(.between(key("name"), lower: lit("a"), upper: lit("m")), .sql), schema: schema)
                == .and([cmp("name", .ge, "a"), cmp("name", .le, "m")]))
        // SQL's NOT(a < 5) on a scalar: not the test, and set.
        #expect(
            try printed(.leaf(.compare(key("name"), .lt, lit("m"), []), negated: true, .sql), schema: schema)
                == .and([
                    doc(.compare(key("name"), .lt, lit("m"), []), negated: true),
                    doc(.isNull(key("name")), negated: true),
                ]))
        #expect(
            try printed(.leaf(.compare(key("name"), .eq, lit(.null), []), .sql), schema: schema) == .constant(false))
        // Array fields stay inexpressible even with the schema.
        #expect(inexpressible(.leaf(.compare(key("tags"), .eq, lit("a"), []), .predicate), schema: schema).count == 1)
    }

    @Test func inexpressibleConstructs() {
        let cases: [Filter] = [
            .leaf(.compare(key("a"), .gt, .arithmetic(.add, key("b"), lit(1)), []), .sql),
            .leaf(.compare(key("a"), .eq, key("b"), []), .document),
            .leaf(.quantified(.any, key("tags"), variable: "t", eq("x", 1)), .predicate),
            doc(.compare(key("a"), .eq, lit("x"), .caseInsensitive)),
            doc(.compare(key("a"), .eq, lit([1, 2]), [])),
            doc(.compare(key("a"), .ne, lit(1), [])),
            doc(.geo(.distance("loc", from: geo(0, 0), .gt, Distance(1, .kilometers)))),
            doc(.string(key("a"), .contains, lit("x"), .diacriticInsensitive)),
        ]
        for p in cases {
            #expect(inexpressible(p).map(\.code) == ["translate.inexpressible"], "\(p)")
        }
    }

    @Test func orderingRules() throws {
        let near = doc(.geo(.near("loc", geo(1, 1), maxDistance: nil)))
        #expect(inexpressible(near).map(\.code) == ["translate.inexpressible"])
        #expect(inexpressible(eq("a", 1), order: [.distance("loc", from: geo(1, 1), .ascending)]).count == 1)
        #expect(try printed(near, order: [.distance("loc", from: geo(1, 1), .ascending)]) == near)
        var parse = Query(className: "T", predicate: near, order: [.distance("loc", from: geo(1, 1), .ascending)])
        parse.profile = .parse
        #expect(diagnostics { () throws(Diagnostics) in try Printer.spec(parse, schema: nil) }.count == 1)
    }

    @Test func backendlessDistanceWithinPrintsAsACircle() throws {
        let p = doc(.geo(.distance("loc", from: geo(1, 1), .le, Distance(6371, .kilometers))))
        #expect(try printed(p) == doc(.geo(.withinCircle("loc", center: geo(1, 1), radius: Distance(1, .radians)))))
    }
}

/// A fixed schema for the printer's scalar-field rule.
struct TestSchema: Schema {
    let classes: [String: [String: FieldType]]
    init(_ classes: [String: [String: FieldType]]) { self.classes = classes }
    func hasClass(_ className: String) -> Bool { classes[className] != nil }
    func resolveField(_ name: String, in className: String) -> String? { classes[className]?[name] != nil ? name : nil }
    func fieldType(_ field: String, in className: String) -> FieldType? { classes[className]?[field] }
}
