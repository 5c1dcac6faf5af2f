import QuarryCore

@testable import QuarryEngine

// Small builders so that test tables read like the queries they check.

func record(_ id: String, _ fields: KeyValuePairs<String, Value> = [:]) -> Record {
    Record(objectId: id, fields: fields.map { ($0.key, $0.value) })
}

func database(_ classes: (String, [Record])...) -> Database {
    Database(classes.map { ClassData(name: $0.0, records: $0.1) })
}

func pointer(_ className: String, _ id: String) -> Value { .pointer(Pointer(className: className, objectId: id)) }

func key(_ path: FieldPath) -> Expr { .key(path) }
func lit(_ v: Value) -> Expr { .literal(v) }

func compare(_ path: FieldPath, _ op: ComparisonOperator, _ v: Value, _ semantics: LeafSemantics,
             negated: Bool = false, _ options: StringOptions = []) -> Filter {
    .leaf(.compare(.key(path), op, .literal(v), options), negated: negated, semantics)
}

/// The objectIds a query returns, in order.
func ids(_ db: Database, _ query: Query, variables: [String: Value] = [:], limits: Limits = .default,
         now: Int64 = 0) throws -> [String] {
    try ReferenceEvaluator(database: db, limits: limits, variables: variables, now: { now }).run(query).objectIds
}

func ids(_ db: Database, _ className: String, _ predicate: Filter, variables: [String: Value] = [:],
         limits: Limits = .default, now: Int64 = 0) throws -> [String] {
    try ids(db, Query(className: className, predicate: predicate), variables: variables, limits: limits, now: now)
}

/// The diagnostic code a throwing call fails with, or nil if it does not fail.
func errorCode(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let d as Diagnostic {
        return d.code
    } catch {
        return "not a Diagnostic: \(error)"
    }
}

enum Datasets {
    /// DS-R of the Backendless reference: addresses, contacts, phone books (§7 tests 41–55).
    static let relations = database(
        ("Address", [
            record("a1", ["city": "Smallville"]), record("a2", ["city": "Tokyo"]),
            record("a3", ["city": "Dallas"]), record("a4", ["city": "Metropolis"]),
        ]),
        ("Contact", [
            record("k1", ["name": "Clark", "age": 25, "address": pointer("Address", "a1")]),
            record("k2", ["name": "Lois", "age": 20, "address": pointer("Address", "a4")]),
            record("k3", ["name": "Ken", "age": 35, "address": pointer("Address", "a2")]),
            record("k4", ["name": "Yuki", "age": 19, "address": pointer("Address", "a2")]),
            record("k5", ["name": "Tex", "age": 30, "address": pointer("Address", "a3")]),
            record("k6", ["name": "Nomad", "age": 40]),
        ]),
        ("PhoneBook", [
            record("pb1", [
                "contacts": .array(["k1", "k2", "k3", "k4", "k6"].map { pointer("Contact", $0) }),
                "owner": pointer("Contact", "k5"),
            ]),
            record("pb2", ["contacts": .array(["k3", "k5"].map { pointer("Contact", $0) }),
                           "owner": pointer("Contact", "k1")]),
        ]))

    /// DS-F: the Friend class with GeoPoints (§7 tests 61–71), plus Zed without one.
    static let friends = database(
        ("Friend", [
            record("bob", ["name": "Bob", "coordinates": .geoPoint(GeoPoint(latitude: 30.26715, longitude: -97.74306))]),
            record("jane", ["name": "Jane", "coordinates": .geoPoint(GeoPoint(latitude: 29.76328, longitude: -95.36327))]),
            record("fred", ["name": "Fred", "coordinates": .geoPoint(GeoPoint(latitude: 29.42412, longitude: -98.49363))]),
            record("zed", ["name": "Zed"]),
        ]))

    /// Parse's GameScore (dataset GS of the Parse reference).
    static let gameScores = database(
        ("GameScore", [
            record("g1", ["playerName": "Sean Plott", "score": 1337, "playerAge": 30, "wins": 10, "cheatMode": false]),
            record("g2", ["playerName": "Dan Stemkoski", "score": 50, "playerAge": 25, "wins": 50, "cheatMode": false,
                          "playerEmail": "dstemkoski@example.com"]),
            record("g3", ["playerName": "Michael Yabuti", "score": 200, "playerAge": 17, "wins": 51, "cheatMode": true]),
            record("g4", ["playerName": "Jonathan Walsh", "score": 50, "playerAge": 19, "wins": 49, "cheatMode": false]),
            record("g5", ["playerName": "Dario Wunsch", "score": 75, "wins": 150, "cheatMode": false]),
            record("g6", ["playerName": "Shawn Simon", "playerAge": 40, "wins": 151, "cheatMode": false]),
            record("g7", ["playerName": "michael yabuti", "score": 10, "playerAge": 18, "wins": 4, "cheatMode": false]),
            record("g8", ["playerName": "Big Michael", "score": 300, "playerAge": 18, "wins": 5, "cheatMode": false]),
        ]))

    /// One class covering null, missing, arrays and mixed types for the leaf-semantics tables.
    static let semantics = database(
        ("T", [
            record("n1", ["name": "foo", "tags": ["a", "b"], "age": 30]),
            record("n2", ["name": "bar", "tags": ["b"], "age": 20]),
            record("n3", ["name": nil, "tags": [], "age": 30.0]),
            record("n4", [:]),
            record("n5", ["name": "Foo", "tags": ["a", nil], "age": "30"]),
        ]))
}
