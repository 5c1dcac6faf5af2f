import QuarryCore

/// Data sets of the dialects' reference test cases that several test targets check against:
/// the Backendless reference's DS-R and DS-F, and Parse's GameScore, BarbecueSauce and MyClass.
public enum ReferenceData {
    /// DS-R of the Backendless reference: addresses, contacts, phone books (§7 tests 41–55).
    public static let relations = classes(
        (
            "Address",
            [
                record("a1", ["city": "Smallville"]), record("a2", ["city": "Tokyo"]),
                record("a3", ["city": "Dallas"]), record("a4", ["city": "Metropolis"]),
            ]
        ),
        (
            "Contact",
            [
                record("k1", ["name": "Clark", "age": 25, "address": pointer("Address", "a1")]),
                record("k2", ["name": "Lois", "age": 20, "address": pointer("Address", "a4")]),
                record("k3", ["name": "Ken", "age": 35, "address": pointer("Address", "a2")]),
                record("k4", ["name": "Yuki", "age": 19, "address": pointer("Address", "a2")]),
                record("k5", ["name": "Tex", "age": 30, "address": pointer("Address", "a3")]),
                record("k6", ["name": "Nomad", "age": 40]),
            ]
        ),
        (
            "PhoneBook",
            [
                record(
                    "pb1",
                    [
                        "contacts": .array(["k1", "k2", "k3", "k4", "k6"].map { pointer("Contact", $0) }),
                        "owner": pointer("Contact", "k5"),
                    ]),
                record(
                    "pb2",
                    [
                        "contacts": .array(["k3", "k5"].map { pointer("Contact", $0) }),
                        "owner": pointer("Contact", "k1"),
                    ]),
            ]
        ))

    /// DS-F: the Friend class with GeoPoints (§7 tests 61–71), plus Zed without one.
    public static let friends = classes(
        (
            "Friend",
            [
                record(
                    "bob",
                    ["name": "Bob", "coordinates": .geoPoint(GeoPoint(latitude: 30.26715, longitude: -97.74306))]),
                record(
                    "jane",
                    ["name": "Jane", "coordinates": .geoPoint(GeoPoint(latitude: 29.76328, longitude: -95.36327))]),
                record(
                    "fred",
                    ["name": "Fred", "coordinates": .geoPoint(GeoPoint(latitude: 29.42412, longitude: -98.49363))]),
                record("zed", ["name": "Zed"]),
            ]
        ))

    /// Parse's GameScore (dataset GS of the Parse reference).
    public static let gameScores = classes(
        (
            "GameScore",
            [
                record(
                    "g1", ["playerName": "Sean Plott", "score": 1337, "playerAge": 30, "wins": 10, "cheatMode": false]),
                record(
                    "g2",
                    [
                        "playerName": "Dan Stemkoski", "score": 50, "playerAge": 25, "wins": 50, "cheatMode": false,
                        "playerEmail": "dstemkoski@example.com",
                    ]),
                record(
                    "g3",
                    ["playerName": "Michael Yabuti", "score": 200, "playerAge": 17, "wins": 51, "cheatMode": true]),
                record(
                    "g4",
                    ["playerName": "Jonathan Walsh", "score": 50, "playerAge": 19, "wins": 49, "cheatMode": false]),
                record("g5", ["playerName": "Dario Wunsch", "score": 75, "wins": 150, "cheatMode": false]),
                record("g6", ["playerName": "Shawn Simon", "playerAge": 40, "wins": 151, "cheatMode": false]),
                record(
                    "g7", ["playerName": "michael yabuti", "score": 10, "playerAge": 18, "wins": 4, "cheatMode": false]),
                record(
                    "g8", ["playerName": "Big Michael", "score": 300, "playerAge": 18, "wins": 5, "cheatMode": false]),
            ]
        ))

    /// Parse's BarbecueSauce examples.
    public static let sauces = classes(
        (
            "BarbecueSauce",
            [
                record("b1", ["name": "Big Daddy's"]), record("b2", ["name": "Big Daddy's BBQ"]),
                record("b3", ["name": "big daddy's"]), record("b4", ["name": "BBQ Sauce: Big Daddy's"]),
            ]
        ))

    /// Parse's array examples (class MyClass).
    public static let arrays = classes(
        (
            "MyClass",
            [
                record("a1", ["arrayKey": [1, 2, 3]]), record("a2", ["arrayKey": [2, 3, 4, 5]]),
                record("a3", ["arrayKey": [4, 5]]),
                record("a4", ["arrayKey": [2]]), record("a5"),
            ]
        ))

    private static func classes(_ classes: (String, [Record])...) -> Database {
        Database(classes.map { ClassData(name: $0.0, records: $0.1) })
    }

    private static func record(_ id: String, _ fields: KeyValuePairs<String, Value> = [:]) -> Record {
        Record(objectId: id, fields: fields.map { ($0.key, $0.value) })
    }

    private static func pointer(_ className: String, _ id: String) -> Value {
        .pointer(Pointer(className: className, objectId: id))
    }
}
