import QuarryCore
import Testing
import QuarryTestSupport

@testable import QuarryEngine

@Suite struct QueryRunnerTests {
    // DS-SORT: r1 Bob/30, r2 Bob/45, r3 Alice/25, r4 Carl/25.
    let contacts = database(
        (
            "Contact",
            [
                record("r1", ["name": "Bob", "age": 30]), record("r2", ["name": "Bob", "age": 45]),
                record("r3", ["name": "Alice", "age": 25]), record("r4", ["name": "Carl", "age": 25]),
            ]
        ))

    @Test func sortByKeysIsStable() throws {
        // §7 tests 72–74.
        #expect(
            try ids(contacts, Query(className: "Contact", order: [.key("name", .ascending), .key("age", .descending)]))
                == ["r3", "r2", "r1", "r4"])
        #expect(
            try ids(contacts, Query(className: "Contact", order: [.key("age", .descending), .key("name", .ascending)]))
                == ["r2", "r1", "r3", "r4"])
        // Ties keep insertion order, both ways.
        #expect(
            try ids(contacts, Query(className: "Contact", order: [.key("name", .ascending)])) == [
                "r3", "r1", "r2", "r4",
            ])
        #expect(
            try ids(contacts, Query(className: "Contact", order: [.key("age", .descending)])) == [
                "r2", "r1", "r3", "r4",
            ])
    }

    @Test func parseOrderingWithTieBreaker() throws {
        // Parse T14 / T15.
        let scored = Filter.leaf(.isNull(.key("score")), negated: true, .document)
        #expect(
            try ids(
                ReferenceData.gameScores,
                Query(
                    className: "GameScore", predicate: scored,
                    order: [.key("score", .ascending), .key("playerName", .ascending)]))
                == ["g7", "g2", "g4", "g5", "g3", "g8", "g1"])
        #expect(
            try ids(
                ReferenceData.gameScores,
                Query(
                    className: "GameScore", predicate: scored,
                    order: [.key("score", .descending), .key("playerName", .descending)]))
                == ["g1", "g8", "g3", "g5", "g4", "g2", "g7"])
    }

    @Test func missingAndNullSortFirstAscendingAcrossTypes() throws {
        let db = database(
            (
                "M",
                [
                    record("s", ["v": "x"]), record("n", ["v": nil]), record("i", ["v": 2]),
                    record("m"), record("d", ["v": .date(0)]), record("b", ["v": true]), record("f", ["v": 1.5]),
                ]
            ))
        #expect(
            try ids(db, Query(className: "M", order: [.key("v", .ascending)])) == ["n", "m", "f", "i", "s", "b", "d"])
        #expect(
            try ids(db, Query(className: "M", order: [.key("v", .descending)])) == ["d", "b", "s", "i", "f", "n", "m"])
    }

    @Test func skipAndLimit() throws {
        let bulk = database(("Bulk", (0..<150).map { record("b\($0)", ["n": .int(Int64($0))]) }))
        let byN: [SortKey] = [.key("n", .ascending)]
        func run(_ skip: Int?, _ limit: Int?, _ profile: Profile) throws -> [String] {
            try ids(bulk, Query(className: "Bulk", order: byN, skip: skip, limit: limit, profile: profile))
        }
        #expect(try run(nil, nil, .exact).count == 150)
        // Parse T17, T19: the default limit of 100 applies after skip.
        #expect(try run(nil, nil, .parse).count == 100)
        #expect(try run(10, nil, .parse) == (10..<110).map { "b\($0)" })
        #expect(try run(10, 10, .parse) == (10..<20).map { "b\($0)" })
        #expect(try run(140, 100, .exact) == (140..<150).map { "b\($0)" })
        #expect(try run(500, nil, .exact) == [])
        #expect(try run(0, 0, .exact) == [])
        // A limit above the profile's maximum is capped (front-ends that reject do so earlier).
        #expect(try run(nil, 120, .backendless).count == 100)
        #expect(try run(nil, nil, .backendless).count == 10)
    }

    @Test func backendlessPaging() throws {
        // §7 test 75: eleven restaurants, pages of the default size 10 in insertion order.
        let names = [
            "Artin's Grill", "Istanbul", "Magic Wok", "Olive Garden", "Platia", "Cantina Loredo", "Wendy's",
            "Chili's", "Kenny's Burgers", "Tony Roma's", "McDonnald's",
        ]
        let db = database(
            ("Restaurant", names.enumerated().map { record("r\($0.offset)", ["name": .string($0.element)]) }))
        func page(_ offset: Int) throws -> [String] {
            try ReferenceEvaluator(database: db).run(
                Query(className: "Restaurant", skip: offset, profile: .backendless)
            )
            .records.compactMap { if case .string(let s)? = $0["name"] { return s } else { return nil } }
        }
        #expect(try page(0) == Array(names.prefix(10)))
        #expect(try page(10) == ["McDonnald's"])
        #expect(try page(20) == [])
    }

    @Test func countIgnoresSkipAndLimit() throws {
        // §7 tests 22, 23, 79.
        let orders = database(
            (
                "Order",
                [50, 100, 100.5, 250].enumerated().map {
                    record("o\($0.offset + 1)", ["orderAmount": .double($0.element)])
                }
                    + [record("o5", ["orderAmount": nil])]
            ))
        let q = Query(
            className: "Order", predicate: compare("orderAmount", .gt, 100, .sql), skip: 1, limit: 1, count: true)
        #expect(try ReferenceEvaluator(database: orders).run(q) == .count(2))
        #expect(
            try ReferenceEvaluator(database: orders).run(Query(className: "Order", count: true, profile: .backendless))
                == .count(5))
        #expect(try ReferenceEvaluator(database: orders).run(q).records == [])
    }

    @Test func keysProjection() throws {
        // Parse T22: selected keys plus objectId, createdAt and updatedAt.
        let db = database(
            (
                "GameScore",
                [
                    record(
                        "g1",
                        [
                            "createdAt": .date(1), "playerName": "Sean Plott", "score": 1337,
                            "cheatMode": false, "updatedAt": .date(2), "wins": 10,
                        ])
                ]
            ))
        let r = try ReferenceEvaluator(database: db).run(Query(className: "GameScore", keys: ["playerName", "score"]))
            .records
        #expect(
            r == [
                record("g1", ["createdAt": .date(1), "playerName": "Sean Plott", "score": 1337, "updatedAt": .date(2)])
            ])
        let e = try ReferenceEvaluator(database: db).run(
            Query(className: "GameScore", excludeKeys: ["cheatMode", "wins"])
        ).records
        #expect(
            e == [
                record("g1", ["createdAt": .date(1), "playerName": "Sean Plott", "score": 1337, "updatedAt": .date(2)])
            ])
        #expect(e.first?.fieldOrder == ["createdAt", "playerName", "score", "updatedAt"])
    }

    // Parse's PC dataset: posts, comments, an author.
    let posts = database(
        (
            "Post",
            [
                record("p1", ["title": "I'm Hungry", "image": .file(FileRef(name: "a.png"))]),
                record("p2", ["title": "No pic"]),
                record(
                    "1zEcyElZ80",
                    ["title": "Photo", "image": .file(FileRef(name: "b.png")), "author": pointer("_User", "Au1")]),
            ]
        ),
        ("_User", [record("Au1", ["username": "ann", "email": "ann@example.com"])]),
        (
            "Comment",
            [
                record("c1", ["post": pointer("Post", "p1"), "createdAt": .date(1)]),
                record("c2", ["post": pointer("Post", "p1"), "createdAt": .date(2)]),
                record("c3", ["post": pointer("Post", "p2"), "createdAt": .date(3)]),
                record("c4", ["post": pointer("Post", "1zEcyElZ80"), "createdAt": .date(4)]),
                record("c5", ["createdAt": .date(5)]),
                record("c6", ["post": pointer("Post", "deleted"), "createdAt": .date(0)]),
                record("c7", ["posts": [pointer("Post", "p2"), pointer("Post", "p1")], "createdAt": .date(0)]),
            ]
        ))

    private func embedded(_ className: String, _ id: String, _ fields: [String: Value]) -> Value {
        var all = fields
        all["__type"] = "Object"
        all["className"] = .string(className)
        all["objectId"] = .string(id)
        return .object(all)
    }

    @Test func includeEmbedsPointedObjects() throws {
        // Parse T36: newest first, two results, posts embedded.
        let q = Query(className: "Comment", order: [.key("createdAt", .descending)], limit: 2, includes: ["post"])
        let rows = try ReferenceEvaluator(database: posts).run(q).records
        #expect(rows.map(\.objectId) == ["c5", "c4"])
        #expect(rows[0]["post"] == nil)
        #expect(
            rows[1]["post"]
                == embedded(
                    "Post", "1zEcyElZ80",
                    [
                        "title": "Photo", "image": .file(FileRef(name: "b.png")),
                        "author": pointer("_User", "Au1"),
                    ]))
    }

    @Test func nestedIncludeAndKeys() throws {
        // Parse T37: include post.author embeds both levels.
        let q = Query(
            className: "Comment", predicate: compare("post", .eq, pointer("Post", "1zEcyElZ80"), .document),
            includes: ["post.author"])
        let row = try #require(try ReferenceEvaluator(database: posts).run(q).records.first)
        let author = embedded("_User", "Au1", ["username": "ann", "email": "ann@example.com"])
        #expect(
            row["post"]
                == embedded(
                    "Post", "1zEcyElZ80", ["title": "Photo", "image": .file(FileRef(name: "b.png")), "author": author]))
        // keys with a dot path restricts the embedded object; excludeKeys reaches into it too.
        var narrowed = q
        narrowed.keys = ["post.title", "post.author.username"]
        let n = try #require(try ReferenceEvaluator(database: posts).run(narrowed).records.first)
        #expect(n.fieldOrder == ["post", "createdAt"])
        #expect(
            n["post"]
                == embedded(
                    "Post", "1zEcyElZ80", ["title": "Photo", "author": embedded("_User", "Au1", ["username": "ann"])]))
        var excluded = q
        excluded.excludeKeys = ["post.image", "post.author.email", "createdAt"]
        let x = try #require(try ReferenceEvaluator(database: posts).run(excluded).records.first)
        #expect(x.fieldOrder == ["post"])
        #expect(
            x["post"]
                == embedded(
                    "Post", "1zEcyElZ80", ["title": "Photo", "author": embedded("_User", "Au1", ["username": "ann"])]))
    }

    @Test func includeOverArraysKeepsOrderAndLeavesDanglingPointers() throws {
        let q = Query(
            className: "Comment", predicate: .leaf(.isNull(.key("createdAt")), negated: true, .document),
            order: [.key("createdAt", .ascending)], limit: 2, includes: ["post", "posts"])
        let rows = try ReferenceEvaluator(database: posts).run(q).records
        #expect(rows.map(\.objectId) == ["c6", "c7"])
        #expect(rows[0]["post"] == pointer("Post", "deleted"))
        #expect(
            rows[1]["posts"]
                == .array([
                    embedded("Post", "p2", ["title": "No pic"]),
                    embedded("Post", "p1", ["title": "I'm Hungry", "image": .file(FileRef(name: "a.png"))]),
                ]))
    }

    @Test func withoutIncludeAPointerStaysAStub() throws {
        // Parse T38.
        let q = Query(className: "Comment", predicate: compare("objectId", .eq, "c4", .document))
        #expect(try ReferenceEvaluator(database: posts).run(q).records.first?["post"] == pointer("Post", "1zEcyElZ80"))
    }

    @Test func matchesASingleObjectNotInTheDatabase() throws {
        let evaluator = ReferenceEvaluator(database: posts)
        let draft = record("new", ["post": pointer("Post", "1zEcyElZ80"), "text": "nice"])
        #expect(
            try evaluator.matches(draft, className: "Comment", predicate: compare("post.title", .eq, "Photo", .sql)))
        #expect(try !evaluator.matches(draft, className: "Comment", predicate: compare("text", .eq, "meh", .sql)))
        let withImage = Query(className: "Post", predicate: .leaf(.isNull(.key("image")), negated: true, .document))
        #expect(
            try evaluator.matches(draft, className: "Comment", predicate: .leaf(.inQuery("post", withImage), .document))
        )
        // The class of a single object need not exist.
        #expect(try evaluator.matches(draft, className: "Draft", predicate: .constant(true)))
    }
}
