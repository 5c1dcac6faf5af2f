import Testing
import QuarryTestSupport
import QuarryCore
import QuarryEngine
import QuarrySQL

/// The Backendless reference's test cases (§7) end to end: the where clause, parsed by the SQL
/// front-end and run by the reference evaluator over the §7 datasets, gives the listed objects.
/// Each clause runs twice: lowered with the database as schema (dates converted at compile
/// time, names resolved) and without a schema (the engine coerces at run time).
@Suite struct ReferenceResultTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var number: Int
        var dataset: String
        var className: String
        var clause: String
        var expected: Set<String>
        /// Needs the schema's case-insensitive name resolution (`Coordinates`, `NAME`).
        var schemaOnly = false
        var testDescription: String { "\(number): \(clause)" }
    }

    static func database(_ name: String) -> Database {
        switch name {
        case "S": return ReferenceDatasets.strings
        case "C": return ReferenceDatasets.numbers
        case "U": return ReferenceDatasets.dates
        case "R": return ReferenceData.relations
        case "PA": return ReferenceDatasets.counting
        case "F": return ReferenceData.friends
        default: return ReferenceDatasets.users
        }
    }

    static let austin = "distance( 30.26715, -97.74306, coordinates.latitude, coordinates.longitude )"
    static let beaumont = "distance( 30.084, -94.145, coordinates.latitude, coordinates.longitude )"

    static let cases: [Case] = [
        Case(number: 1, dataset: "S", className: "Item", clause: "name = 'foo'", expected: ["s1"]),
        Case(number: 2, dataset: "S", className: "Item", clause: "name != 'foo'", expected: ["s2", "s3", "s4", "s5"]),
        Case(number: 3, dataset: "S", className: "Item", clause: "name is null", expected: ["s6"]),
        Case(
            number: 4, dataset: "S", className: "Item", clause: "name is not null",
            expected: ["s1", "s2", "s3", "s4", "s5"]),
        Case(
            number: 5, dataset: "S", className: "Item", clause: "name LIKE '%foo%'", expected: ["s1", "s2", "s3", "s5"]),
        Case(number: 6, dataset: "S", className: "Item", clause: "name LIKE '%foo'", expected: ["s1", "s3"]),
        Case(number: 7, dataset: "S", className: "Item", clause: "name LIKE 'foo%'", expected: ["s1", "s2"]),
        Case(
            number: 8, dataset: "S", className: "Item", clause: "name IN ('foo', 'bar', 'baz')", expected: ["s1", "s4"]),
        Case(
            number: 9, dataset: "S", className: "Item", clause: "name = 'foo' OR name = 'bar' or name = 'baz'",
            expected: ["s1", "s4"]),
        Case(number: 11, dataset: "S", className: "Item", clause: "name\u{00A0}=\u{00A0}'foo'", expected: ["s1"]),
        // Decision: LIKE ignores case (as MySQL, on which Backendless runs).
        Case(number: 12, dataset: "S", className: "Item", clause: "name LIKE 'FOO%'", expected: ["s1", "s2"]),
        Case(number: 13, dataset: "C", className: "Contact", clause: "age = 47", expected: ["c1"]),
        Case(
            number: 14, dataset: "C", className: "Contact", clause: "age > 21",
            expected: ["c1", "c2", "c3", "c4", "c6"]),
        Case(
            number: 15, dataset: "C", className: "Contact", clause: "age >= 21",
            expected: ["c1", "c2", "c3", "c4", "c5", "c6"]),
        Case(number: 16, dataset: "C", className: "Contact", clause: "age < 21", expected: []),
        Case(number: 17, dataset: "C", className: "Contact", clause: "age <= 21", expected: ["c5"]),
        Case(number: 18, dataset: "C", className: "Contact", clause: "name = 'Jack Daniels'", expected: ["c1"]),
        Case(number: 19, dataset: "C", className: "Contact", clause: "name LIKE 'Jack%'", expected: ["c1", "c2"]),
        Case(
            number: 20, dataset: "C", className: "Contact", clause: "name LIKE 'J%' and age > 20",
            expected: ["c1", "c2", "c3"]),
        Case(number: 21, dataset: "C", className: "Contact", clause: "age > 30", expected: ["c1", "c4", "c6"]),
        Case(number: 22, dataset: "C", className: "Order", clause: "orderAmount > 100", expected: ["o3", "o4"]),
        Case(number: 24, dataset: "C", className: "Contact", clause: "name='Joe' or name = 'Frank'", expected: ["c3"]),
        Case(
            number: 25, dataset: "U", className: "Contact", clause: "updated > '23-Mar-2015'", expected: ["u3", "u4"]),
        Case(number: 26, dataset: "U", className: "Contact", clause: "updated > '03/23/2015'", expected: ["u3", "u4"]),
        Case(
            number: 27, dataset: "U", className: "Contact", clause: "updated > 1427068800000", expected: ["u3", "u4"]),
        Case(
            number: 28, dataset: "U", className: "Contact", clause: "updated after 1427068800000",
            expected: ["u3", "u4"]),
        Case(
            number: 29, dataset: "U", className: "Contact", clause: "updated at or after '23-Mar-2015'",
            expected: ["u2", "u3", "u4"]),
        Case(number: 30, dataset: "U", className: "Contact", clause: "updated before '23-Mar-2015'", expected: ["u1"]),
        Case(
            number: 31, dataset: "U", className: "Contact", clause: "updated at or before 1427068800000",
            expected: ["u1", "u2"]),
        Case(
            number: 32, dataset: "U", className: "Person", clause: "birthDate > '22-Dec-1980'",
            expected: ["b3", "b4", "b5"]),
        Case(number: 33, dataset: "U", className: "Person", clause: "birthDate < '22-Dec-1980'", expected: ["b1"]),
        Case(number: 34, dataset: "U", className: "Person", clause: "birthDate before 346291200000", expected: ["b1"]),
        Case(
            number: 35, dataset: "U", className: "Person",
            clause: "birthDate at or after '10/28/1988 00:00:00 GMT-0200'",
            expected: ["b4", "b5"]),
        // Decision: the day-first fallback (1988-10-28), never a lenient rollover.
        Case(
            number: 36, dataset: "U", className: "Person", clause: "birthDate >= '28-10-1988'",
            expected: ["b3", "b4", "b5"]),
        // Decision: the guide's own yyyyMMdd.
        Case(number: 38, dataset: "U", className: "Contact", clause: "created > '20150323'", expected: ["u3", "u4"]),
        Case(
            number: 40, dataset: "U", className: "Contact", clause: "updated > 1427068800",
            expected: ["u1", "u2", "u3", "u4"]),
        Case(
            number: 41, dataset: "R", className: "Contact",
            clause: "PhoneBook[contacts].objectId = 'pb1' and address.city = 'Smallville'", expected: ["k1"]),
        Case(
            number: 42, dataset: "R", className: "Contact",
            clause: "PhoneBook[contacts].objectId = 'pb1' and address.city like '%a%'", expected: ["k1"]),
        Case(
            number: 43, dataset: "R", className: "Contact", clause: "PhoneBook[contacts].objectId = 'pb1' and age > 20",
            expected: ["k1", "k3", "k6"]),
        Case(
            number: 44, dataset: "R", className: "Contact",
            clause: "PhoneBook[contacts].objectId = 'pb1' and age >= 21 and age <= 30", expected: ["k1"]),
        Case(
            number: 45, dataset: "R", className: "Contact",
            clause: "PhoneBook[contacts].objectId = 'pb1' and age > 20 and address.city = 'Tokyo'", expected: ["k3"]),
        Case(
            number: 46, dataset: "R", className: "Contact", clause: "PhoneBook[contacts].objectId = 'pb2'",
            expected: ["k3", "k5"]),
        Case(
            number: 47, dataset: "R", className: "Contact", clause: "PhoneBook[owner].objectId = 'pb2'",
            expected: ["k1"]),
        Case(
            number: 48, dataset: "R", className: "Contact",
            clause: "PhoneBook[contacts].objectId = 'pb1' and address.city = 'Dallas'", expected: []),
        Case(number: 49, dataset: "R", className: "Contact", clause: "address.city = 'Tokyo'", expected: ["k3", "k4"]),
        Case(
            number: 50, dataset: "R", className: "Contact",
            clause: "PhoneBook[contacts].objectId = 'pb1' or PhoneBook[contacts].objectId = 'pb2'",
            expected: ["k1", "k2", "k3", "k4", "k5", "k6"]),
        Case(
            number: 51, dataset: "R", className: "Contact", clause: "PhoneBook[ contacts ].objectId = 'pb2'",
            expected: ["k3", "k5"]),
        Case(
            number: 52, dataset: "PA", className: "Address", clause: "Person[address].objectId = 'p1'",
            expected: ["ad1", "ad2", "ad3"]),
        Case(
            number: 52, dataset: "PA", className: "Address", clause: "Person[address].objectId = 'p2'",
            expected: ["ad3"]),
        Case(number: 52, dataset: "PA", className: "Address", clause: "Person[address].objectId = 'p3'", expected: []),
        Case(
            number: 52, dataset: "PA", className: "Address", clause: "Person[address].objectId = 'XXXX-XXXX-XXXX-XXXX'",
            expected: []),
        // Decision: a missing related object counts as null.
        Case(number: 55, dataset: "R", className: "Contact", clause: "address.city is null", expected: ["k6"]),
        Case(
            number: 56, dataset: "Users", className: "Users", clause: "name='Joe' or name = 'Frank'",
            expected: ["j", "f"]),
        Case(
            number: 61, dataset: "F", className: "Friend", clause: "\(austin) < mi(200)",
            expected: ["bob", "jane", "fred"]),
        Case(number: 62, dataset: "F", className: "Friend", clause: "\(austin) < mi(100)", expected: ["bob", "fred"]),
        Case(number: 63, dataset: "F", className: "Friend", clause: "\(austin) < km(200)", expected: ["bob", "fred"]),
        Case(
            number: 64, dataset: "F", className: "Friend", clause: "\(austin) < yd(200000)", expected: ["bob", "fred"]),
        Case(
            number: 64, dataset: "F", className: "Friend", clause: "\(austin) < ft(500000)", expected: ["bob", "fred"]),
        Case(number: 65, dataset: "F", className: "Friend", clause: "\(austin) > mi(100)", expected: ["jane"]),
        Case(
            number: 66, dataset: "F", className: "Friend", clause: "\(beaumont) < mi(300)",
            expected: ["bob", "jane", "fred"]),
        Case(number: 67, dataset: "F", className: "Friend", clause: "\(beaumont) < mi(200)", expected: ["jane"]),
        Case(number: 67, dataset: "F", className: "Friend", clause: "\(beaumont) >= mi(250)", expected: ["fred"]),
        // Decision: columns resolve case-insensitively (needs the schema).
        Case(
            number: 68, dataset: "F", className: "Friend",
            clause:
                "distance( \n   30.26715, \n   -97.74306, \n   Coordinates.latitude, \n   Coordinates.longitude ) < mi(200)",
            expected: ["bob", "jane", "fred"], schemaOnly: true),
        Case(
            number: 69, dataset: "F", className: "Friend", clause: "name = 'Jane' and \(austin) < mi(200)",
            expected: ["jane"]),
        Case(number: 70, dataset: "F", className: "Friend", clause: "\(austin) < m(5)", expected: ["bob"]),
        Case(number: 71, dataset: "F", className: "Friend", clause: "\(austin) <= ft(1)", expected: ["bob"]),
        Case(
            number: 87, dataset: "C", className: "Contact", clause: "name = 'Bob' or name = 'Joe' and age > 30",
            expected: ["c5"]),
        Case(
            number: 88, dataset: "C", className: "Contact", clause: "NAME like 'jack%'", expected: ["c1", "c2"],
            schemaOnly: true),
    ]

    static func run(_ clause: String, className: String, on db: Database, schema: Bool) throws -> Set<String> {
        let predicate = try SQLWhere.parse(clause, className: className, schema: schema ? db : nil)
        let result = try ReferenceEvaluator(database: db).run(Query(className: className, predicate: predicate))
        return Set(result.objectIds)
    }

    @Test(arguments: cases)
    func results(_ c: Case) throws {
        let db = Self.database(c.dataset)
        #expect(try Self.run(c.clause, className: c.className, on: db, schema: true) == c.expected)
        if !c.schemaOnly {
            #expect(try Self.run(c.clause, className: c.className, on: db, schema: false) == c.expected)
        }
    }

    @Test func countIgnoresNothingButTheClause() throws {
        // Test 22/23: getObjectCount with and without a where clause.
        let db = ReferenceDatasets.numbers
        let evaluator = ReferenceEvaluator(database: db)
        let filtered = try evaluator.run(
            Query(className: "Order", predicate: try SQLWhere.parse("orderAmount > 100"), count: true))
        #expect(filtered == .count(2))
        #expect(try evaluator.run(Query(className: "Order", count: true)) == .count(5))
    }

    /// Test 37: for each documented format, a row at exactly that instant matches `>=` and a
    /// row one millisecond earlier does not.
    @Test(arguments: ReferenceClauseTests.formats)
    func dateFormatBoundary(_ text: String, _ ms: Int64) throws {
        let db = Database([
            ClassData(
                name: "Contact",
                records: [
                    Record(objectId: "at", fields: [("updated", .date(ms))]),
                    Record(objectId: "before", fields: [("updated", .date(ms - 1))]),
                ])
        ])
        for schema in [true, false] {
            #expect(try Self.run("updated >= '\(text)'", className: "Contact", on: db, schema: schema) == ["at"])
        }
    }
}
