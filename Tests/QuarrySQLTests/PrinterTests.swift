import Testing
import QuarryCore
import QuarrySQL

@Suite struct PrinterTests {
    static let goldens: [(Filter, String)] = [
        (cmp("name", .eq, "foo"), "name = 'foo'"),
        (cmp("name", .ne, "Charlie's"), "name != 'Charlie''s'"),
        (cmp("age", .ge, 21), "age >= 21"),
        (cmp("age", .lt, -3), "age < -3"),
        (cmp("score", .gt, 5.0), "score > 5.0"),
        (cmp("score", .gt, .double(1e-5)), "score > 1e-05"),
        (cmp("score", .gt, .double(-2.5e300)), "score > -2.5e+300"),
        (cmp("flag", .eq, true), "flag = TRUE"),
        (cmp("weird name", .eq, 1), "`weird name` = 1"),
        (.leaf(.compare(.key(FieldPath(["a`b", "c"])), .eq, lit(1), []), .sql), "`a``b`.c = 1"),
        (cmp("and", .eq, 1), "`and` = 1"),
        (cmp("after", .eq, 1), "after = 1"),
        (cmp("1st", .eq, 1), "`1st` = 1"),
        (cmp("a", .eq, 1, negated: true), "NOT (a = 1)"),
        (sqlLeaf(.compare(lit(21), .lt, key("age"), [])), "21 < age"),
        (sqlLeaf(.compare(key("a"), .eq, key("b"), [])), "a = b"),
        // Dates: keywords for ordered comparisons, the ISO string of pattern 2.
        (cmp("updated", .gt, .date(1_427_068_800_000)), "updated after '2015-03-23T00:00:00.000Z'"),
        (cmp("updated", .le, .date(1_427_121_015_250)), "updated at or before '2015-03-23T14:30:15.250Z'"),
        (cmp("updated", .ge, .date(-1)), "updated at or after '1969-12-31T23:59:59.999Z'"),
        (cmp("updated", .eq, .date(0)), "updated = '1970-01-01T00:00:00.000Z'"),
        (cmp("updated", .lt, .date(Int64.max)), "updated before 9223372036854775807"),
        (sqlLeaf(.compare(lit(.date(0)), .lt, key("updated"), [])), "'1970-01-01T00:00:00.000Z' before updated"),
        // Boolean structure
        (.and([cmp("a", .eq, 1), cmp("b", .eq, 2)]), "a = 1 AND b = 2"),
        (.or([cmp("a", .eq, 1), .and([cmp("b", .eq, 2), cmp("c", .eq, 3)])]), "a = 1 OR b = 2 AND c = 3"),
        (.and([.or([cmp("a", .eq, 1), cmp("b", .eq, 2)]), cmp("c", .eq, 3)]), "(a = 1 OR b = 2) AND c = 3"),
        (.and([cmp("a", .eq, 1), .and([cmp("b", .eq, 2), cmp("c", .eq, 3)])]), "a = 1 AND (b = 2 AND c = 3)"),
        (.or([.or([cmp("a", .eq, 1), cmp("b", .eq, 2)]), cmp("c", .eq, 3)]), "(a = 1 OR b = 2) OR c = 3"),
        (.constant(true), "TRUE"),
        (.and([.constant(false), cmp("a", .eq, 1)]), "FALSE AND a = 1"),
        (.and([]), "TRUE"),
        (.or([]), "FALSE"),
        (.or([cmp("a", .eq, 1)]), "a = 1"),
        // Other leaves
        (sqlLeaf(.isNull(key("name"))), "name IS NULL"),
        (sqlLeaf(.isNull(key("name")), negated: true), "name IS NOT NULL"),
        (like("name", "J%"), "name LIKE 'J%'"),
        (like("name", "J%", negated: true), "name NOT LIKE 'J%'"),
        (like("name", "a'!%", escape: "!"), "name LIKE 'a''!%' ESCAPE '!'"),
        (like("name", "''", escape: "'"), "name LIKE '''''' ESCAPE ''''"),
        (
            sqlLeaf(.inCollection(key("n"), .list([lit(1), lit("x"), lit(2.5), lit(false)]), [])),
            "n IN (1, 'x', 2.5, FALSE)"
        ),
        (sqlLeaf(.inCollection(key("n"), .list([lit(1)]), []), negated: true), "n NOT IN (1)"),
        (sqlLeaf(.between(key("n"), lower: lit(1), upper: lit(2))), "n BETWEEN 1 AND 2"),
        (sqlLeaf(.between(key("n"), lower: lit(-1), upper: key("m")), negated: true), "n NOT BETWEEN -1 AND m"),
        (
            sqlLeaf(
                .geo(
                    .distance(
                        FieldPath("coordinates"), from: GeoPoint(latitude: 30.26715, longitude: -97.74306), .lt,
                        Distance(200, .miles)))),
            "distance(30.26715, -97.74306, coordinates.latitude, coordinates.longitude) < mi(200)"
        ),
        (
            sqlLeaf(
                .geo(
                    .distance(
                        FieldPath("a.b"), from: GeoPoint(latitude: 0, longitude: -0.5), .ge,
                        Distance(1.5, .kilometers))), negated: true),
            "NOT (distance(0, -0.5, a.b.latitude, a.b.longitude) >= km(1.5))"
        ),
        (
            sqlLeaf(
                .geo(
                    .withinPolygon(
                        FieldPath("loc"),
                        [
                            GeoPoint(latitude: 7.82, longitude: -154.53),
                            GeoPoint(latitude: 7.82, longitude: -150),
                            GeoPoint(latitude: 10, longitude: -150),
                        ]))),
            "Within(loc, 'POLYGON((-154.53 7.82, -150.0 7.82, -150.0 10.0, -154.53 7.82))') = TRUE"
        ),
        (
            sqlLeaf(
                .geo(
                    .withinPolygon(
                        FieldPath("loc"),
                        [
                            GeoPoint(latitude: 1, longitude: 2), GeoPoint(latitude: 3, longitude: 4),
                            GeoPoint(latitude: 5, longitude: 6),
                        ])), negated: true),
            "Within(loc, 'POLYGON((2.0 1.0, 4.0 3.0, 6.0 5.0, 2.0 1.0))') = FALSE"
        ),
        (
            sqlLeaf(
                .select(
                    FieldPath("objectId"), Query(className: "PhoneBook", predicate: cmp("objectId", .eq, "pb1")),
                    innerKey: FieldPath("contacts.objectId"))),
            "objectId IN (PhoneBook[objectId = 'pb1'].contacts.objectId)"
        ),
        (
            sqlLeaf(.select(FieldPath("x"), Query(className: "Order Item"), innerKey: FieldPath("y")), negated: true),
            "x NOT IN (`Order Item`.y)"
        ),
        (
            sqlLeaf(
                .select(
                    FieldPath("x"), Query(className: "T", predicate: .or([cmp("a", .eq, 1), cmp("b", .eq, 2)])),
                    innerKey: FieldPath("y"))),
            "x IN (T[a = 1 OR b = 2].y)"
        ),
    ]

    @Test(arguments: goldens)
    func golden(_ ir: Filter, _ expected: String) throws {
        #expect(try SQLWhere.print(ir) == expected)
    }

    /// Canonical texts are fixed points of parse ∘ print.
    @Test(arguments: [
        "name = 'foo' AND (age > 21 OR age IS NULL)",
        "NOT (a = 1) OR b NOT LIKE 'x%' ESCAPE '!'",
        "updated after '2015-03-23T00:00:00.000Z' AND flag = TRUE",
        "objectId IN (Comment[author.email LIKE '%@backendless.com'].blogPost.objectId)",
        "distance(30.26715, -97.74306, coordinates.latitude, coordinates.longitude) < mi(200)",
        "Within(location, 'POLYGON((-154.53 7.82, -150.0 7.82, -150.0 10.0, -154.53 7.82))') = TRUE",
        "a BETWEEN 1 AND 2 AND (b = 1 OR c = 2) AND d NOT IN ('x', 'y')",
    ])
    func canonicalTextIsAFixedPoint(_ text: String) throws {
        #expect(try SQLWhere.print(SQLWhere.parse(text)) == text)
    }

    @Test func printedTextOfLooseInputIsCanonical() throws {
        let cases: [(String, String)] = [
            ("name='Joe' or name = 'Frank'", "name = 'Joe' OR name = 'Frank'"),
            ("NOT (a = 1 AND b = 2)", "NOT (a = 1) OR NOT (b = 2)"),
            ("age => 21 and x <> 2", "age >= 21 AND x != 2"),
            ("((a = 1))", "a = 1"),
            ("PhoneBook[ contacts ].objectId = 'pb1'", "objectId IN (PhoneBook[objectId = 'pb1'].contacts.objectId)"),
            ("updated at or after 1427068800000", "updated at or after '2015-03-23T00:00:00.000Z'"),
            ("d = 1e3", "d = 1000.0"),
            ("NOT name IS NULL", "name IS NOT NULL"),
            (
                "Within(g, 'polygon((1 2,3 4,5 6,1 2))') = false",
                "Within(g, 'POLYGON((1.0 2.0, 3.0 4.0, 5.0 6.0, 1.0 2.0))') = FALSE"
            ),
        ]
        for (text, canonical) in cases {
            #expect(try SQLWhere.print(SQLWhere.parse(text)) == canonical)
        }
    }

    static let inexpressible: [(Filter, String)] = [
        (.leaf(.compare(key("a"), .eq, lit(1), []), .predicate), "NSPredicate semantics"),
        (.leaf(.compare(key("a"), .ne, lit(1), []), .document), "Parse/MongoDB semantics"),
        (.not(cmp("a", .eq, 1)), "logical NOT"),
        (sqlLeaf(.compare(key("a"), .eq, lit("x"), .caseInsensitive)), "case-insensitive comparison"),
        (sqlLeaf(.string(key("a"), .like(.sql(escape: nil)), lit("x%"), [])), "case-sensitive LIKE"),
        (
            sqlLeaf(.string(key("a"), .like(.sql(escape: nil)), lit("x%"), [.caseInsensitive, .diacriticInsensitive])),
            "diacritic-insensitive LIKE"
        ),
        (sqlLeaf(.string(key("a"), .like(.glob), lit("x*"), .caseInsensitive)), "glob"),
        (sqlLeaf(.string(key("a"), .matches(RegexOptions(wholeString: true)), lit("x.*"), [])), "regular expression"),
        (sqlLeaf(.string(key("a"), .beginsWith, lit("x"), .caseInsensitive)), "BEGINSWITH"),
        (sqlLeaf(.string(key("a"), .like(.sql(escape: "!")), lit("x!"), .caseInsensitive)), "escape character"),
        (
            sqlLeaf(.string(key("a"), .like(.sql(escape: nil)), key("b"), .caseInsensitive)),
            "pattern that is not a string"
        ),
        (sqlLeaf(.quantified(.any, key("tags"), variable: "t", cmp("x", .eq, 1))), "quantifier ANY"),
        (sqlLeaf(.inCollection(key("a"), .list([]), [])), "empty list"),
        (sqlLeaf(.inCollection(key("a"), key("b"), [])), "IN over a column"),
        (sqlLeaf(.inCollection(key("a"), .list([lit(.null)]), [])), "NULL in an IN list"),
        (cmp("a", .eq, .null), "comparison with NULL"),
        (cmp("a", .eq, .double(.nan)), "nan"),
        (cmp("a", .eq, .geoPoint(GeoPoint(latitude: 1, longitude: 2))), "geoPoint literal"),
        (sqlLeaf(.compare(.variable("x"), .eq, lit(1), [])), "$x"),
        (sqlLeaf(.compare(.function(.uppercase, [key("a")]), .eq, lit("X"), [])), "uppercase()"),
        (sqlLeaf(.compare(.aggregate(.count, key("a")), .eq, lit(1), [])), "@count"),
        (
            sqlLeaf(
                .geo(.distance(FieldPath("g"), from: GeoPoint(latitude: 1, longitude: 2), .ne, Distance(1, .miles)))),
            "!="
        ),
        (
            sqlLeaf(
                .geo(.distance(FieldPath("g"), from: GeoPoint(latitude: 1, longitude: 2), .lt, Distance(1, .radians)))),
            "radians"
        ),
        (sqlLeaf(.geo(.near(FieldPath("g"), GeoPoint(latitude: 1, longitude: 2), maxDistance: nil))), "near"),
        (sqlLeaf(.geo(.withinPolygon(FieldPath("g"), [GeoPoint(latitude: 1, longitude: 2)]))), "fewer than 3 vertices"),
        (sqlLeaf(.inQuery(FieldPath("p"), Query(className: "T"))), "inQuery"),
        (sqlLeaf(.relatedTo(Pointer(className: "T", objectId: "x"), key: "r")), "relatedTo"),
        (sqlLeaf(.text(FieldPath("a"), TextSearch(terms: "x"))), "full-text"),
        (sqlLeaf(.containsAll(key("a"), .list([lit(1)]))), "containsAll"),
        (sqlLeaf(.arraySize(key("a"), 2)), "array size"),
        (sqlLeaf(.select(FieldPath("x"), Query(className: "T", limit: 5), innerKey: FieldPath("y"))), "limit"),
        (cmp("a.", .eq, 1), "field name ''"),
        (.and([cmp("a", .eq, 1), .or([cmp("b", .eq, 1), .not(cmp("c", .eq, 1))])]), "logical NOT"),
    ]

    @Test(arguments: inexpressible)
    func inexpressibleIRIsAClearError(_ ir: Filter, _ construct: String) {
        do {
            let text = try SQLWhere.print(ir)
            Issue.record("printed \(text)")
        } catch {
            #expect(error.all.count == 1)
            #expect(error.all.first?.code == "translate.inexpressible")
            #expect(error.all.first?.message.contains(construct) == true, "\(error)")
        }
    }

    @Test func printingIsBoundedByTheNestingLimit() {
        var p = cmp("a", .eq, 1)
        for i in 0..<200 { p = i % 2 == 0 ? .and([p, cmp("b", .eq, 2)]) : .or([p, cmp("c", .eq, 3)]) }
        #expect(throws: Diagnostics.self) { try SQLWhere.print(p, limits: Limits(maxNestingDepth: 100)) }
        #expect(throws: Never.self) { try SQLWhere.print(p, limits: Limits(maxNestingDepth: 300)) }
    }
}
