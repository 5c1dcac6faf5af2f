import Testing
import QuarryTestSupport
@testable import QuarryParseREST
import Quarry

/// The Parse reference's test cases (seed-parse-queries.md §18) that a query can express,
/// run with the builder on the reference evaluator. Sets are compared as sets unless the case
/// is ordered.
@Suite struct ParseReferenceTests {
    func ids(_ q: QueryBuilder, _ data: Database, profile: Profile = .exact) throws -> [String] {
        try q.find(in: data, profile: profile).map(\.objectId)
    }

    func set(_ q: QueryBuilder, _ data: Database, profile: Profile = .exact) throws -> Set<String> {
        Set(try ids(q, data, profile: profile))
    }

    let gs = QueryBuilder("GameScore")
    let data = ReferenceData.gameScores

    @Test func basicConstraints() throws {
        #expect(try set(gs.where("playerName" == "Dan Stemkoski"), data) == ["g2"])  // T01
        #expect(
            try set(gs.where("playerName" != "Michael Yabuti"), data)
                == ["g1", "g2", "g4", "g5", "g6", "g7", "g8"])  // T03
        #expect(
            // T04
            try set(gs.where("playerName" != "Michael Yabuti", "playerAge" > 18), data) == ["g1", "g2", "g4", "g6"])
        #expect(try set(gs.where("wins" < 50), data) == ["g1", "g4", "g7", "g8"])  // T05
        #expect(try set(gs.where("wins" <= 50), data) == ["g1", "g2", "g4", "g7", "g8"])  // T06
        #expect(try set(gs.where("wins" > 50), data) == ["g3", "g5", "g6"])  // T07
        #expect(try set(gs.where("wins" >= 50), data) == ["g2", "g3", "g5", "g6"])  // T08
        let names: [Value] = ["Jonathan Walsh", "Dario Wunsch", "Shawn Simon"]
        #expect(try set(gs.where(Field("playerName").containedIn(names)), data) == ["g4", "g5", "g6"])  // T10
        // T11
        #expect(try set(gs.where(Field("playerName").notContainedIn(names)), data) == ["g1", "g2", "g3", "g7", "g8"])
        #expect(try set(gs.where(Field("score").exists), data) == ["g1", "g2", "g3", "g4", "g5", "g7", "g8"])  // T12
        #expect(try set(gs.where(Field("score").doesNotExist), data) == ["g6"])  // T13
    }

    @Test func orderingLimitAndSkip() throws {
        let scored = gs.where(Field("score").exists)
        #expect(
            try ids(scored.order(.ascending("score")).addingOrder(.ascending("playerName")), data)
                == ["g7", "g2", "g4", "g5", "g3", "g8", "g1"])  // T14
        #expect(
            try ids(scored.order(.descending("score")).addingOrder(.descending("playerName")), data)
                == ["g1", "g8", "g3", "g5", "g4", "g2", "g7"])  // T15
        #expect(try ids(gs.limit(10), data).count == 8)  // T16
    }

    @Test func defaultAndMaximumLimits() throws {
        let bulk = QueryBuilder("Bulk")
        let b150 = Datasets.bulk(150)
        #expect(try ids(bulk, b150, profile: .parse).count == 100)  // T17
        #expect(try ids(bulk, b150, profile: .exact).count == 150)
        let b1500 = Datasets.bulk(1500)
        #expect(try ids(bulk.limit(1000), b1500, profile: .parse).count == 1000)  // T18
        let rejected = diagnostics { () throws(Diagnostics) in try bulk.limit(1001).find(in: b1500, profile: .parse) }
        #expect(rejected.map(\.parseCode) == [117])
        #expect(try ids(bulk.limit(1001), b1500, profile: .leancloud).count == 1000)
        #expect(try ids(bulk.limit(1001), b1500, profile: .exact).count == 1001)
        // T19: pagination.
        let paged = try ids(bulk.order(.ascending("n")).skip(10), b150, profile: .parse)
        #expect(paged == (10..<110).map { "n\($0)" })
        #expect(
            try ids(bulk.order(.ascending("n")).skip(10).limit(10), b150, profile: .parse) == (10..<20).map { "n\($0)" }
        )
    }

    @Test func firstCountAndSelect() throws {
        #expect(try gs.where("playerEmail" == "dstemkoski@example.com").first(in: data)?.objectId == "g2")  // T20
        #expect(try gs.where("playerEmail" == "nobody@example.com").first(in: data) == nil)
        #expect(try gs.where("playerName" == "Sean Plott").count(in: data) == 1)  // T21
        #expect(try gs.where("playername" == "Sean Plott").count(in: data) == 0)
        let selected = try #require(
            try gs.where("playerName" == "Sean Plott").select("playerName", "score")
                .find(in: data).first)  // T22
        #expect(Set(selected.fields.keys) == ["playerName", "score"])
    }

    @Test func strings() throws {
        #expect(try set(gs.where(Field("playerName").hasPrefix("Michael")), data) == ["g3"])  // T23
        #expect(
            // T24
            try set(gs.where(Field("playerName").matchesRegex("Michael", modifiers: "i")), data) == ["g3", "g7", "g8"])
        #expect(try set(gs.where(Field("playerName").containsString("Michael")), data) == ["g3", "g8"])  // T25
        #expect(try set(gs.where(Field("playerName").matchesRegex("^Michael")), data) == ["g3"])  // T26
        #expect(
            try set(QueryBuilder("BarbecueSauce").where(Field("name").hasPrefix("Big Daddy's")), ReferenceData.sauces)
                == ["b1", "b2"])  // T27
    }

    @Test func arrays() throws {
        let my = QueryBuilder("MyClass")
        #expect(try set(my.where("arrayKey" == 2), ReferenceData.arrays) == ["a1", "a2", "a4"])  // T28
        #expect(try set(my.where(Field("arrayKey").containsAll([2, 3, 4])), ReferenceData.arrays) == ["a2"])  // T29
        // T30
        #expect(try set(my.where(Field("arrayKey").containedIn([1, 5])), ReferenceData.arrays) == ["a1", "a2", "a3"])
        let exact = diagnostics { () throws(Diagnostics) in
            try my.where("arrayKey" == [2, 3]).find(in: ReferenceData.arrays)
        }
        #expect(exact.map(\.parseCode) == [102])  // T31
    }

    @Test func pointersAndInnerQueries() throws {
        let comments = QueryBuilder("Comment")
        let d = Datasets.postsAndComments
        #expect(try set(comments.where("post" == pointer("Post", "p1")), d) == ["c1", "c2"])  // T32
        #expect(try set(comments.where("post" == pointer("Post", "1zEcyElZ80")), d) == ["c4"])  // T33
        let withImages = QueryBuilder("Post").where(Field("image").exists)
        #expect(try set(comments.where(Field("post").matchesQuery(withImages)), d) == ["c1", "c2", "c4"])  // T34
        #expect(try set(comments.where(Field("post").doesNotMatchQuery(withImages)), d) == ["c3", "c5"])  // T35
        // T36: include with order and limit.
        let latest = try comments.order(.descending("createdAt")).limit(2).include("post").find(in: d)
        #expect(latest.map(\.objectId) == ["c5", "c4"])
        guard case .object(let post)? = latest[1]["post"] else {
            Issue.record("c4.post should be the fetched post")
            return
        }
        #expect(post["title"] == "Third")
        #expect(latest[0]["post"] == nil)
        // T37: multi-level include.
        let deep = try comments.where("post" == pointer("Post", "1zEcyElZ80")).include("post.author").find(in: d)
        guard case .object(let p)? = deep.first?["post"], case .object(let author)? = p["author"] else {
            Issue.record("post.author should be included")
            return
        }
        #expect(author["username"] == "au1")
        // T38: without include the pointer stays a stub.
        #expect(
            try comments.where("post" == pointer("Post", "1zEcyElZ80")).find(in: d).first?["post"]
                == pointer("Post", "1zEcyElZ80"))
    }

    @Test func innerQueriesSeeOnlyTheirFirstHundredRowsInParse() throws {
        // T39 / TC-41: the same data, exact against parse.
        let d = Datasets.manyPosts
        let comments = QueryBuilder("Comment")
        let withImages = QueryBuilder("Post").where(Field("image").exists)
        let parse = try ids(comments.where(Field("post").matchesQuery(withImages)).limit(1000), d, profile: .parse)
        #expect(parse.count == 100)
        #expect(Set(parse) == Set((1...100).map { "ca\($0)" }))
        #expect(try ids(comments.where(Field("post").matchesQuery(withImages)), d, profile: .exact).count == 150)
        #expect(
            try ids(
                comments.where(Field("post").matchesQuery(withImages.limit(1000))).limit(1000), d,
                profile: .parse
            ).count == 150)
        // The complement grows by the same amount: doesNotMatchQuery sees 100 posts too.
        #expect(try ids(comments.where(Field("post").doesNotMatchQuery(withImages)), d, profile: .parse).count == 50)
        #expect(try ids(comments.where(Field("post").doesNotMatchQuery(withImages)), d, profile: .exact).isEmpty)
        // matchesKey(inQuery) is truncated alike.
        let byKey = comments.where(Field("post.n").matchesKey("n", in: withImages)).limit(1000)
        #expect(try ids(byKey, d, profile: .leancloud).count == 100)
        #expect(try ids(byKey, d, profile: .exact).count == 150)
    }

    @Test func matchesKeyInQuery() throws {
        let users = QueryBuilder("_User")
        let winning = QueryBuilder("Team").where("winPct" > 0.5)
        #expect(
            // T40
            try set(users.where(Field("hometown").matchesKey("city", in: winning)), Datasets.teams) == ["u1", "u3"])
        #expect(
            try set(users.where(Field("hometown").doesNotMatchKey("city", in: winning)), Datasets.teams) == [
                "u2", "u4",
            ])  // T41
    }

    @Test func compoundQueries() throws {
        let few = QueryBuilder("Player").where("wins" < 5)
        let lots = QueryBuilder("Player").where("wins" > 150)
        let either = QueryBuilder.or(few, lots)
        #expect(try set(either, Datasets.players) == ["p1", "p2"])  // T42
        #expect(try set(either.where("team" == "B"), Datasets.players).isEmpty)  // T43
        #expect(try set(either.where("team" == "A"), Datasets.players) == ["p1", "p2"])
        for shaped in [few.limit(1), few.skip(1), few.order(.ascending("wins")), few.include("team")] {  // T44
            let d = diagnostics { () throws(Diagnostics) in
                try QueryBuilder.or(shaped, lots).find(in: Datasets.players, profile: .parse)
            }
            #expect(d.map(\.code) == ["json.compound-subquery"])
        }
        let geoBranch = QueryBuilder("Player").where(Field("loc").near(geo(0, 0)))
        #expect(
            diagnostics { () throws(Diagnostics) in
                try QueryBuilder.or(geoBranch, lots).find(in: Datasets.players, profile: .parse)
            }.map(\.code) == ["json.compound-geo"])
        #expect(try ids(either.order(.descending("wins")).limit(1), Datasets.players) == ["p1"])  // T45
    }

    @Test func arraysOfPointersAndRelations() throws {
        let users = QueryBuilder("_User")
        // T46
        #expect(try set(users.where("weaponsList" == pointer("Weapon", "scimitar")), Datasets.weapons) == ["uA"])
        #expect(
            try set(
                users.where(
                    Field("weaponsList").containedIn([pointer("Weapon", "scimitar"), pointer("Weapon", "grenade")])),
                Datasets.weapons) == ["uA", "uB"])  // T47
        let included = try users.where("objectId" == "uA").include("weaponsList").find(in: Datasets.weapons)
        // T48: every element is the fetched Weapon, in the stored order.
        var names: [Value] = []
        if case .array(let items)? = included.first?["weaponsList"] {
            for case .object(let weapon) in items { names.append(weapon["name"] ?? .null) }
        }
        #expect(names == ["scimitar", "plasmaRifle", "grenade", "bunnyRabbit"])
        let books = QueryBuilder("Book")
        #expect(try set(books.where("authors" == pointer("Author", "A2")), Datasets.books) == ["bk1", "bk2"])  // T50
        #expect(try set(books.where("authors" == pointer("Author", "A1")), Datasets.books) == ["bk1"])
        #expect(
            try set(
                QueryBuilder("Author").where(.relatedTo(Pointer(className: "Book", objectId: "bk1"), key: "authors")),
                Datasets.books) == ["A1", "A2", "A3"])  // T49
        let follows = QueryBuilder("Follow")
        #expect(try set(follows.where("from" == pointer("_User", "U1")), Datasets.books) == ["f1"])  // T53
        #expect(try set(follows.where("to" == pointer("_User", "U1")), Datasets.books) == ["f2"])
        // T78: a relation's query with an extra constraint.
        let liked = QueryBuilder("Post").where(
            .relatedTo(Pointer(className: "_User", objectId: "U1"), key: "likes"), "title" == "X")
        #expect(try set(liked, Datasets.books) == ["lp2"])
        // T80: a pointer field compared with a bare objectId.
        #expect(try QueryBuilder("Comment").where("post" == "p1").count(in: Datasets.postsAndComments) == 2)
    }

    @Test func geoQueries() throws {
        let places = QueryBuilder("PlaceObject")
        let user = GeoPoint(latitude: 37.7749, longitude: -122.4194)
        let near = places.where(Field("location").near(user)).limit(10)
        #expect(try ids(near, Datasets.places, profile: .parse) == ["P1", "P2", "P3", "P4"])  // T54: 100-mile cap
        #expect(try ids(near, Datasets.places, profile: .exact) == ["P1", "P2", "P3", "P4", "P5"])
        for d in [Distance(10, .miles), Distance(16.1, .kilometers), Distance(10 / 3958.8, .radians)] {  // T55
            #expect(try ids(places.where(Field("location").near(user, within: d)), Datasets.places) == ["P1", "P2"])
        }
        // T56
        #expect(try ids(near.order(.ascending("name")), Datasets.places, profile: .parse) == ["P2", "P4", "P3", "P1"])
        let box = QueryBuilder("PizzaPlaceObject").where(
            Field("location").withinGeoBox(
                southwest: GeoPoint(latitude: 37.708813, longitude: -122.526398),
                northeast: GeoPoint(latitude: 37.822802, longitude: -122.373962)))
        #expect(try set(box, Datasets.pizza) == ["Z1", "pz3"])  // T57, TC-49
    }

    @Test func installations() throws {
        let inst = QueryBuilder("_Installation")
        let d = Datasets.installations
        #expect(try set(inst.where("channels" == "Giants", "scores" == true), d) == ["i1"])  // T60
        #expect(try set(inst.where("injuryReports" == true), d) == ["i1"])  // T61
        let devices: [Value] = ["ios", "android", "winphone", "embedded"]
        #expect(
            try set(inst.where("city" == "San Francisco", Field("deviceType").containedIn(devices)).limit(1000), d)
                == ["i1", "i2"])  // T62
        #expect(
            try set(
                inst.where("objectId" == "i2", "city" == "San Francisco", Field("deviceType").containedIn(devices))
                    .limit(1), d) == ["i2"])
        let retargeted = inst.where("channels" == "suitcaseOwners", "deviceType" == "android").where(
            "deviceType" == "winrt")
        #expect(try set(retargeted, d) == ["i4"])  // T63
        let nearStadium = QueryBuilder("_User").where(
            Field("location").near(Datasets.stadium, within: Distance(1, .miles)))
        #expect(try set(inst.where(Field("user").matchesQuery(nearStadium)), d, profile: .parse) == ["i1"])  // T64
    }

    @Test func notEqualRewritesAndHashtags() throws {
        let users = db([
            "_User": [
                rec("v1", ["state": "SignedUp"]), rec("v2", ["state": "Verified"]),
                rec("v3", ["state": "Invited"]), rec("v4", ["state": "Blocked"]),
            ]
        ])
        let q = QueryBuilder("_User")
        #expect(try set(q.where("state" != "Invited"), users) == ["v1", "v2", "v4"])  // T76
        #expect(try set(q.where(Field("state").containedIn(["SignedUp", "Verified"])), users) == ["v1", "v2"])
        #expect(try set(q.where(Field("state").notContainedIn(["Invited", "Blocked"])), users) == ["v1", "v2"])
        let posts = db([
            "Post": [
                rec("h1", ["hashtags": ["#parse", "#ftw"]]), rec("h2", ["hashtags": ["#parse"]]),
                rec("h3", ["hashtags": ["#ftw", "#parse", "#fun"]]),
            ]
        ])
        #expect(
            try set(QueryBuilder("Post").where(Field("hashtags").containsAll(["#parse", "#ftw"])), posts) == [
                "h1", "h3",
            ])  // T77
        let armor = db(["Armor": [rec("r1", ["rupees": 20]), rec("r2", ["rupees": 50]), rec("r3", ["rupees": 80])]])
        #expect(try set(QueryBuilder("Armor").where("rupees" <= 50), armor) == ["r1", "r2"])  // T75
    }

    @Test func matchesOneObject() throws {
        let q = gs.where("wins" > 50, Field("playerName").hasPrefix("Mich"))
        let g3 = try #require(data.classes["GameScore"]?.record("g3"))
        let g7 = try #require(data.classes["GameScore"]?.record("g7"))
        #expect(try q.matches(g3))
        #expect(try !q.matches(g7))
    }
}
