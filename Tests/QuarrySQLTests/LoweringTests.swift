import Testing
import QuarryCore
import QuarrySQL

/// Every construct of the dialect, lowered without a schema, against its exact IR.
@Suite struct LoweringTests {
    static let goldens: [(String, Filter)] = [
        // Comparisons
        ("name = 'foo'", cmp("name", .eq, "foo")),
        ("name != 'foo'", cmp("name", .ne, "foo")),
        ("name <> 'foo'", cmp("name", .ne, "foo")),
        ("age > 21", cmp("age", .gt, 21)),
        ("age >= 21", cmp("age", .ge, 21)),
        ("age => 21", cmp("age", .ge, 21)),
        ("age < 21", cmp("age", .lt, 21)),
        ("age <= 21", cmp("age", .le, 21)),
        ("name='Joe'", cmp("name", .eq, "Joe")),
        ("score = 2.5", cmp("score", .eq, .double(2.5))),
        ("score = -97.74306", cmp("score", .eq, .double(-97.74306))),
        ("score = - 3", cmp("score", .eq, -3)),
        ("score > 1.5e3", cmp("score", .gt, .double(1500))),
        ("score > 2E-2", cmp("score", .gt, .double(0.02))),
        ("score < 1e+2", cmp("score", .lt, .double(100))),
        ("big = 9223372036854775807", cmp("big", .eq, .int(Int64.max))),
        ("big = -9223372036854775808", cmp("big", .eq, .int(Int64.min))),
        ("updated > 1427068800000", cmp("updated", .gt, .int(1427068800000))),
        ("name = 'Charlie''s Angels'", cmp("name", .eq, "Charlie's Angels")),
        ("name = ''", cmp("name", .eq, "")),
        ("name = 'naïve ☃ 𝄞'", cmp("name", .eq, "naïve ☃ 𝄞")),
        ("flag = TRUE", cmp("flag", .eq, true)),
        ("flag != false", cmp("flag", .ne, false)),
        ("TRUE = flag", sqlLeaf(.compare(lit(true), .eq, key("flag"), []))),
        ("21 < age", sqlLeaf(.compare(lit(21), .lt, key("age"), []))),
        ("age = size", sqlLeaf(.compare(key("age"), .eq, key("size"), []))),
        ("address.city = 'Dallas'", cmp("address.city", .eq, "Dallas")),
        ("a.b.c.d = 1", cmp("a.b.c.d", .eq, 1)),
        ("`weird name` = 1", cmp("weird name", .eq, 1)),
        ("`a``b` = 1", .leaf(.compare(.key(FieldPath(["a`b"])), .eq, lit(1), []), .sql)),
        ("`and` = 1", cmp("and", .eq, 1)),
        ("after = 1", cmp("after", .eq, 1)),
        ("distance = 1", cmp("distance", .eq, 1)),
        ("müşteri = 'x'", cmp("müşteri", .eq, "x")),
        ("city_header='Tokyo'", cmp("city_header", .eq, "Tokyo")),
        // Boolean structure and precedence
        ("a = 1 AND b = 2", .and([cmp("a", .eq, 1), cmp("b", .eq, 2)])),
        ("a = 1 and b = 2 AnD c = 3", .and([cmp("a", .eq, 1), cmp("b", .eq, 2), cmp("c", .eq, 3)])),
        ("a = 1 OR b = 2 or c = 3", .or([cmp("a", .eq, 1), cmp("b", .eq, 2), cmp("c", .eq, 3)])),
        ("a = 1 OR b = 2 AND c = 3", .or([cmp("a", .eq, 1), .and([cmp("b", .eq, 2), cmp("c", .eq, 3)])])),
        ("(a = 1 OR b = 2) AND c = 3", .and([.or([cmp("a", .eq, 1), cmp("b", .eq, 2)]), cmp("c", .eq, 3)])),
        ("a = 1 AND (b = 2 AND c = 3)", .and([cmp("a", .eq, 1), .and([cmp("b", .eq, 2), cmp("c", .eq, 3)])])),
        ("((a = 1))", cmp("a", .eq, 1)),
        ("NOT a = 1", cmp("a", .eq, 1, negated: true)),
        ("NOT NOT a = 1", cmp("a", .eq, 1)),
        ("NOT a = 1 AND b = 2", .and([cmp("a", .eq, 1, negated: true), cmp("b", .eq, 2)])),
        ("NOT (a = 1 AND b = 2)", .or([cmp("a", .eq, 1, negated: true), cmp("b", .eq, 2, negated: true)])),
        ("NOT (a = 1 OR NOT b = 2)", .and([cmp("a", .eq, 1, negated: true), cmp("b", .eq, 2)])),
        ("TRUE", .constant(true)),
        ("false", .constant(false)),
        ("NOT TRUE", .constant(false)),
        ("TRUE AND a = 1", .and([.constant(true), cmp("a", .eq, 1)])),
        ("(FALSE) OR a = 1", .or([.constant(false), cmp("a", .eq, 1)])),
        // IS NULL
        ("name is null", sqlLeaf(.isNull(key("name")))),
        ("name IS NOT NULL", sqlLeaf(.isNull(key("name")), negated: true)),
        ("NOT name IS NULL", sqlLeaf(.isNull(key("name")), negated: true)),
        ("address.city is null", sqlLeaf(.isNull(key("address.city")))),
        // LIKE
        ("name LIKE 'J%'", like("name", "J%")),
        ("name like '%foo%'", like("name", "%foo%")),
        ("name NOT LIKE 'a_c'", like("name", "a_c", negated: true)),
        ("NOT name LIKE 'x'", like("name", "x", negated: true)),
        ("name LIKE '100!%' ESCAPE '!'", like("name", "100!%", escape: "!")),
        ("name LIKE 'a''%' escape ''''", like("name", "a'%", escape: "'")),
        ("name LIKE 'x\\\\' ESCAPE '\\'", like("name", "x\\\\", escape: "\\")),
        ("'abc' LIKE 'a%'", sqlLeaf(.string(lit("abc"), .like(.sql(escape: nil)), lit("a%"), .caseInsensitive))),
        // IN
        (
            "name IN ('foo', 'bar', 'baz')",
            sqlLeaf(.inCollection(key("name"), .list([lit("foo"), lit("bar"), lit("baz")]), []))
        ),
        ("age IN (1)", sqlLeaf(.inCollection(key("age"), .list([lit(1)]), []))),
        (
            "age NOT IN (1, -2, 3.5)",
            sqlLeaf(.inCollection(key("age"), .list([lit(1), lit(-2), lit(3.5)]), []), negated: true)
        ),
        ("flag IN (TRUE, FALSE)", sqlLeaf(.inCollection(key("flag"), .list([lit(true), lit(false)]), []))),
        // BETWEEN
        ("age BETWEEN 10 AND 20", sqlLeaf(.between(key("age"), lower: lit(10), upper: lit(20)))),
        ("age NOT BETWEEN -1.5 AND 2", sqlLeaf(.between(key("age"), lower: lit(-1.5), upper: lit(2)), negated: true)),
        (
            "age BETWEEN 1 AND 2 AND b = 3",
            .and([sqlLeaf(.between(key("age"), lower: lit(1), upper: lit(2))), cmp("b", .eq, 3)])
        ),
        ("age BETWEEN lo AND hi", sqlLeaf(.between(key("age"), lower: key("lo"), upper: key("hi")))),
        // Dates (without a schema: the keyword makes the literal a date)
        ("updated after 1427068800000", cmp("updated", .gt, .date(1427068800000))),
        ("updated before 1427068800000", cmp("updated", .lt, .date(1427068800000))),
        ("updated at or after 1427068800000", cmp("updated", .ge, .date(1427068800000))),
        ("updated AT OR BEFORE 1427068800000", cmp("updated", .le, .date(1427068800000))),
        ("updated after '2015-03-23T14:30:15.250Z'", cmp("updated", .gt, .date(1427121015250))),
        ("updated after 1.4270688E12", cmp("updated", .gt, .date(1427068800000))),
        ("updated after created", sqlLeaf(.compare(key("updated"), .gt, key("created"), []))),
        ("updated at or after 5 or a = 1", .or([cmp("updated", .ge, .date(5)), cmp("a", .eq, 1)])),
        // Without a schema a plain comparison keeps the string (the engine coerces at run time).
        ("updated > '23-Mar-2015'", cmp("updated", .gt, "23-Mar-2015")),
        // Geo
        (
            "distance( 30.26715, -97.74306, coordinates.latitude, coordinates.longitude ) < mi(200)",
            sqlLeaf(
                .geo(
                    .distance(
                        FieldPath("coordinates"), from: GeoPoint(latitude: 30.26715, longitude: -97.74306),
                        .lt, Distance(200, .miles))))
        ),
        (
            "DISTANCE(0, 0, a.b.latitude, a.b.longitude) >= KM(1.5)",
            sqlLeaf(
                .geo(
                    .distance(
                        FieldPath("a.b"), from: GeoPoint(latitude: 0, longitude: 0), .ge, Distance(1.5, .kilometers))))
        ),
        (
            "distance(1, 2, g.latitude, g.longitude) = ft(3)",
            sqlLeaf(.geo(.distance(FieldPath("g"), from: GeoPoint(latitude: 1, longitude: 2), .eq, Distance(3, .feet))))
        ),
        (
            "distance(1, 2, g.latitude, g.longitude) <= yd(3)",
            sqlLeaf(
                .geo(.distance(FieldPath("g"), from: GeoPoint(latitude: 1, longitude: 2), .le, Distance(3, .yards))))
        ),
        (
            "distance(1, 2, g.latitude, g.longitude) > m(3)",
            sqlLeaf(
                .geo(.distance(FieldPath("g"), from: GeoPoint(latitude: 1, longitude: 2), .gt, Distance(3, .meters))))
        ),
        (
            "NOT distance(1, 2, g.latitude, g.longitude) > m(3)",
            sqlLeaf(
                .geo(.distance(FieldPath("g"), from: GeoPoint(latitude: 1, longitude: 2), .gt, Distance(3, .meters))),
                negated: true)
        ),
        (
            "Within(location, 'POLYGON((-154.53 7.82, -150 7.82, -150 10, -154.53 7.82))') = TRUE",
            sqlLeaf(
                .geo(
                    .withinPolygon(
                        FieldPath("location"),
                        [
                            GeoPoint(latitude: 7.82, longitude: -154.53), GeoPoint(latitude: 7.82, longitude: -150),
                            GeoPoint(latitude: 10, longitude: -150),
                        ])))
        ),
        (
            "within(location, ' polygon ( ( 1 2,3 4 , 5 6,1 2 ) ) ') = false",
            sqlLeaf(
                .geo(
                    .withinPolygon(
                        FieldPath("location"),
                        [
                            GeoPoint(latitude: 2, longitude: 1), GeoPoint(latitude: 4, longitude: 3),
                            GeoPoint(latitude: 6, longitude: 5),
                        ])), negated: true)
        ),
        // Subqueries and inverted relations
        (
            "objectId in (Comment[author.email LIKE '%@backendless.com'].blogPost.objectId)",
            sqlLeaf(
                .select(
                    FieldPath("objectId"),
                    Query(className: "Comment", predicate: like("author.email", "%@backendless.com")),
                    innerKey: FieldPath("blogPost.objectId")))
        ),
        (
            "objectId NOT IN (Comment.blogPost.objectId)",
            sqlLeaf(
                .select(FieldPath("objectId"), Query(className: "Comment"), innerKey: FieldPath("blogPost.objectId")),
                negated: true)
        ),
        (
            "owner IN (`Order Item`[qty > 1 AND (a = 1 OR b = 2)].owner)",
            sqlLeaf(
                .select(
                    FieldPath("owner"),
                    Query(
                        className: "Order Item",
                        predicate: .and([cmp("qty", .gt, 1), .or([cmp("a", .eq, 1), cmp("b", .eq, 2)])])),
                    innerKey: FieldPath("owner")))
        ),
        (
            "PhoneBook[contacts].objectId = 'pb1'",
            sqlLeaf(
                .select(
                    FieldPath("objectId"), Query(className: "PhoneBook", predicate: cmp("objectId", .eq, "pb1")),
                    innerKey: FieldPath("contacts.objectId")))
        ),
        (
            "PhoneBook[ contacts ].name LIKE 'W%'",
            sqlLeaf(
                .select(
                    FieldPath("objectId"), Query(className: "PhoneBook", predicate: like("name", "W%")),
                    innerKey: FieldPath("contacts.objectId")))
        ),
        (
            "NOT PhoneBook[owner].owner.age IS NULL",
            sqlLeaf(
                .select(
                    FieldPath("objectId"), Query(className: "PhoneBook", predicate: sqlLeaf(.isNull(key("owner.age")))),
                    innerKey: FieldPath("owner.objectId")), negated: true)
        ),
    ]

    @Test(arguments: goldens)
    func golden(_ text: String, _ expected: Filter) throws {
        #expect(try SQLWhere.parse(text) == expected)
    }

    @Test func whitespaceIncludesNoBreakSpaceAndNewlines() throws {
        let expected = cmp("name", .eq, "foo")
        for text in [
            "name\u{00A0}=\u{00A0}'foo'", "name\n=\r\n'foo'", "\tname\u{2003}=\u{3000}'foo'\u{2028}",
            "name\u{0085}=\u{202F}'foo'",
        ] {
            #expect(try SQLWhere.parse(text) == expected, "\(Array(text.unicodeScalars))")
        }
        // Whitespace inside a string is kept.
        #expect(try SQLWhere.parse("name = 'a\u{00A0}b'") == cmp("name", .eq, "a\u{00A0}b"))
    }

    @Test func multiLineDistanceCallFromTheGuide() throws {
        let text = """
            distance(\u{00A0}
               30.26715,\u{00A0}
               -97.74306,\u{00A0}
               Coordinates.latitude,
               Coordinates.longitude ) < mi(200)
            """
        #expect(
            try SQLWhere.parse(text)
                == sqlLeaf(
                    .geo(
                        .distance(
                            FieldPath("Coordinates"), from: GeoPoint(latitude: 30.26715, longitude: -97.74306), .lt,
                            Distance(200, .miles)))))
    }

    @Test func notNeverReachesTheIR() throws {
        func containsNot(_ p: Filter) -> Bool {
            switch p {
            case .not: return true
            case .and(let ps), .or(let ps): return ps.contains(where: containsNot)
            case .constant, .leaf: return false
            }
        }
        for text in [
            "NOT (a = 1 OR NOT (b = 2 AND NOT c IS NULL))", "NOT NOT NOT TRUE",
            "NOT (a IN (1) AND NOT (b LIKE 'x' OR c BETWEEN 1 AND 2))",
        ] {
            #expect(!containsNot(try SQLWhere.parse(text)))
        }
    }
}
