import Testing
import QuarryTestSupport
import class Foundation.NSLock
import Quarry
@testable import QuarrySQLite

@testable import QuarryCLI

/// The data the agreement tests run on: 2,000 synthetic people with their cities, and `Edge`,
/// a few objects with the awkward cases (mixed numbers, non-ASCII text, dangling pointers,
/// relations, arrays with null elements, a field of several types).
final class PeerFixture: Sendable {
    static let data = SyntheticData(rows: 2_000, seed: 7)
    let database: Database
    let peer: SQLitePeerBox
    var personCount: Int { Self.data.rows }

    init() {
        var db = Self.data.database()
        db.add(Self.edgeClass())
        database = db
        // A failure to load is a test failure in every test that uses the fixture.
        peer = SQLitePeerBox(try! SQLitePeer(database: db))
    }

    func reference(_ query: Query) throws -> [String] {
        try ReferenceEvaluator(database: database).run(query).objectIds
    }

    static func edgeDatabase() -> Database {
        var db = SyntheticData(rows: 0, cities: 5).database()
        db.add(edgeClass())
        return db
    }

    static let dateA: Int64 = 1_600_000_000_000
    static func city(_ id: String) -> Value { .pointer(Pointer(className: "City", objectId: id)) }

    static func edgeClass() -> ClassData {
        func geo(_ lat: Double, _ lon: Double) -> Value { .geoPoint(GeoPoint(latitude: lat, longitude: lon)) }
        let rows: [(String, [(String, Value)])] = [
            (
                "e1",
                [
                    ("n", 1), ("label", "Émile"), ("flag", true), ("d", .date(dateA)), ("home", city("c1")),
                    ("friends", [city("c1"), city("c2")]), ("nums", [1, 2, 3]), ("where", geo(10, 10)), ("mixed", 1),
                ]
            ),
            (
                "e2",
                [
                    ("n", 2.5), ("label", "bob"), ("flag", false), ("home", city("c999")),
                    ("friends", [city("c999"), city("c3")]), ("nums", []), ("where", geo(20, 20)), ("mixed", "x"),
                ]
            ),
            (
                "e3",
                [
                    ("n", 3), ("label", ""), ("flag", .null), ("d", .date(dateA + 86_400_000)), ("friends", []),
                    ("nums", [.null, 3]), ("mixed", .null),
                ]
            ),
            ("e4", [("n", .null), ("label", "Zoë"), ("home", city("c2")), ("nums", [4])]),
            ("e5", []),
            (
                "e6",
                [
                    ("n", 4.0), ("label", "ALICE"), ("flag", true), ("d", .date(dateA - 1)), ("home", city("c3")),
                    ("friends", .relation(className: "City", objectIds: ["c1", "c4"])), ("nums", [1, .null]),
                    ("where", geo(-5, 170)),
                ]
            ),
            ("e\u{0}7", [("label", "x\u{0}y"), ("n", 7)]),
        ]
        return ClassData(name: "Edge", records: rows.map { Record(objectId: $0.0, fields: $0.1) })
    }
}

/// The peer is used from parallel tests; SQLite connections are serialized by SQLite itself
/// (the default threading mode), and each test prepares its own statement.
final class SQLitePeerBox: @unchecked Sendable {
    private let peer: SQLitePeer
    private let lock = NSLock()
    init(_ peer: SQLitePeer) { self.peer = peer }

    func prepare(_ query: Query) throws -> PreparedIds {
        lock.lock()
        defer { lock.unlock() }
        let prepared = try peer.prepare(query)
        return PreparedIds(sql: prepared.sql, ids: try prepared.objectIds(), count: try prepared.matchCount())
    }

    struct PreparedIds {
        let sql: String
        let ids: [String]
        let count: Int
        func objectIds() throws -> [String] { ids }
        func matchCount() throws -> Int { count }
    }
}

/// One query shape, built for a leaf semantics and a negation flag.
struct PeerCase: CustomTestStringConvertible, Sendable {
    let name: String
    let trivialAllowed: Bool
    let query: @Sendable (LeafSemantics, Bool) -> Query
    var testDescription: String { name }

    /// A query on Person whose predicate is one leaf.
    init(
        _ name: String, on className: String = "Person", trivial: Bool = false, _ condition: Condition,
        order: [SortKey] = [], skip: Int? = nil, limit: Int? = nil
    ) {
        self.name = name
        trivialAllowed = trivial || className != "Person"
        query = { s, negated in
            Query(
                className: className, predicate: .leaf(Leaf(condition, negated: negated, semantics: s)),
                order: order, skip: skip, limit: limit)
        }
    }

    init(_ name: String, trivial: Bool = false, _ build: @escaping @Sendable (LeafSemantics, Bool) -> Query) {
        self.name = name
        trivialAllowed = trivial
        query = build
    }
}

enum PeerCases {
    static let person0 = PeerFixture.data.person(0)
    static let name0: Value = person0.fields["name"] ?? .null
    static let name1: Value = PeerFixture.data.person(1).fields["name"] ?? .null
    static let cityName: Value = PeerFixture.data.city(3).fields["name"] ?? .null
    static let home: GeoPoint = {
        guard case .geoPoint(let p)? = person0.fields["location"] else { return GeoPoint(latitude: 0, longitude: 0) }
        return p
    }()
    static let country0: Value = PeerFixture.data.city(0).fields["country"] ?? .null
    static let june2022: Int64 = 1_654_041_600_000

    static func cmp(_ key: FieldPath, _ op: ComparisonOperator, _ v: Value, _ o: StringOptions = []) -> Condition {
        .compare(.key(key), op, .literal(v), o)
    }
    static func str(_ op: StringOperator, _ p: String, _ o: StringOptions = []) -> Condition {
        .string(.key("name"), op, .literal(.string(p)), o)
    }
    static func list(_ vs: [Value]) -> Expr { .list(vs.map(Expr.literal)) }

    static let comparisons: [PeerCase] = [
        PeerCase("age > 50", cmp("age", .gt, 50)),
        PeerCase("age = 42", cmp("age", .eq, 42)),
        PeerCase("age != 42", cmp("age", .ne, 42)),
        PeerCase("42 < age", .compare(.literal(42), .lt, .key("age"), [])),
        PeerCase("age >= 30.5", cmp("age", .ge, 30.5)),
        PeerCase("score < 1.5", cmp("score", .lt, 1.5)),
        PeerCase("score <= 50", cmp("score", .le, 50)),
        PeerCase("score = null", trivial: true, cmp("score", .eq, .null)),
        PeerCase("score != null", trivial: true, cmp("score", .ne, .null)),
        PeerCase("score > 'x'", trivial: true, cmp("score", .gt, "x")),
        PeerCase("age = '42'", trivial: true, cmp("age", .eq, "42")),
        PeerCase("name = first", cmp("name", .eq, name0)),
        PeerCase(
            "name = first [c]", trivial: true,
            .compare(
                .key("name"), .eq,
                .literal(
                    .string(
                        {
                            if case .string(let s) = name0 { return s.uppercased() }
                            return ""
                        }())), .caseInsensitive)),
        PeerCase("name > 'M'", cmp("name", .gt, "M")),
        PeerCase("name IN list", .inCollection(.key("name"), list([name0, name1, "nobody", 5, .null]), [])),
        PeerCase("age IN list", .inCollection(.key("age"), list([1, 2.0, 3.5, "4"]), [])),
        PeerCase("age BETWEEN 10 AND 20", .between(.key("age"), lower: .literal(10), upper: .literal(20))),
        PeerCase("score BETWEEN 10 AND 20.5", .between(.key("score"), lower: .literal(10), upper: .literal(20.5))),
        PeerCase("created > date", cmp("created", .gt, .date(june2022))),
        PeerCase("created > epoch ms", trivial: true, cmp("created", .gt, .int(june2022))),
        PeerCase("created <= '2022-06-01T00:00:00Z'", trivial: true, cmp("created", .le, "2022-06-01T00:00:00.000Z")),
        PeerCase("score IS NULL", .isNull(.key("score"))),
        PeerCase("missing field = 1", trivial: true, cmp("nothing", .eq, 1)),
    ]

    static let strings: [PeerCase] = [
        PeerCase("name BEGINSWITH Jo", str(.beginsWith, "Jo")),
        PeerCase("name ENDSWITH 7", str(.endsWith, "7")),
        PeerCase("name CONTAINS an", str(.contains, "an")),
        PeerCase("name LIKE J_e%", str(.like(.sql(escape: nil)), "J_e%")),
        PeerCase("name LIKE j% [c]", str(.like(.sql(escape: nil)), "j%", .caseInsensitive)),
        PeerCase("name LIKE *a?a* (glob)", str(.like(.glob), "*a?a*")),
        PeerCase("name CONTAINS[cd] AN", str(.contains, "AN", [.caseInsensitive, .diacriticInsensitive])),
        PeerCase("name MATCHES ^J.n", str(.matches(RegexOptions(wholeString: false)), "^J.n")),
        PeerCase(
            "name MATCHES[c] whole", str(.matches(RegexOptions(wholeString: true)), "j[a-o]+[0-9]{2}", .caseInsensitive)
        ),
        PeerCase("age LIKE 4%", trivial: true, .string(.key("age"), .like(.sql(escape: nil)), .literal("4%"), [])),
    ]

    static let arrays: [PeerCase] = [
        PeerCase("tags = a1", cmp("tags", .eq, "a1")),
        PeerCase("tags != a1", cmp("tags", .ne, "a1")),
        PeerCase("tags > i", cmp("tags", .gt, "i")),
        PeerCase("tags = null", trivial: true, cmp("tags", .eq, .null)),
        PeerCase("tags IN (a1, b2)", .inCollection(.key("tags"), list(["a1", "b2"]), [])),
        PeerCase("tags IN (a1, null)", .inCollection(.key("tags"), list(["a1", .null]), [])),
        PeerCase("'c3' IN tags", .inCollection(.literal("c3"), .key("tags"), [])),
        PeerCase("tags containsAll (a1, b2)", .containsAll(.key("tags"), list(["a1", "b2"]))),
        PeerCase("tags containsAll ()", trivial: true, .containsAll(.key("tags"), list([]))),
        PeerCase(
            "tags containedBy a-c", .containedBy(.key("tags"), list(["a1", "a2", "a3", "b1", "b2", "c5", .null]))),
        PeerCase("tags size 2", .arraySize(.key("tags"), 2)),
        PeerCase("tags IS NULL", .isNull(.key("tags"))),
        PeerCase("tags LIKE a%", .string(.key("tags"), .like(.sql(escape: nil)), .literal("a%"), [])),
        PeerCase("tags BETWEEN b AND c", .between(.key("tags"), lower: .literal("b"), upper: .literal("c"))),
    ]

    static let geo: [PeerCase] = [
        PeerCase("near 300 km", .geo(.near("location", home, maxDistance: Distance(300, .kilometers)))),
        PeerCase("near unbounded", trivial: true, .geo(.near("location", home, maxDistance: nil))),
        PeerCase(
            "within box",
            .geo(
                .withinBox(
                    "location", southwest: GeoPoint(latitude: home.latitude - 0.3, longitude: home.longitude - 0.3),
                    northeast: GeoPoint(latitude: home.latitude + 0.2, longitude: home.longitude + 0.4)))),
        PeerCase(
            "within polygon",
            .geo(
                .withinPolygon(
                    "location",
                    [
                        GeoPoint(latitude: -20, longitude: -100), GeoPoint(latitude: 50, longitude: -80),
                        GeoPoint(latitude: 40, longitude: 60), GeoPoint(latitude: -30, longitude: 20),
                    ]))),
        PeerCase(
            "within circle 1000 mi", .geo(.withinCircle("location", center: home, radius: Distance(1000, .miles)))),
        PeerCase("distance < 2000 km", .geo(.distance("location", from: home, .lt, Distance(2000, .kilometers)))),
        PeerCase("distance >= 0.5 rad", .geo(.distance("location", from: home, .ge, Distance(0.5, .radians)))),
        PeerCase(
            "near, sorted by distance",
            { s, n in
                Query(
                    className: "Person",
                    predicate: .leaf(
                        Leaf(
                            .geo(.near("location", home, maxDistance: Distance(3000, .kilometers))),
                            negated: n, semantics: s)),
                    order: [.distance("location", from: home, .ascending)], limit: 40)
            }),
    ]

    static let relations: [PeerCase] = [
        PeerCase("city.name = third", cmp("city.name", .eq, cityName)),
        PeerCase("city.population > 1M", cmp("city.population", .gt, 1_000_000)),
        PeerCase("city.location.latitude > 0", cmp("city.location.latitude", .gt, 0)),
        PeerCase("city.objectId = c3", cmp("city.objectId", .eq, "c3")),
        PeerCase("city = pointer c3", cmp("city", .eq, PeerFixture.city("c3"))),
        PeerCase("city = 'c3'", trivial: true, cmp("city", .eq, "c3")),
        PeerCase("city IS NULL", .isNull(.key("city"))),
        PeerCase(
            "city inQuery big cities",
            .inQuery(
                "city",
                Query(
                    className: "City", predicate: .leaf(cmp("population", .gt, 1_000_000), .sql)))),
        PeerCase(
            "city.objectId IN (City[country = first].objectId)",
            .select(
                "city.objectId",
                Query(
                    className: "City", predicate: .leaf(cmp("country", .eq, country0), .sql)), innerKey: "objectId")),
        PeerCase(
            "age IN (Person[name BEGINSWITH Zoe] ordered, limited .age)",
            .select(
                "age",
                Query(
                    className: "Person",
                    predicate: .leaf(.string(.key("name"), .beginsWith, .literal("Zoe"), []), .sql),
                    order: [.key("score", .descending)], skip: 1, limit: 5), innerKey: "age")),
    ]

    static let shapes: [PeerCase] = [
        PeerCase(
            "(age > 50 OR name BEGINSWITH J) AND NOT score < 10",
            { s, n in
                let p = Filter.and([
                    .or([
                        .leaf(Leaf(cmp("age", .gt, 50), negated: n, semantics: s)),
                        .leaf(Leaf(str(.beginsWith, "J"), semantics: s)),
                    ]),
                    .not(.leaf(Leaf(cmp("score", .lt, 10), semantics: s))),
                ])
                return Query(className: "Person", predicate: p)
            }),
        PeerCase(
            "age > 30 ORDER BY age DESC LIMIT 20", cmp("age", .gt, 30), order: [.key("age", .descending)], limit: 20),
        PeerCase(
            "score < 90 ORDER BY score, name SKIP 5 LIMIT 50", cmp("score", .lt, 90),
            order: [.key("score", .ascending), .key("name", .ascending)], skip: 5, limit: 50),
        PeerCase(
            "age < 90 ORDER BY city.name DESC, created", cmp("age", .lt, 90),
            order: [.key("city.name", .descending), .key("created", .ascending)], limit: 100),
        PeerCase("skip only", cmp("age", .lt, 50), order: [.key("name", .ascending)], skip: 700),
    ]

    static let edge: [PeerCase] = [
        PeerCase("n > 2", on: "Edge", cmp("n", .gt, 2)),
        PeerCase("n = 4", on: "Edge", cmp("n", .eq, 4)),
        PeerCase("flag = true", on: "Edge", cmp("flag", .eq, true)),
        PeerCase("flag < true", on: "Edge", cmp("flag", .lt, true)),
        PeerCase("d > A", on: "Edge", cmp("d", .gt, .date(PeerFixture.dateA))),
        PeerCase("label = Émile", on: "Edge", cmp("label", .eq, "Émile")),
        PeerCase("label = ''", on: "Edge", cmp("label", .eq, "")),
        PeerCase("label = x NUL y", on: "Edge", cmp("label", .eq, "x\u{0}y")),
        PeerCase("label > x", on: "Edge", cmp("label", .gt, "x")),
        PeerCase("home = c1", on: "Edge", cmp("home", .eq, PeerFixture.city("c1"))),
        PeerCase("home = c999 (dangling)", on: "Edge", cmp("home", .eq, PeerFixture.city("c999"))),
        PeerCase("home IS NULL", on: "Edge", .isNull(.key("home"))),
        PeerCase("home.name IS NULL", on: "Edge", .isNull(.key("home.name"))),
        PeerCase("c1 IN friends", on: "Edge", .inCollection(.literal(PeerFixture.city("c1")), .key("friends"), [])),
        PeerCase("friends = c3", on: "Edge", cmp("friends", .eq, PeerFixture.city("c3"))),
        PeerCase("friends IS NULL", on: "Edge", .isNull(.key("friends"))),
        PeerCase("friends size 2", on: "Edge", .arraySize(.key("friends"), 2)),
        PeerCase("nums = 3", on: "Edge", cmp("nums", .eq, 3)),
        PeerCase("nums = null", on: "Edge", cmp("nums", .eq, .null)),
        PeerCase("nums IN (3, null)", on: "Edge", .inCollection(.key("nums"), list([3, .null]), [])),
        PeerCase("nums containedBy (1, 2, 3, null)", on: "Edge", .containedBy(.key("nums"), list([1, 2, 3, .null]))),
        PeerCase("nums containsAll (1, null)", on: "Edge", .containsAll(.key("nums"), list([1, .null]))),
        PeerCase("nums IS NULL", on: "Edge", .isNull(.key("nums"))),
        PeerCase(
            "where within box", on: "Edge",
            .geo(
                .withinBox(
                    "where", southwest: GeoPoint(latitude: 0, longitude: 0),
                    northeast: GeoPoint(latitude: 15, longitude: 180)))),
        PeerCase(
            "City relatedTo e1.friends", on: "City",
            .relatedTo(Pointer(className: "Edge", objectId: "e1"), key: "friends")),
        PeerCase(
            "City relatedTo e6.friends", on: "City",
            .relatedTo(Pointer(className: "Edge", objectId: "e6"), key: "friends")),
        PeerCase(
            "City relatedTo e5.friends", on: "City",
            .relatedTo(Pointer(className: "Edge", objectId: "e5"), key: "friends")),
        PeerCase(
            "City relatedTo e4.home", on: "City", .relatedTo(Pointer(className: "Edge", objectId: "e4"), key: "home")),
        PeerCase(
            "City relatedTo missing", on: "City", .relatedTo(Pointer(className: "Edge", objectId: "zz"), key: "friends")
        ),
    ]

    static let all = comparisons + strings + arrays + geo + relations + shapes + edge
}
