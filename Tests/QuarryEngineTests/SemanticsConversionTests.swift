import QuarryCore
import QuarryTranslation
import Testing

@testable import QuarryEngine

/// `SemanticsConversion` keeps results: on data with every shape the leaf semantics disagree
/// on, the reference evaluator selects the same objects before and after, or the conversion is a
/// `translate.inexpressible` diagnostic.
@Suite struct SemanticsConversionTests {
    static let pairs: [(LeafSemantics, LeafSemantics)] = LeafSemantics.allCases.flatMap { s in
        LeafSemantics.allCases.filter { $0 != s }.map { (s, $0) }
    }

    /// Leaves of every kind, plain, negated and under NOT, without a schema: the conversion
    /// assumes nothing about the fields, so it must be exact on the mixed data.
    @Test(arguments: pairs)
    func everyLeafWithoutSchema(_ source: LeafSemantics, _ target: LeafSemantics) throws {
        let conditions = conversionConditions(
            keys: ["a", "name", "tags", "born", "ref.x", "refs.x", "refs", "geo", "objectId"],
            constants: [5, 5.5, "bob", "2015-03-23", .date(5), true, nil])
        var outcomes: [ConversionOutcome: Int] = [:]
        for c in conditions {
            for negated in [false, true] {
                let leaf = Filter.leaf(c, negated: negated, source)
                for p in [leaf, .not(leaf)] {
                    let outcome = try checkConversion(p, to: target, db: ConversionData.mixed, schema: nil)
                    outcomes[outcome, default: 0] += 1
                }
            }
        }
        // Each pair restates a good share of the leaves exactly even knowing nothing.
        #expect(outcomes[.converted, default: 0] >= Self.minimumWithoutSchema[target]!, "\(outcomes)")
    }

    /// With the data as schema, single-valued and single-typed fields translate far more often.
    @Test(arguments: pairs)
    func everyLeafWithSchema(_ source: LeafSemantics, _ target: LeafSemantics) throws {
        let db = ConversionData.typed
        let conditions = conversionConditions(
            keys: ["name", "age", "tags", "born", "ref", "ref.x", "refs.x", "refs", "geo"],
            constants: [5, 5.5, "bob", "2015-03-23", .date(5), nil])
        var outcomes: [ConversionOutcome: Int] = [:]
        for c in conditions {
            for negated in [false, true] {
                let leaf = Filter.leaf(c, negated: negated, source)
                for p in [leaf, .not(leaf)] {
                    let outcome = try checkConversion(p, to: target, db: db, schema: db)
                    outcomes[outcome, default: 0] += 1
                }
            }
        }
        #expect(outcomes[.converted, default: 0] >= Self.minimumWithSchema[target]!, "\(outcomes)")
    }

    /// Conversions each target reaches from either source (of about 5900 leaves), a little
    /// below what the rules reach today, so a rule that stops applying shows up. Into Parse,
    /// fewer since MongoDB's `$all` (an AND of equalities) no longer tells arrays apart.
    static let minimumWithoutSchema: [LeafSemantics: Int] = [.predicate: 4700, .document: 1400, .sql: 600]
    static let minimumWithSchema: [LeafSemantics: Int] = [.predicate: 5100, .document: 2300, .sql: 2300]
}

/// The converted IR of the documented examples, exactly.
@Suite struct SemanticsConversionGoldenTests {
    let typed = ConversionData.typed

    private func convert(_ p: Filter, to target: LeafSemantics, schema: (any Schema)? = nil) throws -> Filter {
        try SemanticsConversion.convert(p, to: target, className: "T", schema: schema)
    }

    private func leaf(_ c: Condition, negated: Bool = false, _ s: LeafSemantics) -> Filter {
        .leaf(c, negated: negated, s)
    }

    private func cmp(
        _ e: Expr, _ op: ComparisonOperator, _ v: Value, _ s: LeafSemantics,
        _ o: StringOptions = []
    ) -> Filter {
        .leaf(.compare(e, op, .literal(v), o), s)
    }

    private func any(_ coll: Expr, _ v: String, _ body: Filter) -> Filter {
        .leaf(.quantified(.any, coll, variable: v, body), .predicate)
    }

    /// NSPredicate's `!=` holds on nil; SQL's never does.
    @Test func predicateNotEqualToSQL() throws {
        let p = cmp(.key("age"), .ne, 5, .predicate)
        #expect(
            try convert(p, to: .sql, schema: typed)
                == .or([leaf(.isNull(.key("age")), .sql), cmp(.key("age"), .ne, 5, .sql)]))
    }

    /// Without a schema the field may hold an array, which SQL cannot look at as a whole.
    @Test func predicateNotEqualToSQLNeedsASchema() throws {
        let p = cmp(.key("age"), .ne, 5, .predicate)
        let error = try #require(throws: Diagnostics.self) { try convert(p, to: .sql) }
        #expect(error.all.map(\.code) == ["translate.inexpressible"])
        #expect(error.all[0].message.hasPrefix("the predicate test `age != 5` has no exact SQL equivalent"))
        #expect(error.all[0].notes == ["a schema (the CLI's --data) showing what the field holds may let it translate"])
    }

    /// SQL's `=` tests every element (ANY, exact on single values too) and compares dates as
    /// milliseconds; a schema showing a number field leaves both out.
    @Test func sqlEqualsToPredicate() throws {
        let p = cmp(.key("age"), .eq, 5, .sql)
        #expect(
            try convert(p, to: .predicate)
                == .or([
                    any(.key("age"), "#t0", cmp(.variable("#t0"), .eq, 5, .predicate)),
                    any(.key("age"), "#t1", cmp(.variable("#t1"), .eq, .date(5), .predicate)),
                ]))
        #expect(try convert(p, to: .predicate, schema: typed) == cmp(.key("age"), .eq, 5, .predicate))
    }

    /// A negated SQL test (null never passes) becomes `!= nil AND …` on each element.
    @Test func negatedSQLToPredicate() throws {
        let p = leaf(.compare(.key("name"), .eq, .literal("bob"), []), negated: true, .sql)
        #expect(
            try convert(p, to: .predicate, schema: typed)
                == .and([cmp(.key("name"), .ne, .null, .predicate), cmp(.key("name"), .ne, "bob", .predicate)]))
        #expect(
            try convert(p, to: .predicate)
                == any(
                    .key("name"), "#t0",
                    .and([
                        cmp(.variable("#t0"), .ne, .null, .predicate),
                        cmp(.variable("#t0"), .ne, "bob", .predicate),
                    ])))
    }

    /// SQL LIKE (case-insensitive, `%` `_`, escape) becomes a glob with `[c]`; literal `*`, `?`
    /// and `\` are escaped.
    @Test func sqlLikeToGlob() throws {
        let p = leaf(.string(.key("name"), .like(.sql(escape: "!")), .literal("J%!_*?\\_"), .caseInsensitive), .sql)
        #expect(
            try convert(p, to: .predicate, schema: typed)
                == leaf(.string(.key("name"), .like(.glob), .literal(#"J*_\*\?\\?"#), .caseInsensitive), .predicate))
    }

    /// A glob into SQL takes `\` as its escape character only when a literal needs one.
    @Test func globToSQLLike() throws {
        let plain = leaf(.string(.key("name"), .like(.glob), .literal("b?b*"), .caseInsensitive), .predicate)
        #expect(
            try convert(plain, to: .sql, schema: typed)
                == leaf(.string(.key("name"), .like(.sql(escape: nil)), .literal("b_b%"), .caseInsensitive), .sql))
        let escaped = leaf(.string(.key("name"), .like(.glob), .literal(#"100%_\*"#), .caseInsensitive), .predicate)
        #expect(
            try convert(escaped, to: .sql, schema: typed)
                == leaf(
                    .string(.key("name"), .like(.sql(escape: "\\")), .literal(#"100\%\_*"#), .caseInsensitive), .sql))
    }

    /// `BEGINSWITH[c]` is SQL's LIKE 'x%'.
    @Test func caseInsensitivePrefixToSQLLike() throws {
        let p = leaf(.string(.key("name"), .beginsWith, .literal("b_"), .caseInsensitive), .predicate)
        #expect(
            try convert(p, to: .sql, schema: typed)
                == leaf(.string(.key("name"), .like(.sql(escape: "\\")), .literal(#"b\_%"#), .caseInsensitive), .sql))
    }

    /// Parse's `tags: "a"` (the array holds "a") is NSPredicate's ANY.
    @Test func documentArrayEqualityToPredicate() throws {
        let p = cmp(.key("tags"), .eq, "a", .document)
        #expect(
            try convert(p, to: .predicate, schema: typed)
                == any(.key("tags"), "#t0", cmp(.variable("#t0"), .eq, "a", .predicate)))
    }

    /// Parse's `$ne` matches a missing field.
    @Test func documentNotEqualToSQL() throws {
        let p = leaf(.compare(.key("age"), .eq, .literal(5), []), negated: true, .document)
        #expect(
            try convert(p, to: .sql, schema: typed)
                == .or([leaf(.isNull(.key("age")), .sql), cmp(.key("age"), .ne, 5, .sql)]))
    }

    /// SQL's `!=` needs a value; Parse's logical NOT does not.
    @Test func sqlNotEqualToDocument() throws {
        let p = cmp(.key("name"), .ne, "x", .sql)
        #expect(
            try convert(p, to: .document, schema: typed)
                == .and([
                    leaf(.compare(.key("name"), .eq, .literal("x"), []), negated: true, .document),
                    leaf(.isNull(.key("name")), negated: true, .document),
                ]))
    }

    /// Without a schema, SQL's `!=` on a field that may hold an array asks for an element that
    /// differs; Parse cannot tell an array holding only x from x itself (`$all` is an AND of
    /// equalities, as in MongoDB), so there is no exact translation.
    @Test func sqlNotEqualToDocumentOnArrays() throws {
        let p = cmp(.key("n"), .ne, true, .sql)
        let error = try #require(throws: Diagnostics.self) { try convert(p, to: .document) }
        #expect(error.all.map(\.code) == ["translate.inexpressible"])
    }

    /// NSPredicate's whole-value equality into Parse, which also matches array elements: exact
    /// only when the schema says the field holds single values.
    @Test func predicateEqualityToDocumentExcludesArrays() throws {
        let p = cmp(.key("n"), .eq, 5, .predicate)
        let error = try #require(throws: Diagnostics.self) { try convert(p, to: .document) }
        #expect(error.all.map(\.code) == ["translate.inexpressible"])
        let age = cmp(.key("age"), .eq, 5, .predicate)
        #expect(try convert(age, to: .document, schema: typed) == cmp(.key("age"), .eq, 5, .document))
    }

    /// `'a' IN tags` / `tags CONTAINS 'a'`: an element equals "a".
    @Test func predicateMembershipOfAConstant() throws {
        let p = leaf(.inCollection(.literal("a"), .key("tags"), []), .predicate)
        #expect(try convert(p, to: .document, schema: typed) == cmp(.key("tags"), .eq, "a", .document))
        #expect(try convert(p, to: .sql, schema: typed) == cmp(.key("tags"), .eq, "a", .sql))
    }

    /// `name ==[c] "bob"` is SQL's (case-insensitive) LIKE without wildcards.
    @Test func caseInsensitiveEqualityToSQL() throws {
        let p = cmp(.key("name"), .eq, "b%b", .predicate, .caseInsensitive)
        #expect(
            try convert(p, to: .sql, schema: typed)
                == leaf(.string(.key("name"), .like(.sql(escape: "\\")), .literal(#"b\%b"#), .caseInsensitive), .sql))
    }

    /// NOT of an ordered comparison is the complementary one, or null, when the schema shows
    /// every value is comparable.
    @Test func notLessThanToSQL() throws {
        let p = Filter.not(cmp(.key("age"), .lt, 5, .predicate))
        #expect(
            try convert(p, to: .sql, schema: typed)
                == .or([leaf(.isNull(.key("age")), .sql), cmp(.key("age"), .ge, 5, .sql)]))
    }

    /// SQL compares a date field with a date literal; a schema rules out strings read as dates.
    @Test func sqlDateLiteral() throws {
        let p = cmp(.key("born"), .gt, .date(ConversionData.march23), .sql)
        #expect(
            try convert(p, to: .predicate, schema: typed)
                == cmp(.key("born"), .gt, .date(ConversionData.march23), .predicate))
        let error = try #require(throws: Diagnostics.self) { try convert(p, to: .predicate) }
        #expect(error.all[0].message.contains("SQL reads a string in the data as a date"))
    }

    /// A string literal that is a date also matches dates in SQL: its twin is stated explicitly.
    @Test func sqlDateStringToDocument() throws {
        let p = cmp(.key("born"), .lt, "2015-03-23", .sql)
        #expect(
            try convert(p, to: .document)
                == .or([
                    cmp(.key("born"), .lt, "2015-03-23", .document),
                    cmp(.key("born"), .lt, .date(ConversionData.march23), .document),
                ]))
    }

    /// Parse equality with a string also matches a pointer whose objectId it is.
    @Test func documentStringEqualityOnPointers() throws {
        let db = database(
            (
                "T",
                [
                    record("t1", ["ref": pointer("U", "bob")]), record("t2", ["ref": pointer("U", "u1")]),
                    record("t3"),
                ]
            ),
            ("U", [record("bob"), record("u1")]))
        let p = cmp(.key("ref"), .eq, "bob", .document)
        #expect(try ids(db, "T", p) == ["t1"])
        let converted = try SemanticsConversion.convert(p, to: .predicate, className: "T", schema: db)
        #expect(
            converted
                == .or([cmp(.key("ref"), .eq, "bob", .predicate), cmp(.key("ref.objectId"), .eq, "bob", .predicate)]))
        #expect(try ids(db, "T", converted) == ["t1"])
        // Without a schema the field may hold both pointers and plain objects.
        let error = try #require(throws: Diagnostics.self) { try convert(p, to: .predicate) }
        #expect(error.all[0].message.contains("may hold both"))
    }

    /// SQL's `IS NULL` on a field that may hold an array also holds for an array without a
    /// non-null element.
    @Test func sqlIsNullToPredicateAndDocument() throws {
        let p = leaf(.isNull(.key("tags")), .sql)
        #expect(
            try convert(p, to: .predicate)
                == .leaf(
                    .quantified(.none, .key("tags"), variable: "#t0", cmp(.variable("#t0"), .ne, .null, .predicate)),
                    .predicate))
        #expect(
            try convert(p, to: .document)
                == .or([
                    leaf(.isNull(.key("tags")), .document),
                    leaf(.containedBy(.key("tags"), .list([.literal(.null)])), .document),
                ]))
    }

    /// SQL output holds no NOT: a NOT over a conjunction is pushed to the leaves.
    @Test func notIsPushedIntoSQLLeaves() throws {
        let p = Filter.not(.and([cmp(.key("age"), .gt, 5, .predicate), cmp(.key("name"), .eq, "x", .predicate)]))
        #expect(
            try convert(p, to: .sql, schema: typed)
                == .or([
                    .or([leaf(.isNull(.key("age")), .sql), cmp(.key("age"), .le, 5, .sql)]),
                    .or([leaf(.isNull(.key("name")), .sql), cmp(.key("name"), .ne, "x", .sql)]),
                ]))
    }

    /// Leaves that already have the target semantics stay as they are.
    @Test func sameSemanticsIsKept() throws {
        let p = Filter.and([cmp(.key("a"), .eq, 1, .document), .not(cmp(.key("b"), .lt, 2, .document))])
        #expect(try convert(p, to: .document) == p)
    }

    /// An inner query's predicate is converted on its own class.
    @Test func innerQueriesAreConverted() throws {
        let inner = Query(className: "U", predicate: cmp(.key("x"), .ne, 5, .predicate))
        let p = leaf(.inQuery("ref", inner), .predicate)
        let converted = try convert(p, to: .sql, schema: typed)
        var expectedInner = inner
        expectedInner.predicate = .or([leaf(.isNull(.key("x")), .sql), cmp(.key("x"), .ne, 5, .sql)])
        // SQL says it with the pointers' ids: `ref.objectId IN (U[x IS NULL OR x != 5].objectId)`.
        #expect(converted == leaf(.select("ref.objectId", expectedInner, innerKey: "objectId"), .sql))
    }

    @Test func queryConversionKeepsItsParameters() throws {
        let q = Query(
            className: "T", predicate: cmp(.key("age"), .eq, 5, .sql), order: [.key("age", .descending)], limit: 3)
        let converted = try SemanticsConversion.convert(q, to: .predicate, schema: typed)
        #expect(converted.order == q.order)
        #expect(converted.limit == 3)
        #expect(converted.predicate == cmp(.key("age"), .eq, 5, .predicate))
    }
}

/// Constructs without an exact equivalent are named in a `translate.inexpressible` diagnostic.
@Suite struct SemanticsConversionInexpressibleTests {
    private func messages(_ p: Filter, to target: LeafSemantics, schema: (any Schema)? = nil) throws -> [String] {
        let error = try #require(throws: Diagnostics.self) {
            try SemanticsConversion.convert(p, to: target, className: "T", schema: schema)
        }
        #expect(error.all.allSatisfy { $0.code == "translate.inexpressible" })
        return error.all.map(\.message)
    }

    @Test func subqueryIntoDocument() throws {
        let count = Expr.aggregate(
            .count,
            .subquery(
                .key("tags"), variable: "x",
                .leaf(.compare(.variable("x"), .eq, .literal("a"), []), .predicate)))
        let p = Filter.leaf(.compare(count, .gt, .literal(0), []), .predicate)
        #expect(
            try messages(p, to: .document)
                == [
                    "the predicate test `SUBQUERY(…).@count > 0` has no exact Parse `where` JSON equivalent: SUBQUERY(…).@count is not a field; Parse `where` JSON only tests fields"
                ])
    }

    @Test func quantifierOverAFailingTestIntoDocument() throws {
        let body = Filter.leaf(.compare(.variable("x"), .gt, .literal(5), []), .predicate)
        let p = Filter.leaf(.quantified(.all, .key("tags"), variable: "x", body), .predicate)
        #expect(
            try messages(p, to: .document)
                == [
                    "the predicate test `ALL tags …` has no exact Parse `where` JSON equivalent: Parse cannot ask for an element that fails this test"
                ])
    }

    @Test func negatedRelatedTo() throws {
        let p = Filter.leaf(.relatedTo(Pointer(className: "P", objectId: "p1"), key: "items"), negated: true, .sql)
        #expect(try messages(p, to: .predicate)[0].contains("false when the parent object does not exist"))
    }

    @Test func everyProblemIsReported() throws {
        let p = Filter.and([
            .leaf(.compare(.key("a"), .lt, .key("b"), []), .document),
            .leaf(.compare(.key("c"), .ne, .literal(1), []), .predicate),
        ])
        #expect(try messages(p, to: .sql).count == 2)
    }

    @Test func nestingBeyondTheLimit() throws {
        var p = Filter.leaf(.isNull(.key("a")), .predicate)
        for _ in 0..<30 { p = .not(p) }
        let error = try #require(throws: Diagnostics.self) {
            try SemanticsConversion.convert(
                p, to: .document, className: "T", schema: nil,
                limits: Limits(maxNestingDepth: 5))
        }
        #expect(error.all.map(\.code) == ["limit.nesting"])
    }

    /// IR far deeper than any front-end makes is refused, not walked to the bottom.
    @Test func deepIRIsRefused() throws {
        var p = Filter.leaf(.compare(.variable("x"), .eq, .literal(1), []), .predicate)
        for _ in 0..<3000 { p = .leaf(.quantified(.any, .key("a"), variable: "x", p), .sql) }
        let error = try #require(throws: Diagnostics.self) {
            try SemanticsConversion.convert(p, to: .predicate, className: "T", schema: nil)
        }
        #expect(error.all.map(\.code) == ["limit.nesting"])
    }
}

/// Pattern rewrites checked on many strings: LIKE between SQL and glob syntax, and Parse's
/// regex search as NSPredicate's whole-string MATCHES.
@Suite struct PatternRewriteTests {
    static let subjects: [Value] = [
        "", "b", "B", "bob", "Bob", "ab", "a\nb", "b\n", "x%_*?\\", "b%b", "b_b", "*?", "\\",
        "bob\nalice", "é", "ÉB", 5,
    ]
    static let strings = database(
        ("S", subjects.enumerated().map { i, v in Record(objectId: "s\(i)", fields: [("v", v)]) }))

    /// The string test of a converted leaf (the field mixes strings and a number, so the test
    /// may sit under an ANY).
    private func stringTest(_ p: Filter) -> Condition? {
        guard case .leaf(let l) = p else { return nil }
        if case .quantified(.any, _, _, let body) = l.condition { return stringTest(body) }
        if case .string = l.condition { return l.condition }
        return nil
    }

    private func check(_ p: Filter, to target: LeafSemantics) throws -> Filter {
        let converted = try SemanticsConversion.convert(p, to: target, className: "S", schema: Self.strings)
        #expect(try ids(Self.strings, "S", converted) == ids(Self.strings, "S", p), "\(p) → \(converted)")
        return converted
    }

    @Test(arguments: ["b%", "%b", "_", "%", "", "b\\%b", "b\\_b", "*?", "\\\\", "x\\%\\_*?\\\\", "%\\", "b!%b", "!!%"])
    func sqlLikeToGlobAndBack(_ pattern: String) throws {
        for escape in [nil, "\\", "!"] as [Character?] {
            for opts in [StringOptions.caseInsensitive, [], [.caseInsensitive, .diacriticInsensitive]] {
                let p = Filter.leaf(
                    .string(.key("v"), .like(.sql(escape: escape)), .literal(.string(pattern)), opts), .sql)
                let glob = try check(p, to: .predicate)
                guard case .string(_, .like(.glob), _, _)? = stringTest(glob) else {
                    Issue.record("not a glob: \(glob)")
                    continue
                }
                // And the glob back into SQL syntax.
                let back = try check(glob, to: .sql)
                guard case .string(_, .like(.sql), _, _)? = stringTest(back) else {
                    Issue.record("not an SQL LIKE: \(back)")
                    continue
                }
            }
        }
    }

    @Test(arguments: [
        "b$", "(?i)B", "a|^b", "(b)o\\1", "(?<=o)b", "x*", "", "^$",
        "b(?=o)", "\\Ab", "b\\z", "^b$", "[é]", "(?m)^b$", "b.", "\\bbob\\b",
    ])
    func regexSearchToWholeString(_ pattern: String) throws {
        let flagSets: [RegexFlags] = [
            [], .caseInsensitive, .multiline, .dotAll, [.multiline, .dotAll, .caseInsensitive],
        ]
        for flags in flagSets {
            let p = Filter.leaf(
                .string(
                    .key("v"), .matches(RegexOptions(wholeString: false, flags: flags)),
                    .literal(.string(pattern)), []), .document)
            let converted = try check(p, to: .predicate)
            guard case .string(_, .matches(let r), _, _)? = stringTest(converted) else {
                Issue.record("not a MATCHES: \(converted)")
                continue
            }
            #expect(r.wholeString && r.flags.isSubset(of: .caseInsensitive))
        }
    }

    /// Strings on which PCRE's caseless matching and full case folding part: `ß` folds to
    /// `ss`, `ﬁ` to `fi`, `İ` to `i̇`, the Kelvin sign to `k`, `ſ` to `s`.
    static let foldings = database(
        (
            "S",
            ([
                "", "cl", "CL", "Cl", "xcl", "c\nl", "clé", "ss", "SS", "ß", "ẞx", "ﬁx", "fix", "FIX",
                "k", "K", "\u{212A}", "s", "ſ", "i", "İ", "ı", "ǰ", "j", "b.", "B.", "x%y", "a\nb.", "xa.b",
            ] as [Value])
            .enumerated().map { i, v in Record(objectId: "f\(i)", fields: [("v", v)]) }
        ))

    /// A searched regex that is literal text reads as the prefix or substring test it is
    /// (`{"$regex":"^cl","$options":"i"}` is `BEGINSWITH[c] "cl"`), with `i` only where PCRE's
    /// caseless matching and `[c]` agree on every letter; elsewhere it stays a MATCHES. Same
    /// objects either way, on subjects where the foldings differ.
    @Test(
        arguments: [
            ("^cl", true, StringOperator.beginsWith, "cl"), ("cl", true, .contains, "cl"),
            ("^cl", false, .beginsWith, "cl"),
            ("\\Qb.\\E", true, .contains, "b."), ("^\\Qx%", false, .beginsWith, "x%"),
            ("^x\\%", true, .beginsWith, "x%"),
            ("^ss", false, .beginsWith, "ss"), ("ß", false, .contains, "ß"), ("^ss", true, nil, ""),
            ("^fi", true, nil, ""),
            ("^k", true, nil, ""), ("^i", true, nil, ""), ("j", true, nil, ""), ("^é", true, nil, ""),
            ("^", false, nil, ""),
        ]
            as [(String, Bool, StringOperator?, String)])
    func literalRegexAsStringTest(_ pattern: String, _ caseless: Bool, _ op: StringOperator?, _ text: String) throws {
        let flags: RegexFlags = caseless ? .caseInsensitive : []
        let p = Filter.leaf(
            .string(
                .key("v"), .matches(RegexOptions(wholeString: false, flags: flags)),
                .literal(.string(pattern)), []), .document)
        for target in [LeafSemantics.predicate, .sql] {
            let converted: Filter
            do {
                converted = try SemanticsConversion.convert(p, to: target, className: "S", schema: Self.foldings)
            } catch {
                // SQL has no regex, and its LIKE ignores case.
                #expect(target == .sql && (op == nil || !caseless), "\(error)")
                continue
            }
            #expect(try ids(Self.foldings, "S", converted) == ids(Self.foldings, "S", p), "\(p) → \(converted)")
            guard target == .predicate else { continue }
            let options: StringOptions = caseless ? .caseInsensitive : []
            if let op {
                #expect(
                    stringTest(converted) == .string(.key("v"), op, .literal(.string(text)), options), "\(converted)")
            } else if case .string(_, .matches(let r), _, _)? = stringTest(converted) {
                #expect(r.wholeString)
            } else {
                Issue.record("not a MATCHES: \(converted)")
            }
        }
    }

    /// The whole-string wrapper: no `\E` unless a `\Q` is left open, no leading `.*?` before a
    /// pattern anchored by `^`.
    @Test(arguments: [
        ("^c.l", "(?:^c.l)(?s:.*)"), ("a.b", "(?s:.*?)(?:a.b)(?s:.*)"), ("x+\\Qa.", "(?s:.*?)(?:x+\\Qa.\\E)(?s:.*)"),
        ("^a|b.", "(?s:.*?)(?:^a|b.)(?s:.*)"), ("\\Qa\\E.", "(?s:.*?)(?:\\Qa\\E.)(?s:.*)"),
    ])
    func wholeStringWrapper(_ pattern: String, _ wrapped: String) throws {
        let p = Filter.leaf(
            .string(.key("v"), .matches(RegexOptions(wholeString: false)), .literal(.string(pattern)), []), .document)
        let converted = try SemanticsConversion.convert(p, to: .predicate, className: "S", schema: Self.foldings)
        #expect(try ids(Self.foldings, "S", converted) == ids(Self.foldings, "S", p))
        #expect(
            stringTest(converted)
                == .string(.key("v"), .matches(RegexOptions(wholeString: true)), .literal(.string(wrapped)), []))
    }

    /// `\G`, verbs and comments in extended mode would mean something else once wrapped.
    @Test(arguments: ["\\Gb", "(*UTF)b", "(?x)b # c"])
    func regexesKeptAsSearches(_ pattern: String) throws {
        let p = Filter.leaf(
            .string(.key("v"), .matches(RegexOptions(wholeString: false)), .literal(.string(pattern)), []),
            .document)
        let converted = try check(p, to: .predicate)
        #expect(
            stringTest(converted)
                == .string(
                    .variable("#t0"), .matches(RegexOptions(wholeString: false)),
                    .literal(.string(pattern)), []))
    }
}
