import Quarry
import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// Queries written in the three languages, parsed by their front-ends, run on the engine
/// (with and without indexes) and on the reference: the same answers.
@Suite struct FrontEndAgreementTests {
    static let sqlAtoms = [
        "i > 5", "i = 2", "i = 42 OR i = 10", "i <> 1", "i BETWEEN 1 AND 10", "NOT (i > 5)", "i IN (1, 2, 100)",
        "d < 1.5", "d >= 2.0", "s = 'J'", "s LIKE 'J%'", "s LIKE '%e'", "s LIKE '_o%'", "s IN ('a', 'Ab', 'ß')",
        "s IS NULL", "s IS NOT NULL", "s > 'b'", "dt > '01/01/2015'", "dt < 86400001", "b = true", "tags = 'a'",
        "ptr.name = 'a'", "ptr.n > 1", "distance(30.27, -97.74, g.latitude, g.longitude) < km(500)",
        "objectId = 'i3'", "m = 1",
    ]

    static let predicateAtoms = [
        "i > 5", "i == 2", "i != 1", "i BETWEEN {1, 10}", "NOT (i > 5)", "i IN {1, 2, 100}", "d < 1.5",
        "s == 'J'", "s BEGINSWITH 'J'", "s BEGINSWITH[c] 'j'", "s ENDSWITH 'e'", "s CONTAINS[cd] 'e'",
        "s LIKE 'J*'", "s LIKE[c] '?o*'", "s MATCHES '[aA].*'", "s == nil", "s != nil", "ANY tags == 'a'",
        "ALL tags != 'b'", "tags.@count > 1", "ptr.name == 'a'", "b == YES", "m == 1",
    ]

    static let jsonAtoms = [
        #""i": {"$gt": 5}"#, #""i": 2"#, #""i": {"$ne": 1}"#, #""i": {"$in": [1, 2, 100]}"#,
        #""i": {"$gte": 1, "$lte": 10}"#,
        #""d": {"$lt": 1.5}"#, #""s": "J""#, #""s": {"$regex": "^J"}"#, #""s": {"$regex": "e$", "$options": "i"}"#,
        #""s": {"$exists": false}"#, #""s": {"$nin": ["a", "b"]}"#, #""tags": "a""#, #""tags": {"$all": ["a", "b"]}"#,
        #""b": true"#, #""ptr": {"$inQuery": {"className": "Other", "where": {"name": "a"}}}"#,
        #""s": {"$select": {"query": {"className": "Other", "where": {}}, "key": "name"}}"#,
        #""g": {"$nearSphere": {"__type": "GeoPoint", "latitude": 30.27, "longitude": -97.74}, "$maxDistanceInKilometers": 600}"#,
        #""m": 1"#,
    ]

    enum Dialect: CaseIterable { case sql, predicate, json }

    static func text(_ dialect: Dialect, _ random: inout RandomData) -> String {
        let n = 1 + random.int(3)
        switch dialect {
        case .sql:
            return (0..<n).map { _ in "(" + random.pick(sqlAtoms) + ")" }.joined(
                separator: random.chance(50) ? " AND " : " OR ")
        case .predicate:
            return (0..<n).map { _ in "(" + random.pick(predicateAtoms) + ")" }.joined(
                separator: random.chance(50) ? " AND " : " OR ")
        case .json:
            let atoms = (0..<n).map { _ in "{" + random.pick(jsonAtoms) + "}" }
            return random.chance(50)
                ? #"{"$or": ["# + atoms.joined(separator: ", ") + "]}"
                : #"{"$and": ["# + atoms.joined(separator: ", ") + "]}"
        }
    }

    static func query(_ dialect: Dialect, _ text: String) -> Query? {
        switch dialect {
        case .sql:
            return (try? SQLWhere.parse(text, className: "Item")).map { Query(className: "Item", predicate: $0) }
        case .predicate:
            return (try? PredicateFormat.parse(text, className: "Item")).map { Query(className: "Item", predicate: $0) }
        case .json:
            return try? ParseWhere.parse(text, className: "Item")
        }
    }

    @Test(arguments: Dialect.allCases, [false, true])
    func parsedQueriesAgree(dialect: Dialect, indexed: Bool) throws {
        var random = RandomData(seed: 77)
        let db = random.database(items: 60, others: 6)
        let engine = Engine(database: db, now: { 0 }, random: { 0.5 })
        if indexed {
            for k in ["i", "d", "s", "tags", "ptr", "b"] as [FieldPath] {
                try engine.createIndex(.ordered, on: k, in: "Item")
            }
            try engine.createIndex(.hash, on: "m", in: "Item")
            try engine.createIndex(.geo, on: "g", in: "Item")
        }
        let reference = ReferenceEvaluator(database: db, now: { 0 }, random: { 0.5 })
        var parsed = 0
        for _ in 0..<300 {
            let text = Self.text(dialect, &random)
            guard var q = Self.query(dialect, text) else { continue }
            parsed += 1
            if random.chance(30) {
                q.order = [.key(random.pick(["i", "s", "d"]), random.chance(50) ? .ascending : .descending)]
            }
            if random.chance(30) { q.limit = random.int(5) }
            let expected = EngineAgreementTests.outcome { () throws(Diagnostic) in try reference.run(q) }
            let actual = EngineAgreementTests.outcome { () throws(Diagnostic) in try engine.run(q) }
            #expect(actual == expected, "\(text)")
        }
        #expect(parsed > 150)
    }
}
