import QuarryCore
import Testing
import QuarryTestSupport

@testable import QuarryEngine

/// `Parent[relation].column = value` as the SQL front-end lowers it: the child's objectId is
/// among the values `relation.objectId` reaches in the parents that satisfy the condition.
private func inverted(_ parent: String, _ relation: String, objectId: String) -> Filter {
    .leaf(
        .select(
            "objectId", Query(className: parent, predicate: compare("objectId", .eq, .string(objectId), .sql)),
            innerKey: FieldPath([relation, "objectId"])), .sql)
}

@Suite struct KeyPathTests {
    let resolver = KeyPathResolver(source: ReferenceData.relations)

    private func phoneBook(_ id: String) throws -> Record {
        try #require(ReferenceData.relations["PhoneBook"]?.record(id))
    }

    @Test func pointersAreFollowed() throws {
        let k3 = try #require(ReferenceData.relations["Contact"]?.record("k3"))
        #expect(resolver.resolve("address.city", in: k3) == .value("Tokyo"))
        #expect(resolver.resolve("address.zip", in: k3) == .missing)
        #expect(resolver.resolve("nickname", in: k3) == .missing)
        #expect(resolver.resolve("objectId", in: k3) == .value("k3"))
    }

    @Test func toManyPathsMapAndFlatten() throws {
        #expect(resolver.resolve("contacts.age", in: try phoneBook("pb1")) == .value([25, 20, 35, 19, 40]))
        // Nomad (k6) has no address: he drops out of the mapped list.
        #expect(
            resolver.resolve("contacts.address.city", in: try phoneBook("pb1"))
                == .value(["Smallville", "Metropolis", "Tokyo", "Tokyo"]))
        #expect(resolver.resolve("owner.address.city", in: try phoneBook("pb2")) == .value("Smallville"))
    }

    @Test func arraysOfArraysFlattenOneLevelPerCrossing() {
        let db = database(
            (
                "Shelf",
                [
                    record(
                        "s",
                        [
                            "books": [
                                .object(["tags": ["a", "b"]]), .object(["tags": ["c"]]), .object(["title": "untagged"]),
                            ]
                        ])
                ]
            ))
        let r = KeyPathResolver(source: db)
        #expect(r.resolve("books.tags", in: db["Shelf"]!.records[0]) == .value(["a", "b", "c"]))
    }

    /// A pointer is its identity whether its object is loaded or not; only a path through it
    /// dereferences, and `objectId` is the pointer's own.
    @Test func danglingPointersAreValues() {
        let db = database(
            (
                "A",
                [
                    record(
                        "x",
                        [
                            "name": "X", "p": pointer("A", "gone"),
                            "ps": [pointer("A", "gone"), pointer("A", "x")],
                        ])
                ]
            ))
        let r = KeyPathResolver(source: db)
        let x = db["A"]!.records[0]
        #expect(r.resolve("p", in: x) == .value(pointer("A", "gone")))
        #expect(r.resolve("p.name", in: x) == .missing)
        #expect(r.resolve("p.objectId", in: x) == .value("gone"))
        #expect(r.resolve("ps", in: x) == .value([pointer("A", "gone"), pointer("A", "x")]))
        #expect(r.resolve("ps.name", in: x) == .value(["X"]))
        #expect(r.resolve("ps.objectId", in: x) == .value(["gone", "x"]))
    }

    @Test func geoPointsExposeLatitudeAndLongitude() throws {
        #expect(try ids(ReferenceData.friends, "Friend", compare("coordinates.latitude", .gt, 30, .sql)) == ["bob"])
        #expect(
            try ids(ReferenceData.friends, "Friend", compare("coordinates.longitude", .lt, -98, .predicate)) == ["fred"]
        )
    }

    @Test func relationValuesAreCollectionsOfPointers() {
        let db = database(
            ("Book", [record("b", ["authors": .relation(className: "Author", objectIds: ["a1", "zz"])])]),
            ("Author", [record("a1", ["name": "Ann"])]))
        let r = KeyPathResolver(source: db)
        #expect(r.resolve("authors.name", in: db["Book"]!.records[0]) == .value(["Ann"]))
        #expect(
            r.collection(.value(.relation(className: "Author", objectIds: ["a1", "zz"])))
                == [pointer("Author", "a1"), pointer("Author", "zz")])
    }
}

@Suite struct RelationQueryTests {
    let db = ReferenceData.relations

    @Test func forwardDotPath() throws {
        // §7 test 49, and 55 (a missing related object is null).
        #expect(try ids(db, "Contact", compare("address.city", .eq, "Tokyo", .sql)) == ["k3", "k4"])
        #expect(try ids(db, "Contact", .leaf(.isNull(.key("address.city")), .sql)) == ["k6"])
        #expect(
            try ids(
                db, "Contact",
                .leaf(
                    .string(
                        .key("address.city"), .like(.sql(escape: nil)), .literal("%a%"),
                        .caseInsensitive), .sql)) == ["k1", "k5"])
    }

    /// A pointer whose object is not loaded (a backend's export leaves `_User` or deleted
    /// objects out) is still a value: equal to itself, not null, present for `$exists`; only a
    /// path through it reaches nothing.
    @Test func danglingPointerIsAValue() throws {
        var db = self.db
        db.insert(record("k7", ["name": "Ghost", "age": 50, "address": pointer("Address", "a99")]), into: "Contact")
        for s in LeafSemantics.allCases {
            #expect(try ids(db, "Contact", .leaf(.isNull(.key("address")), s)) == ["k6"])
            #expect(
                try ids(db, "Contact", .leaf(.isNull(.key("address")), negated: true, s)) == [
                    "k1", "k2", "k3", "k4", "k5", "k7",
                ])
            #expect(try ids(db, "Contact", compare("address", .eq, pointer("Address", "a99"), s)) == ["k7"])
            #expect(try ids(db, "Contact", compare("address.objectId", .eq, "a99", s)) == ["k7"])
            #expect(try ids(db, "Contact", .leaf(.isNull(.key("address.city")), s)) == ["k6", "k7"])
        }
        #expect(try ids(db, "Contact", compare("address.city", .eq, nil, .predicate)) == ["k6", "k7"])
        #expect(try ids(db, "Contact", compare("address.city", .ne, "Tokyo", .sql)) == ["k1", "k2", "k5"])
        // Parse accepts a bare objectId against a pointer field, in `$in` and `$nin` too.
        let bare = Expr.list([.literal("a99"), .literal("a3")])
        #expect(try ids(db, "Contact", .leaf(.inCollection(.key("address"), bare, []), .document)) == ["k5", "k7"])
        #expect(
            try ids(db, "Contact", .leaf(.inCollection(.key("address"), bare, []), negated: true, .document))
                == ["k1", "k2", "k3", "k4", "k6"])
        // Ordering compares the pointer itself: a dangling pointer sorts among the pointers.
        let byAddress = Query(className: "Contact", predicate: .constant(true), order: [.key("address", .descending)])
        #expect(try ids(db, byAddress) == ["k7", "k2", "k5", "k3", "k4", "k1", "k6"])
    }

    @Test func oneToManyIsExistentialUnderSQL() throws {
        #expect(try ids(db, "PhoneBook", compare("contacts.age", .gt, 30, .sql)) == ["pb1", "pb2"])
        #expect(try ids(db, "PhoneBook", compare("contacts.age", .gt, 36, .sql)) == ["pb1"])
        #expect(try ids(db, "PhoneBook", compare("contacts.address.city", .eq, "Dallas", .sql)) == ["pb2"])
        // "Some contact is not 35", not "no contact is 35".
        #expect(try ids(db, "PhoneBook", compare("contacts.age", .eq, 35, .sql, negated: true)) == ["pb1", "pb2"])
    }

    @Test func predicateSemanticsComparesTheCollectionUnlessQuantified() throws {
        #expect(try ids(db, "PhoneBook", compare("contacts.age", .eq, 25, .predicate)) == [])
        let anyOver36 = Filter.leaf(
            .quantified(
                .any, .key("contacts"), variable: "c",
                .leaf(.compare(.member(.variable("c"), "age"), .gt, .literal(36), []), .predicate)),
            .predicate)
        #expect(try ids(db, "PhoneBook", anyOver36) == ["pb1"])
        let allOver18 = Filter.leaf(
            .quantified(
                .all, .key("contacts.age"), variable: "a",
                .leaf(.compare(.variable("a"), .gt, .literal(18), []), .predicate)),
            .predicate)
        #expect(try ids(db, "PhoneBook", allOver18) == ["pb1", "pb2"])
    }

    // §7 tests 41–51: the inverted relation, queried on the child class.
    @Test(
        arguments: [
            (
                41,
                Filter.and([
                    inverted("PhoneBook", "contacts", objectId: "pb1"),
                    compare("address.city", .eq, "Smallville", .sql),
                ]), ["k1"]
            ),
            (
                42,
                .and([
                    inverted("PhoneBook", "contacts", objectId: "pb1"),
                    .leaf(
                        .string(.key("address.city"), .like(.sql(escape: nil)), .literal("%a%"), .caseInsensitive), .sql
                    ),
                ]), ["k1"]
            ),
            (
                43, .and([inverted("PhoneBook", "contacts", objectId: "pb1"), compare("age", .gt, 20, .sql)]),
                ["k1", "k3", "k6"]
            ),
            (
                44,
                .and([
                    inverted("PhoneBook", "contacts", objectId: "pb1"), compare("age", .ge, 21, .sql),
                    compare("age", .le, 30, .sql),
                ]), ["k1"]
            ),
            (
                45,
                .and([
                    inverted("PhoneBook", "contacts", objectId: "pb1"), compare("age", .gt, 20, .sql),
                    compare("address.city", .eq, "Tokyo", .sql),
                ]), ["k3"]
            ),
            (46, inverted("PhoneBook", "contacts", objectId: "pb2"), ["k3", "k5"]),
            (47, inverted("PhoneBook", "owner", objectId: "pb2"), ["k1"]),
            (
                48,
                .and([inverted("PhoneBook", "contacts", objectId: "pb1"), compare("address.city", .eq, "Dallas", .sql)]
                ), []
            ),
            (
                50,
                .or([
                    inverted("PhoneBook", "contacts", objectId: "pb1"),
                    inverted("PhoneBook", "contacts", objectId: "pb2"),
                ]),
                ["k1", "k2", "k3", "k4", "k5", "k6"]
            ),
        ] as [(Int, Filter, [String])])
    func invertedRelation(test: Int, predicate: Filter, expected: [String]) throws {
        #expect(try ids(db, "Contact", predicate) == expected, "§7 test \(test)")
    }

    @Test func relatedObjectCount() throws {
        // §7 test 52 on DS-PA.
        let pa = database(
            ("Address", ["ad1", "ad2", "ad3", "ad4"].map { record($0) }),
            (
                "Person",
                [
                    record("p1", ["address": .array(["ad1", "ad2", "ad3"].map { pointer("Address", $0) })]),
                    record("p2", ["address": [pointer("Address", "ad3")]]),
                    record("p3", ["address": []]),
                ]
            ))
        for (parent, count) in [("p1", 3), ("p2", 1), ("p3", 0), ("XXXX-XXXX-XXXX-XXXX", 0)] {
            let q = Query(className: "Address", predicate: inverted("Person", "address", objectId: parent), count: true)
            #expect(try ReferenceEvaluator(database: pa).run(q) == .count(count), "\(parent)")
        }
    }

    @Test func inQuery() throws {
        let tokyo = Query(className: "Address", predicate: compare("city", .eq, "Tokyo", .document))
        #expect(try ids(db, "Contact", .leaf(.inQuery("address", tokyo), .document)) == ["k3", "k4"])
        // $notInQuery matches a missing pointer; the SQL rule does not.
        #expect(
            try ids(db, "Contact", .leaf(.inQuery("address", tokyo), negated: true, .document)) == [
                "k1", "k2", "k5", "k6",
            ])
        #expect(try ids(db, "Contact", .leaf(.inQuery("address", tokyo), negated: true, .sql)) == ["k1", "k2", "k5"])
        // An array of pointers matches when any element is among the results.
        let teen = Query(className: "Contact", predicate: compare("age", .lt, 20, .document))
        #expect(try ids(db, "PhoneBook", .leaf(.inQuery("contacts", teen), .document)) == ["pb1"])
        #expect(try ids(db, "PhoneBook", .leaf(.inQuery("contacts", teen), .predicate)) == ["pb1"])
    }

    @Test func relatedTo() throws {
        let books = database(
            (
                "Book",
                [
                    record("bk1", ["authors": .relation(className: "Author", objectIds: ["A1", "A2", "A3"])]),
                    record("bk2", ["authors": .relation(className: "Author", objectIds: ["A2"])]),
                ]
            ),
            ("Author", ["A1", "A2", "A3", "A4"].map { record($0) }))
        let bk1 = Pointer(className: "Book", objectId: "bk1")
        #expect(try ids(books, "Author", .leaf(.relatedTo(bk1, key: "authors"), .document)) == ["A1", "A2", "A3"])
        #expect(try ids(books, "Author", .leaf(.relatedTo(bk1, key: "authors"), negated: true, .document)) == ["A4"])
        #expect(
            try ids(
                books, "Author",
                .leaf(.relatedTo(Pointer(className: "Book", objectId: "none"), key: "authors"), .document)) == [])
        // Parse T50: equality with a relation field means membership.
        #expect(try ids(books, "Book", compare("authors", .eq, pointer("Author", "A2"), .document)) == ["bk1", "bk2"])
        #expect(try ids(books, "Book", compare("authors", .eq, pointer("Author", "A1"), .document)) == ["bk1"])
        // An array of pointers works as a relation too.
        let pb2 = Pointer(className: "PhoneBook", objectId: "pb2")
        #expect(try ids(db, "Contact", .leaf(.relatedTo(pb2, key: "contacts"), .document)) == ["k3", "k5"])
        #expect(try ids(db, "Contact", .leaf(.relatedTo(pb2, key: "owner"), .document)) == ["k1"])
    }

    @Test func selectMatchesKeyInQuery() throws {
        // Parse T40 / T41.
        let teams = database(
            (
                "Team",
                [
                    record("t1", ["city": "San Francisco", "winPct": 0.6]),
                    record("t2", ["city": "Oakland", "winPct": 0.4]),
                    record("t3", ["city": "Boston", "winPct": 0.55]),
                ]
            ),
            (
                "_User",
                [
                    record("u1", ["hometown": "San Francisco"]), record("u2", ["hometown": "Oakland"]),
                    record("u3", ["hometown": "Boston"]), record("u4", ["hometown": "Denver"]),
                ]
            ))
        let winning = Query(className: "Team", predicate: compare("winPct", .gt, 0.5, .document))
        let select = Condition.select("hometown", winning, innerKey: "city")
        #expect(try ids(teams, "_User", .leaf(select, .document)) == ["u1", "u3"])
        #expect(try ids(teams, "_User", .leaf(select, negated: true, .document)) == ["u2", "u4"])
    }

    @Test func pointerEquality() throws {
        // Parse T32/T33: by className and objectId; a plain objectId string equals the pointer.
        let pc = database(
            ("Post", [record("p1"), record("1zEcyElZ80")]),
            (
                "Comment",
                [
                    record("c1", ["post": pointer("Post", "p1")]),
                    record("c4", ["post": pointer("Post", "1zEcyElZ80")]),
                    record("c5"),
                ]
            ))
        #expect(try ids(pc, "Comment", compare("post", .eq, pointer("Post", "1zEcyElZ80"), .document)) == ["c4"])
        #expect(try ids(pc, "Comment", compare("post", .eq, pointer("Other", "1zEcyElZ80"), .document)) == [])
        #expect(try ids(pc, "Comment", compare("post", .eq, "1zEcyElZ80", .document)) == ["c4"])
        #expect(try ids(pc, "Comment", compare("post", .eq, "1zEcyElZ80", .predicate)) == [])
        // Parse T46/T47: a pointer inside an array of pointers.
        let w = database(
            ("Weapon", ["scimitar", "plasmaRifle", "grenade", "bunnyRabbit"].map { record($0) }),
            (
                "_User",
                [
                    record(
                        "uA",
                        [
                            "weaponsList": .array(
                                ["scimitar", "plasmaRifle", "grenade", "bunnyRabbit"].map { pointer("Weapon", $0) })
                        ]),
                    record("uB", ["weaponsList": [pointer("Weapon", "grenade")]]), record("uC", ["weaponsList": []]),
                ]
            ))
        #expect(try ids(w, "_User", compare("weaponsList", .eq, pointer("Weapon", "scimitar"), .document)) == ["uA"])
        let list = Expr.list([.literal(pointer("Weapon", "scimitar")), .literal(pointer("Weapon", "grenade"))])
        #expect(try ids(w, "_User", .leaf(.inCollection(.key("weaponsList"), list, []), .document)) == ["uA", "uB"])
    }

    @Test func selfIsTheEvaluatedObject() throws {
        #expect(
            try ids(
                db, "Contact",
                .leaf(.compare(.evaluatedObject, .eq, .literal(pointer("Contact", "k2")), []), .predicate)) == ["k2"])
        #expect(
            try ids(
                db, "Contact",
                .leaf(
                    .compare(.member(.evaluatedObject, "address.city"), .eq, .literal("Dallas"), []),
                    .predicate)) == ["k5"])
        // SELF inside a quantifier stays the outer object; the element is the variable.
        let ownerListed = Filter.leaf(
            .quantified(
                .any, .key("contacts"), variable: "c",
                .leaf(.compare(.variable("c"), .eq, .member(.evaluatedObject, "owner"), []), .predicate)),
            .predicate)
        var db = self.db
        db.insert(
            record("pb3", ["contacts": [pointer("Contact", "k1")], "owner": pointer("Contact", "k1")]),
            into: "PhoneBook")
        #expect(try ids(db, "PhoneBook", ownerListed) == ["pb3"])
    }

    @Test func variablesAndMembers() throws {
        let vars: [String: Value] = ["owner": pointer("Contact", "k5"), "cities": ["Tokyo", "Dallas"]]
        #expect(
            try ids(
                db, "PhoneBook",
                .leaf(.compare(.member(.variable("owner"), "address.city"), .eq, .literal("Dallas"), []), .sql),
                variables: vars) == ["pb1", "pb2"])
        #expect(
            try ids(
                db, "Contact", .leaf(.inCollection(.key("address.city"), .variable("cities"), []), .sql),
                variables: vars) == ["k3", "k4", "k5"])
    }
}
