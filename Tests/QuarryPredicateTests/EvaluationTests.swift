import QuarryCore
import QuarryEngine
import Testing
import QuarryTestSupport
@testable import QuarryPredicate

// Result-level golden tests: format strings run by the reference evaluator over sample data.

private func record(_ id: String, _ fields: KeyValuePairs<String, Value> = [:]) -> Record {
    Record(objectId: id, fields: fields.map { ($0.key, $0.value) })
}

private func pointer(_ className: String, _ id: String) -> Value {
    .pointer(Pointer(className: className, objectId: id))
}

private func date(_ iso: String) -> Value { .date(ISODate.parse(iso) ?? 0) }

/// Accents (composed), mixed case, arrays, nested objects, pointers (one dangling), an array of
/// pointers, dates, ints and doubles, null and missing fields.
private let people = Database([
    ClassData(
        name: "Person",
        records: [
            record(
                "p1",
                [
                    "name": "José", "age": 30, "tags": ["swift", "linux"], "scores": [1, 5, 9],
                    "address": .object(["city": "Oslo", "zip": "0150"]), "team": pointer("Team", "t1"),
                    "born": date("1990-05-01T00:00:00Z"), "rating": 4.5, "active": true,
                ]),
            record(
                "p2",
                [
                    "name": "jose", "age": 25, "tags": ["Swift"], "scores": [],
                    "address": .object(["city": "Bergen"]), "team": pointer("Team", "t2"),
                    "born": date("1985-01-01T00:00:00Z"), "rating": 3.0, "active": false,
                ]),
            record(
                "p3",
                [
                    "name": "JOSÉ", "age": .null, "tags": [], "scores": [10], "team": pointer("Team", "t9"),
                    "active": true,
                ]),
            record(
                "p4",
                [
                    "name": "Zoë", "scores": [2, 2], "address": .object(["city": "oslo"]),
                    "contacts": [pointer("Person", "p1"), pointer("Person", "p2")],
                    "born": date("2001-01-01T00:00:00Z"),
                ]),
            record("p5", ["name": "Big Daddy's", "age": 40, "rating": 4.5, "nick": "BD"]),
            record("p6", ["age": 18]),
        ]),
    ClassData(
        name: "Team",
        records: [
            record("t1", ["name": "Red", "wins": 10]),
            record("t2", ["name": "Blue", "wins": 3]),
        ]),
])

private func run(
    _ db: Database, _ className: String, _ format: String, _ args: [PredicateArgument] = [],
    variables: [String: Value]? = nil, profile: Profile = .exact
) throws -> Set<String> {
    let p = try PredicateFormat.parse(format, arguments: args, variables: variables, profile: profile)
    return Set(
        try ReferenceEvaluator(database: db, now: { 0 }).run(Query(className: className, predicate: p)).objectIds)
}

struct Expectation: Sendable, CustomTestStringConvertible {
    var format: String
    var arguments: [PredicateArgument] = []
    var ids: Set<String>
    var testDescription: String { format }
    init(_ format: String, _ arguments: [PredicateArgument] = [], finds ids: Set<String>) {
        self.format = format
        self.arguments = arguments
        self.ids = ids
    }
}

@Suite struct EvaluationTests {
    static let strings: [Expectation] = [
        Expectation("name == 'José'", finds: ["p1"]),
        Expectation("name ==[c] 'josé'", finds: ["p1", "p3"]),
        Expectation("name ==[d] 'Jose'", finds: ["p1"]),
        Expectation("name ==[cd] 'jose'", finds: ["p1", "p2", "p3"]),
        Expectation("name !=[cd] 'jose'", finds: ["p4", "p5", "p6"]),
        Expectation("name BEGINSWITH[cd] 'zo'", finds: ["p4"]),
        Expectation("name ENDSWITH 'É'", finds: ["p3"]),
        Expectation("name LIKE 'Big*'", finds: ["p5"]),
        Expectation("name LIKE[c] '?ose'", finds: ["p2"]),
        Expectation("name LIKE[cd] '?ose'", finds: ["p1", "p2", "p3"]),
        Expectation("name MATCHES 'J.*'", finds: ["p1", "p3"]),
        Expectation("name MATCHES[c] 'j.s.'", finds: ["p1", "p2", "p3"]),
        Expectation("name CONTAINS 'Dad'", finds: ["p5"]),
        Expectation("name CONTAINS[c] 'DAD'", finds: ["p5"]),
        Expectation("name IN {'Zoë', 'jose'}", finds: ["p2", "p4"]),
        Expectation("name IN[c] {'ZOË'}", finds: ["p4"]),
        Expectation("'os' IN name", finds: ["p1", "p2"]),
        Expectation("name > 'Z'", finds: ["p2", "p4"]),
        // Foundation: `hasPrefix:@""` is NO, and so are the empty suffix and substring; nil on
        // the right is valid, with or without options, and matches nothing. LIKE keeps its rules.
        Expectation("name BEGINSWITH ''", finds: []),
        Expectation("name ENDSWITH[cd] ''", finds: []),
        Expectation("name CONTAINS ''", finds: []),
        Expectation("NOT (name BEGINSWITH '')", finds: ["p1", "p2", "p3", "p4", "p5", "p6"]),
        Expectation("'' IN name", finds: []),
        Expectation("ANY tags BEGINSWITH ''", finds: []),
        Expectation("name BEGINSWITH %@", [.value("")], finds: []),
        Expectation("name BEGINSWITH nil", finds: []),
        Expectation("name ENDSWITH[cd] nil", finds: []),
        Expectation("name CONTAINS[c] NULL", finds: []),
        Expectation("name BEGINSWITH %@", [.value(.null)], finds: []),
        Expectation("NOT (name ENDSWITH nil)", finds: ["p1", "p2", "p3", "p4", "p5", "p6"]),
        Expectation("name LIKE '*'", finds: ["p1", "p2", "p3", "p4", "p5"]),
        Expectation("name LIKE ''", finds: []),
    ]

    static let collections: [Expectation] = [
        Expectation("tags CONTAINS 'swift'", finds: ["p1"]),
        Expectation("'linux' IN tags", finds: ["p1"]),
        Expectation("ANY tags ==[c] 'swift'", finds: ["p1", "p2"]),
        Expectation("ANY tags BEGINSWITH 'li'", finds: ["p1"]),
        Expectation("tags == {'Swift'}", finds: ["p2"]),
        Expectation("scores.@count > 1", finds: ["p1", "p4"]),
        Expectation("scores.@sum > 10", finds: ["p1"]),
        Expectation("scores.@max == 10", finds: ["p3"]),
        Expectation("scores.@avg == 2", finds: ["p4"]),
        Expectation("scores[FIRST] == 1 AND scores[LAST] == 9", finds: ["p1"]),
        Expectation("scores[SIZE] == 2", finds: ["p4"]),
        Expectation("scores[1] == 5", finds: ["p1"]),
        Expectation("ALL scores > 1", finds: ["p2", "p3", "p4", "p5", "p6"]),
        Expectation("NONE scores > 5", finds: ["p2", "p4", "p5", "p6"]),
        Expectation("ANY scores BETWEEN {4, 6}", finds: ["p1"]),
        Expectation("SUBQUERY(scores, $s, $s > 4).@count == 2", finds: ["p1"]),
        Expectation("SUBQUERY(scores, $s, $s > SELF.age).@count > 0", finds: []),
        Expectation("SUBQUERY(scores, $s, $s < SELF.age).@count > 0", finds: ["p1"]),
        Expectation("contacts.name CONTAINS 'jose'", finds: ["p4"]),
        Expectation("ANY contacts.age > 26", finds: ["p4"]),
        Expectation("contacts.@count == 2", finds: ["p4"]),
    ]

    static let values: [Expectation] = [
        Expectation("age == nil", finds: ["p3", "p4"]),
        Expectation("age != nil", finds: ["p1", "p2", "p5", "p6"]),
        Expectation("tags == nil", finds: ["p4", "p5", "p6"]),
        Expectation("age > 20", finds: ["p1", "p2", "p5"]),
        Expectation("NOT (age > 20)", finds: ["p3", "p4", "p6"]),
        Expectation("age BETWEEN {18, 30}", finds: ["p1", "p2", "p6"]),
        Expectation("30 >= age AND age > 20", finds: ["p1", "p2"]),
        Expectation("rating == 4.5 AND active == YES", finds: ["p1"]),
        Expectation("rating == 3", finds: ["p2"]),
        Expectation("active == NO OR active == nil", finds: ["p2", "p4", "p5", "p6"]),
        Expectation("age + 5 > 30", finds: ["p1", "p5"]),
        Expectation("age * 2 == 50", finds: ["p2"]),
        Expectation("abs(age - 30) <= 5", finds: ["p1", "p2"]),
        Expectation("-age < -35", finds: ["p5"]),
        Expectation("age ** 2 == 900", finds: ["p1"]),
        Expectation("nick IN SELF", finds: ["p5"]),
        Expectation("NOT (nick IN SELF)", finds: ["p1", "p2", "p3", "p4", "p6"]),
        Expectation("age IN {18, 40}", finds: ["p5", "p6"]),
        Expectation("age > 0x10 AND age < 0b11001", finds: ["p6"]),
    ]

    static let paths: [Expectation] = [
        Expectation("address.city == 'Oslo'", finds: ["p1"]),
        Expectation("address.city ==[c] 'oslo'", finds: ["p1", "p4"]),
        Expectation("address['city'] == 'Bergen'", finds: ["p2"]),
        Expectation("team.name == 'Red'", finds: ["p1"]),
        Expectation("team.wins > 5", finds: ["p1"]),
        Expectation("age > team.wins", finds: ["p1", "p2"]),
        // p3's team (t9) is not loaded: the pointer is a value, but nothing lies behind it.
        Expectation("team == nil", finds: ["p4", "p5", "p6"]),
        Expectation("team.name == nil", finds: ["p3", "p4", "p5", "p6"]),
        Expectation("team.objectId == 't9'", finds: ["p3"]),
        Expectation("%K.%K BEGINSWITH 'R'", [.keyPath("team"), .keyPath("name")], finds: ["p1"]),
        Expectation("%K.name == 'Blue'", [.keyPath("team")], finds: ["p2"]),
        Expectation("team.%K > 5", [.keyPath("wins")], finds: ["p1"]),
        Expectation("address.%K ==[c] 'oslo'", [.value("city")], finds: ["p1", "p4"]),
        Expectation("SELF.name == 'Zoë'", finds: ["p4"]),
    ]

    static let dates: [Expectation] = [
        Expectation("born < CAST('2000-01-01T00:00:00Z', 'NSDate')", finds: ["p1", "p2"]),
        Expectation("born == CAST(0, 'NSDate')", finds: ["p4"]),
        Expectation("born > CAST(-473385600, 'NSDate')", finds: ["p1", "p4"]),
        Expectation("born > %@", [.value(date("1989-01-01T00:00:00Z"))], finds: ["p1", "p4"]),
        Expectation(
            "born BETWEEN %@", [[date("1985-01-01T00:00:00Z"), date("1990-05-01T00:00:00Z")]], finds: ["p1", "p2"]),
    ]

    static let arguments: [Expectation] = [
        Expectation("%K == %@", [.keyPath("address.city"), "Bergen"], finds: ["p2"]),
        Expectation("age > %d AND name BEGINSWITH[c] %@", [20, "j"], finds: ["p1", "p2"]),
        Expectation("rating >= %f", [4], finds: ["p1", "p5"]),
        Expectation("name IN %@", [["Zoë", "jose"]], finds: ["p2", "p4"]),
        Expectation("team = %@", [.value(.pointer(Pointer(className: "Team", objectId: "t2")))], finds: ["p2"]),
        Expectation("name == '%@'", [], finds: []),
    ]

    @Test(arguments: strings + collections)
    func stringAndCollectionResults(_ e: Expectation) throws {
        #expect(try run(people, "Person", e.format, e.arguments) == e.ids)
    }

    @Test(arguments: values + paths + dates + arguments)
    func valueAndPathResults(_ e: Expectation) throws {
        #expect(try run(people, "Person", e.format, e.arguments) == e.ids)
    }

    @Test func variablesBindAtParseOrLater() throws {
        #expect(try run(people, "Person", "age > $min", variables: ["min": 26]) == ["p1", "p5"])
        let p = try PredicateFormat.parse("age BETWEEN $range").substituting(["range": [18, 25]])
        let ids = try ReferenceEvaluator(database: people).run(Query(className: "Person", predicate: p)).objectIds
        #expect(Set(ids) == ["p2", "p6"])
    }

    /// The canonical text of every query above finds the same objects.
    @Test func printedQueriesFindTheSameObjects() throws {
        for e in Self.strings + Self.collections + Self.values + Self.paths + Self.dates + Self.arguments {
            let p = try PredicateFormat.parse(e.format, arguments: e.arguments)
            let (text, args) = try PredicateFormat.printWithArguments(p)
            #expect(try run(people, "Person", text, args) == e.ids, "\(e.format) → \(text)")
        }
    }
}

// MARK: - The seeds' examples, on the seeds' data

private let posts = Database([
    ClassData(
        name: "Post",
        records: [
            record("p1", ["title": "I'm Hungry", "image": .file(FileRef(name: "a.png"))]),
            record("p2", ["title": "No pic"]),
            record("1zEcyElZ80", ["image": .file(FileRef(name: "b.png")), "author": pointer("_User", "au1")]),
        ]),
    ClassData(
        name: "Comment",
        records: [
            record("c1", ["post": pointer("Post", "p1")]), record("c2", ["post": pointer("Post", "p1")]),
            record("c3", ["post": pointer("Post", "p2")]), record("c4", ["post": pointer("Post", "1zEcyElZ80")]),
            record("c5"),
        ]),
])

private let maxLeapPosts = Database([
    ClassData(
        name: "Post",
        records: [
            record(
                "m1",
                [
                    "publisher": "MaxLeap", "title": "Big Daddy's", "readCount": 5, "wins": 49, "image": "a.png",
                    "arrayKey": [2, 3, 4],
                ]),
            record(
                "m2",
                ["publisher": "xiaoming", "title": "Big Daddy's BBQ", "readCount": 10, "wins": 50, "arrayKey": [1, 2]]),
            record(
                "m3",
                [
                    "publisher": "Jonathan Walsh", "title": "big daddy's", "readCount": 101, "wins": 51,
                    "arrayKey": [2, 3, 4, 5],
                ]),
            record("m4", ["publisher": "Dario Wunsch", "title": "BBQ Sauce: Big Daddy's", "readCount": 100]),
            record("m5", ["publisher": "Sean", "title": "Go We", "readCount": 50]),
        ])
])

@Suite struct SeedResultTests {
    private static let names: PredicateArgument = ["Jonathan Walsh", "Dario Wunsch", "Shawn Simon"]

    /// Parse guide §18, T02–T13, each under the parse profile.
    @Test func gameScoreExamples() throws {
        func q(_ f: String, _ a: [PredicateArgument] = []) throws -> Set<String> {
            try run(ReferenceData.gameScores, "GameScore", f, a, profile: .parse)
        }
        #expect(try q("playerName = 'Dan Stemkosk'") == [])  // T02: the guide's truncated name
        #expect(try q("playerName = 'Dan Stemkoski'") == ["g2"])
        #expect(try q("playerName != 'Michael Yabuti'") == ["g1", "g2", "g4", "g5", "g6", "g7", "g8"])  // T03
        #expect(try q("playerName != 'Michael Yabuti' AND playerAge > 18") == ["g1", "g2", "g4", "g6"])  // T04
        #expect(try q("wins < 50") == ["g1", "g4", "g7", "g8"])  // T09
        #expect(try q("wins <= 50") == ["g1", "g2", "g4", "g7", "g8"])
        #expect(try q("wins > 50") == ["g3", "g5", "g6"])
        #expect(try q("wins >= 50") == ["g2", "g3", "g5", "g6"])
        #expect(try q("playerName IN %@", [Self.names]) == ["g4", "g5", "g6"])  // T10
        #expect(try q("NOT (playerName IN %@)", [Self.names]) == ["g1", "g2", "g3", "g7", "g8"])  // T11
        #expect(try q("score IN SELF") == ["g1", "g2", "g3", "g4", "g5", "g7", "g8"])  // T12
        #expect(try q("NOT (score IN SELF)") == ["g6"])  // T13
        // The ObjC count example's `playername`: keys are case-sensitive, so nothing matches.
        #expect(try q("playername = 'Sean Plott'") == [])
        #expect(try q("playerName = 'Sean Plott'") == ["g1"])
    }

    @Test func arrayAndStringExamples() throws {
        // T28
        #expect(try run(ReferenceData.arrays, "MyClass", "2 IN arrayKey", profile: .parse) == ["a1", "a2", "a4"])
        #expect(
            try run(ReferenceData.sauces, "BarbecueSauce", "name BEGINSWITH \"Big Daddy's\"", profile: .parse) == [
                "b1", "b2",
            ])  // T27
        // The guide's own text, with its quote closed, is the same prefix test.
        #expect(
            try run(ReferenceData.sauces, "BarbecueSauce", "name BEGINSWITH 'Big Daddy'", profile: .parse) == [
                "b1", "b2",
            ])
    }

    @Test func relationalExamples() throws {
        let inner = PredicateArgument.query(
            Query(className: "Post", predicate: try PredicateFormat.parse("image IN SELF")))
        let p1 = PredicateArgument.value(.pointer(Pointer(className: "Post", objectId: "p1")))
        let stub = PredicateArgument.value(.pointer(Pointer(className: "Post", objectId: "1zEcyElZ80")))
        #expect(try run(posts, "Comment", "post = %@", [p1], profile: .parse) == ["c1", "c2"])  // T32
        #expect(try run(posts, "Comment", "post = %@", [stub], profile: .parse) == ["c4"])  // T33
        #expect(try run(posts, "Comment", "post IN %@", [inner], profile: .parse) == ["c1", "c2", "c4"])  // T34
        #expect(try run(posts, "Comment", "NOT (post IN %@)", [inner], profile: .parse) == ["c3", "c5"])  // T35
    }

    /// LeanCloud/MaxLeap reference TC-52 to TC-58, under the maxleap profile.
    @Test func maxLeapExamples() throws {
        func q(_ f: String) throws -> Set<String> { try run(maxLeapPosts, "Post", f, profile: .maxleap) }
        #expect(try q("publisher = 'MaxLeap'") == ["m1"])  // TC-52
        #expect(try q("wins BETWEEN {49, 50}") == ["m1", "m2"])  // TC-53
        #expect(try q("publisher IN {'Dario Wunsch', 'Sean'}") == ["m4", "m5"])  // TC-54
        #expect(try q("image IN SELF") == ["m1"])
        #expect(try q("NOT (image IN SELF)") == ["m2", "m3", "m4", "m5"])
        #expect(try q("title BEGINSWITH 'Big'") == ["m1", "m2"])  // TC-55
        #expect(try q("readCount < 10 OR readCount > 100") == ["m1", "m3"])
        #expect(try q("publisher != 'MaxLeap' AND (readCount < 10 OR readCount > 100)") == ["m3"])
        #expect(try q("NOT (readCount >= 10 AND readCount <= 100)") == ["m1", "m3"])
        #expect(try q("title ENDSWITH \"'s\"") == ["m1", "m3", "m4"])  // TC-58
        #expect(try q("title CONTAINS 'Daddy'") == ["m1", "m2", "m4"])
        #expect(failure("title CONTAINS 'Daddy'", profile: .parse) == "profile.unsupported@1:7")
        #expect(failure("ANY arrayKey = 2", profile: .maxleap) == "profile.unsupported@1:1")  // TC-57
        #expect(failure("wins > readCount", profile: .maxleap) == "profile.unsupported@1:1")
    }
}
