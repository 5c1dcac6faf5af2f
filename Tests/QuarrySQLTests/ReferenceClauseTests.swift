import Testing
import QuarryCore
import QuarrySQL

/// The where clauses of the Backendless reference's test cases (§7), lowered with the seed's
/// schema: the IR each one means, or the error it must be.
@Suite struct ReferenceClauseTests {
    static let D: Int64 = 1_427_068_800_000  // 2015-03-23T00:00Z

    static func inverted(_ parent: String, _ relation: String, _ inner: Filter) -> Filter {
        sqlLeaf(
            .select(
                FieldPath("objectId"), Query(className: parent, predicate: inner),
                innerKey: FieldPath([relation, "objectId"])))
    }

    static func austin(_ op: ComparisonOperator, _ d: Distance) -> Filter {
        sqlLeaf(
            .geo(.distance(FieldPath("coordinates"), from: GeoPoint(latitude: 30.26715, longitude: -97.74306), op, d)))
    }

    static func beaumont(_ op: ComparisonOperator, _ d: Distance) -> Filter {
        sqlLeaf(.geo(.distance(FieldPath("coordinates"), from: GeoPoint(latitude: 30.084, longitude: -94.145), op, d)))
    }

    static let pb1 = inverted("PhoneBook", "contacts", cmp("objectId", .eq, "pb1"))

    static let cases: [(Int, String, String, Filter)] = [
        (1, "Item", "name = 'foo'", cmp("name", .eq, "foo")),
        (2, "Item", "name != 'foo'", cmp("name", .ne, "foo")),
        (3, "Item", "name is null", sqlLeaf(.isNull(key("name")))),
        (4, "Item", "name is not null", sqlLeaf(.isNull(key("name")), negated: true)),
        (5, "Item", "name LIKE '%foo%'", like("name", "%foo%")),
        (6, "Item", "name LIKE '%foo'", like("name", "%foo")),
        (7, "Item", "name LIKE 'foo%'", like("name", "foo%")),
        (
            8, "Item", "name IN ('foo', 'bar', 'baz')",
            sqlLeaf(.inCollection(key("name"), .list([lit("foo"), lit("bar"), lit("baz")]), []))
        ),
        (
            9, "Item", "name = 'foo' OR name = 'bar' or name = 'baz'",
            .or([cmp("name", .eq, "foo"), cmp("name", .eq, "bar"), cmp("name", .eq, "baz")])
        ),
        (11, "Item", "name\u{00A0}=\u{00A0}'foo'", cmp("name", .eq, "foo")),
        (12, "Item", "name LIKE 'FOO%'", like("name", "FOO%")),
        (13, "Contact", "age = 47", cmp("age", .eq, 47)),
        (14, "Contact", "age > 21", cmp("age", .gt, 21)),
        (15, "Contact", "age >= 21", cmp("age", .ge, 21)),
        (16, "Contact", "age < 21", cmp("age", .lt, 21)),
        (17, "Contact", "age <= 21", cmp("age", .le, 21)),
        (18, "Contact", "name = 'Jack Daniels'", cmp("name", .eq, "Jack Daniels")),
        (19, "Contact", "name LIKE 'Jack%'", like("name", "Jack%")),
        (20, "Contact", "name LIKE 'J%' and age > 20", .and([like("name", "J%"), cmp("age", .gt, 20)])),
        (21, "Contact", "age > 30", cmp("age", .gt, 30)),
        (22, "Order", "orderAmount > 100", cmp("orderAmount", .gt, 100)),
        (24, "Contact", "name='Joe' or name = 'Frank'", .or([cmp("name", .eq, "Joe"), cmp("name", .eq, "Frank")])),
        (25, "Contact", "updated > '23-Mar-2015'", cmp("updated", .gt, .date(D))),
        (26, "Contact", "updated > '03/23/2015'", cmp("updated", .gt, .date(D))),
        (27, "Contact", "updated > 1427068800000", cmp("updated", .gt, .date(D))),
        (28, "Contact", "updated after 1427068800000", cmp("updated", .gt, .date(D))),
        (29, "Contact", "updated at or after '23-Mar-2015'", cmp("updated", .ge, .date(D))),
        (30, "Contact", "updated before '23-Mar-2015'", cmp("updated", .lt, .date(D))),
        (31, "Contact", "updated at or before 1427068800000", cmp("updated", .le, .date(D))),
        (32, "Person", "birthDate > '22-Dec-1980'", cmp("birthDate", .gt, .date(346_291_200_000))),
        (33, "Person", "birthDate < '22-Dec-1980'", cmp("birthDate", .lt, .date(346_291_200_000))),
        (34, "Person", "birthDate before 346291200000", cmp("birthDate", .lt, .date(346_291_200_000))),
        (
            35, "Person", "birthDate at or after '10/28/1988 00:00:00 GMT-0200'",
            cmp("birthDate", .ge, .date(594_007_200_000))
        ),
        // Decision: day-first fallback, not lenient rollover.
        (36, "Person", "birthDate >= '28-10-1988'", cmp("birthDate", .ge, .date(594_000_000_000))),
        // Decision: the guide's own yyyyMMdd.
        (38, "Contact", "created > '20150323'", cmp("created", .gt, .date(D))),
        // Numbers are milliseconds, even when seconds were meant.
        (40, "Contact", "updated > 1427068800", cmp("updated", .gt, .date(1_427_068_800))),
        (
            41, "Contact", "PhoneBook[contacts].objectId = 'pb1' and address.city = 'Smallville'",
            .and([pb1, cmp("address.city", .eq, "Smallville")])
        ),
        (
            42, "Contact", "PhoneBook[contacts].objectId = 'pb1' and address.city like '%a%'",
            .and([pb1, like("address.city", "%a%")])
        ),
        (43, "Contact", "PhoneBook[contacts].objectId = 'pb1' and age > 20", .and([pb1, cmp("age", .gt, 20)])),
        (
            44, "Contact", "PhoneBook[contacts].objectId = 'pb1' and age >= 21 and age <= 30",
            .and([pb1, cmp("age", .ge, 21), cmp("age", .le, 30)])
        ),
        (
            45, "Contact", "PhoneBook[contacts].objectId = 'pb1' and age > 20 and address.city = 'Tokyo'",
            .and([pb1, cmp("age", .gt, 20), cmp("address.city", .eq, "Tokyo")])
        ),
        (
            46, "Contact", "PhoneBook[contacts].objectId = 'pb2'",
            inverted("PhoneBook", "contacts", cmp("objectId", .eq, "pb2"))
        ),
        (
            47, "Contact", "PhoneBook[owner].objectId = 'pb2'",
            inverted("PhoneBook", "owner", cmp("objectId", .eq, "pb2"))
        ),
        (
            48, "Contact", "PhoneBook[contacts].objectId = 'pb1' and address.city = 'Dallas'",
            .and([pb1, cmp("address.city", .eq, "Dallas")])
        ),
        (49, "Contact", "address.city = 'Tokyo'", cmp("address.city", .eq, "Tokyo")),
        (
            50, "Contact", "PhoneBook[contacts].objectId = 'pb1' or PhoneBook[contacts].objectId = 'pb2'",
            .or([pb1, inverted("PhoneBook", "contacts", cmp("objectId", .eq, "pb2"))])
        ),
        (
            51, "Contact", "PhoneBook[ contacts ].objectId = 'pb2'",
            inverted("PhoneBook", "contacts", cmp("objectId", .eq, "pb2"))
        ),
        (52, "Address", "Person[address].objectId = 'p1'", inverted("Person", "address", cmp("objectId", .eq, "p1"))),
        (55, "Contact", "address.city is null", sqlLeaf(.isNull(key("address.city")))),
        (
            61, "Friend", "distance( 30.26715, -97.74306, coordinates.latitude, coordinates.longitude ) < mi(200)",
            austin(.lt, Distance(200, .miles))
        ),
        (
            62, "Friend", "distance( 30.26715, -97.74306, coordinates.latitude, coordinates.longitude ) < mi(100)",
            austin(.lt, Distance(100, .miles))
        ),
        (
            63, "Friend", "distance( 30.26715, -97.74306, coordinates.latitude, coordinates.longitude ) < km(200)",
            austin(.lt, Distance(200, .kilometers))
        ),
        (
            64, "Friend", "distance( 30.26715, -97.74306, coordinates.latitude, coordinates.longitude ) < yd(200000)",
            austin(.lt, Distance(200_000, .yards))
        ),
        (
            64, "Friend", "distance( 30.26715, -97.74306, coordinates.latitude, coordinates.longitude ) < ft(500000)",
            austin(.lt, Distance(500_000, .feet))
        ),
        (
            65, "Friend", "distance( 30.26715, -97.74306, coordinates.latitude, coordinates.longitude ) > mi(100)",
            austin(.gt, Distance(100, .miles))
        ),
        (
            66, "Friend", "distance( 30.084, -94.145, coordinates.latitude, coordinates.longitude ) < mi(300)",
            beaumont(.lt, Distance(300, .miles))
        ),
        (
            67, "Friend", "distance( 30.084, -94.145, coordinates.latitude, coordinates.longitude ) >= mi(250)",
            beaumont(.ge, Distance(250, .miles))
        ),
        // Decision: columns resolve case-insensitively (the guide's code writes Coordinates).
        (
            68, "Friend",
            "distance( \n   30.26715, \n   -97.74306, \n   Coordinates.latitude, \n   Coordinates.longitude ) < mi(200)",
            austin(.lt, Distance(200, .miles))
        ),
        (
            69, "Friend",
            "name = 'Jane' and distance( 30.26715, -97.74306, coordinates.latitude, coordinates.longitude ) < mi(200)",
            .and([cmp("name", .eq, "Jane"), austin(.lt, Distance(200, .miles))])
        ),
        // Decision: m(x) (metres) is a unit here, as the issue asks.
        (
            70, "Friend", "distance( 30.26715, -97.74306, coordinates.latitude, coordinates.longitude ) < m(5)",
            austin(.lt, Distance(5, .meters))
        ),
        (
            71, "Friend", "distance( 30.26715, -97.74306, coordinates.latitude, coordinates.longitude ) <= ft(1)",
            austin(.le, Distance(1, .feet))
        ),
        (85, "Contact", "city_header='Tokyo'", .leaf(.compare(key("city_header"), .eq, lit("Tokyo"), []), .sql)),
        (
            87, "Contact", "name = 'Bob' or name = 'Joe' and age > 30",
            .or([cmp("name", .eq, "Bob"), .and([cmp("name", .eq, "Joe"), cmp("age", .gt, 30)])])
        ),
        (88, "Contact", "NAME like 'jack%'", like("name", "jack%")),
    ]

    @Test(arguments: cases)
    func clause(_ number: Int, _ className: String, _ text: String, _ expected: Filter) {
        // Test 85 is a message selector over headers: no schema.
        let schema: (any Schema)? = number == 85 ? nil : seedSchema
        #expect(parsed(text, className: className, schema: schema) == expected, "test \(number)")
    }

    static let errors: [(Int, String, String, String)] = [
        (10, "Item", "name IN ('value1', 'value2', 'value3)", "lex.unterminated-string"),
        (39, "Contact", "updated > '2015.03.23'", "date.unparseable"),
        (53, "Contact", "PhoneBook[age].objectId = 'pb1'", "query.not-a-relation"),
        (54, "Address", "PhoneBook[contacts].objectId = 'pb1'", "query.relation-target-mismatch"),
        (
            70, "Friend", "distance( 30.26715, -97.74306, coordinates.latitude, coordinates.longitude ) != mi(200)",
            "geo.distance-operator"
        ),
    ]

    @Test(arguments: errors)
    func error(_ number: Int, _ className: String, _ text: String, _ code: String) {
        #expect(failure(text, className: className, schema: seedSchema)?.code == code, "test \(number)")
    }

    /// Test 37: each of the 33 documented formats, through the SQL front-end.
    static let formats: [(String, Int64)] = [
        ("Mon Mar 23 14:30:15 GMT 2015", 1_427_121_015_000),
        ("2015-03-23T14:30:15.250Z", 1_427_121_015_250),
        ("03/23/2015 14:30:15 GMT-0200", 1_427_128_215_000),
        ("03.23.2015 14:30:15 GMT+0000", 1_427_121_015_000),
        ("03-23-2015 14:30:15 GMT+0000", 1_427_121_015_000),
        ("03/23/2015 14:30:15 UTC", 1_427_121_015_000),
        ("03.23.2015 14:30:15 UTC", 1_427_121_015_000),
        ("03.23.2015 14:30:15", 1_427_121_015_000),
        ("03-23-2015 14:30:15", 1_427_121_015_000),
        ("03/23/2015 14:30:15", 1_427_121_015_000),
        ("03.23.2015", 1_427_068_800_000),
        ("03-23-2015", 1_427_068_800_000),
        ("03/23/2015 14:30:15 GMT-0200", 1_427_128_215_000),
        ("03/23/2015 14:30", 1_427_121_000_000),
        ("03/23/2015", 1_427_068_800_000),
        ("23/Mar/2015", 1_427_068_800_000),
        ("23-Mar-2015", 1_427_068_800_000),
        ("Monday, 23 March 2015", 1_427_068_800_000),
        ("2015/03/23/14:30:15", 1_427_121_015_000),
        ("2015-03-23T14:30:15", 1_427_121_015_000),
        ("Monday, March 23, 2015", 1_427_068_800_000),
        ("March 23, 2015", 1_427_068_800_000),
        ("2015 3 23", 1_427_068_800_000),
        ("2015Mar23", 1_427_068_800_000),
        ("2015-Mar-23", 1_427_068_800_000),
        ("2015-3-23, Mon", 1_427_068_800_000),
        ("Date 2015-03-23", 1_427_068_800_000),
        ("2015-03-23T14:30:15+0000", 1_427_121_015_000),
        ("2015-03-23T13:30+0100", 1_427_113_800_000),
        ("2015-03-23", 1_427_068_800_000),
        ("2015-W13", 1_427_068_800_000),  // ISO week: Monday
        ("2015-082", 1_427_068_800_000),
        ("23 March 2015, 14h 30m 15s", 1_427_121_015_000),
    ]

    @Test(arguments: formats)
    func documentedDateFormat(_ text: String, _ ms: Int64) {
        let quoted = "'" + text + "'"
        #expect(
            parsed("updated >= \(quoted)", className: "Contact", schema: seedSchema) == cmp("updated", .ge, .date(ms)))
        #expect(parsed("updated at or after \(quoted)") == cmp("updated", .ge, .date(ms)))
    }
}
