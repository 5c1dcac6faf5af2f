import Testing
@testable import QuarryParseREST
import Quarry

/// The LeanCloud and MaxLeap reference's test cases (seed-leancloud-maxleap-queries.md §9)
/// that a query can express, on the reference evaluator.
@Suite struct LeanCloudMaxLeapReferenceTests {
    func set(_ q: QueryBuilder, _ data: Database, profile: Profile = .exact) throws -> Set<String> {
        Set(try q.find(in: data, profile: profile).map(\.objectId))
    }

    func ids(_ q: QueryBuilder, _ data: Database, profile: Profile = .exact) throws -> [String] {
        try q.find(in: data, profile: profile).map(\.objectId)
    }

    let students = QueryBuilder("Student")
    let todo = QueryBuilder("Todo")

    @Test func basicQueries() throws {
        let d = Datasets.students
        #expect(try set(students.where("lastName" == "Smith"), d) == ["s1", "s2"])  // TC-01
        #expect(try set(students.where("firstName" != "Jack"), d) == ["s1", "s3", "s5"])  // TC-02
        #expect(try set(students.where("age" < 18), d) == ["s1"])  // TC-03
        #expect(try set(students.where("age" <= 18), d) == ["s1", "s2"])
        #expect(try set(students.where("age" > 18), d) == ["s3", "s4"])
        #expect(try set(students.where("age" >= 18), d) == ["s2", "s3", "s4"])
        #expect(try set(students.where("lastName" == "Smith", "age" >= 18), d) == ["s2"])  // TC-04
    }

    @Test func maxLeapBasics() throws {
        let now = ReferenceEvaluator.systemClock()
        let d = Datasets.maxLeapPosts(now: now)
        let posts = QueryBuilder("Post")
        #expect(try set(posts.where("publisher" == "MaxLeap"), d) == ["m1"])  // TC-05
        #expect(
            try set(posts.where("publisher" != "xiaoming", "createdAt" > RelativeDate("1 hour ago")), d)
                == ["m1", "m3", "m4", "m5"])  // TC-06
        #expect(try set(posts.where("wins" < 50), d) == ["m1"])  // TC-07
        #expect(try set(posts.where("wins" <= 50), d) == ["m1", "m2"])
        #expect(try set(posts.where("wins" > 50), d) == ["m3"])
        #expect(try set(posts.where("wins" >= 50), d) == ["m2", "m3"])
        #expect(try set(posts.where(Field("title").hasPrefix("Big Daddy's")), d) == ["m1", "m2"])  // TC-15
        #expect(try set(posts.where("arrayKey" == 2), d) == ["m1", "m2", "m3"])  // TC-20
        #expect(try set(posts.where(Field("arrayKey").containsAll([2, 3, 4])), d) == ["m1", "m3"])
        let names: [Value] = ["Jonathan Walsh", "Dario Wunsch", "Shawn Simon"]
        #expect(try set(posts.where(Field("publisher").containedIn(names)), d) == ["m3", "m4"])  // TC-23
        #expect(try set(posts.where(Field("playerName").notContainedIn(names)), d) == ["m1", "m2", "m3", "m4"])
        #expect(try posts.where("playerEmail" == "xiaoming@example.com").first(in: d)?.objectId == "m1")  // TC-27
        #expect(try posts.where("publisher" == "Sean").count(in: d) == 1)  // TC-31
        let few = posts.where("readCount" < 10), many = posts.where("readCount" > 100)
        #expect(try set(QueryBuilder.or(few, many), d) == ["m1", "m3"])  // TC-35
        #expect(try set(QueryBuilder.or(few, many).where("publisher" != "MaxLeap"), d) == ["m3"])  // TC-36
        let selected = try posts.select("contents", "publisher").find(in: d)  // TC-09
        // createdAt always comes back
        #expect(selected.allSatisfy { Set($0.fields.keys) == ["publisher", "createdAt"] })
    }

    @Test func existenceStringsAndArrays() throws {
        let d = Datasets.todos
        #expect(try set(todo.where(Field("images").exists), d) == ["t1"])  // TC-08
        #expect(try set(todo.where(Field("images").doesNotExist), d) == ["t2", "t3", "t4", "t5"])
        #expect(try set(todo.where(Field("title").hasPrefix("lunch")), d) == ["t1"])  // TC-12
        #expect(try set(todo.where(Field("title").containsString("lunch")), d) == ["t1", "t3"])  // TC-13
        // TC-14
        #expect(try set(todo.where(Field("title").matchesRegex("^((?!ticket).)*$")), d) == ["t1", "t2", "t3", "t5"])
        // TC-16: the prefix is literal ("." is not a wildcard), unlike LeanCloud's unescaped SDK regex.
        #expect(try set(todo.where(Field("title").hasPrefix("l.nch")), Datasets.todosWithT6) == ["t6"])
        #expect(try set(todo.where(Field("title").matchesRegex("^l.nch.*")), Datasets.todosWithT6) == ["t1", "t6"])
        #expect(try set(todo.where("tags" == "work"), d) == ["t1", "t2", "t4"])  // TC-17
        #expect(try set(todo.where(Field("tags").sizeEqualTo(3)), d) == ["t1"])  // TC-18
        // TC-19
        #expect(try set(todo.where(Field("tags").containsAll(["work", "sales", "appointment"])), d) == ["t1", "t4"])
        #expect(try set(todo.where(Field("priority").containedIn([1, 2])), d) == ["t1", "t2", "t5"])  // TC-21
        #expect(try set(todo.where(Field("priority").notContainedIn([1, 2])), d) == ["t3", "t4"])  // TC-22
    }

    @Test func orderingAndPaging() throws {
        let d = Datasets.todos
        #expect(try ids(todo.order(.ascending("createdAt")), d) == ["t5", "t1", "t2", "t3", "t4"])  // TC-24
        #expect(try ids(todo.order(.descending("createdAt")), d) == ["t4", "t3", "t2", "t1", "t5"])
        #expect(
            try ids(todo.order(.ascending("priority")).addingOrder(.descending("createdAt")), d)
                == ["t1", "t2", "t5", "t3", "t4"])  // TC-25
        #expect(try todo.where("priority" == 2).order(.ascending("createdAt")).first(in: d)?.objectId == "t5")  // TC-27
        #expect(try todo.where("priority" == 9).first(in: d) == nil)
        let bulk = QueryBuilder("Bulk"), b1500 = Datasets.bulk(1500)  // TC-28
        #expect(try ids(bulk, b1500, profile: .leancloud).count == 100)
        #expect(try ids(bulk.limit(10), b1500, profile: .leancloud).count == 10)
        #expect(try ids(bulk.limit(5000), b1500, profile: .leancloud).count == 1000)
        #expect(try ids(bulk.limit(5000), b1500, profile: .exact).count == 1500)
        let b25 = Datasets.bulk(25)  // TC-29
        #expect(
            try ids(bulk.order(.ascending("n")).skip(20).limit(10), b25, profile: .leancloud)
                == (20..<25).map { "n\($0)" })
        #expect(try todo.where("isComplete" == true).count(in: d) == 2)  // TC-30
    }

    @Test func compoundQueries() throws {
        let d = Datasets.todos
        #expect(try set(todo.where("priority" >= 3 || "isComplete" == true), d) == ["t1", "t3", "t4"])  // TC-32
        let window = QueryBuilder.and(
            todo.where("createdAt" >= iso("2016-11-13T00:00:00.000Z")),
            todo.where("createdAt" < iso("2016-12-03T00:00:00.000Z")))
        #expect(try set(window, d) == ["t1", "t2", "t3"])  // TC-33
        let outside = QueryBuilder.or(
            todo.where("createdAt" < iso("2016-11-13T00:00:00.000Z")),
            todo.where("createdAt" >= iso("2016-12-03T00:00:00.000Z")))
        let priorities = QueryBuilder.or(todo.where("priority" == 2), todo.where("priority" == 4))
        #expect(try set(QueryBuilder.and(outside, priorities), d) == ["t4", "t5"])  // TC-34
        // TC-37, TC-51: rejected, not ignored.
        let plain = todo.where("priority" == 1)
        for shaped in [
            plain.limit(1), plain.order(.ascending("x")), plain.include("post"),
            todo.where(Field("location").near(geo(39.9, 116.4))),
        ] {
            for profile in [Profile.leancloud, .parse] {
                #expect(
                    !diagnostics { () throws(Diagnostics) in
                        try QueryBuilder.or(shaped, plain).find(in: d, profile: profile)
                    }.isEmpty)
            }
        }
    }

    @Test func relationalQueries() throws {
        let comments = QueryBuilder("Comment")
        let blog = Datasets.blog
        // TC-38
        #expect(try set(comments.where("post" == pointer("Post", "57328ca079bc44005c2472d0")), blog) == ["c1", "c2"])
        let ml = Datasets.maxLeapRelations
        #expect(try set(comments.where("parent" == pointer("Post", "1zEcyElZ80")), ml) == ["mc1"])
        let withImages = QueryBuilder("Post").where(Field("images").exists)
        #expect(try set(comments.where(Field("post").matchesQuery(withImages)), blog) == ["c1", "c2"])  // TC-39
        #expect(
            try set(comments.where(Field("post").matchesQuery(QueryBuilder("Post").where(Field("image").exists))), ml)
                == ["mc1"])
        #expect(try set(comments.where(Field("post").doesNotMatchQuery(withImages)), blog) == ["c3", "c4"])  // TC-40
        #expect(
            try set(
                comments.where(Field("post").doesNotMatchQuery(QueryBuilder("Post").where(Field("image").exists))), ml)
                == ["mc2"])
        // TC-42: include.
        let latest = try comments.order(.descending("createdAt")).limit(10).include("post", "post.author").find(
            in: blog)
        #expect(latest.map(\.objectId) == ["c4", "c3", "c2", "c1"])
        guard case .object(let post)? = latest[3]["post"], case .object(let author)? = post["author"] else {
            Issue.record("c1.post.author should be included")
            return
        }
        #expect(author["firstName"] == "Tom")
        // TC-44 (the MaxLeap example, corrected).
        let onMp1 = QueryBuilder("Comment").where("parent" == pointer("Post", "1zEcyElZ80"))
        let posts = QueryBuilder("Post")
        #expect(try set(posts.where(Field("author").matchesKey("author", in: onMp1)), ml) == ["1zEcyElZ80", "mp3"])
        #expect(try set(posts.where(Field("author").doesNotMatchKey("author", in: onMp1)), ml) == ["mp2"])
        // TC-45: a relation's query, narrowed.
        let likes = posts.where(.relatedTo(Pointer(className: "_User", objectId: "U1"), key: "likes"))
        #expect(try set(likes, ml) == ["1zEcyElZ80", "mp3"])
        #expect(try set(likes.where(Field("title").hasSuffix("We")), ml) == ["mp3"])
    }

    @Test func geoQueries() throws {
        let d = Datasets.todos
        let here = GeoPoint(latitude: 39.9, longitude: 116.4)
        #expect(
            try ids(todo.where(Field("location").near(here)).limit(10), d, profile: .leancloud)
                == ["t1", "t2", "t3", "t4"])  // TC-46
        for (distance, expected) in [
            (Distance(10, .kilometers), ["t1", "t2"]), (Distance(100, .kilometers), ["t1", "t2", "t3"]),
            (Distance(5, .miles), ["t1", "t2"]), (Distance(0.001, .radians), ["t1"]),
        ] {  // TC-47
            #expect(try ids(todo.where(Field("location").near(here, within: distance)), d) == expected)
        }
        #expect(
            try ids(todo.where(Field("location").near(here)).order(.descending("priority")), d)
                == ["t4", "t3", "t2", "t1"])  // TC-48
        let box = todo.where(
            Field("location").withinGeoBox(
                southwest: GeoPoint(latitude: 39.8, longitude: 116.3),
                northeast: GeoPoint(latitude: 40.0, longitude: 116.5)))
        #expect(try set(box, d) == ["t1", "t2"])  // TC-49
    }

    @Test func absentIsNotFalse() throws {
        let users = db([
            "_User": [
                rec("v1", ["emailVerified": true, "gender": "female"]),
                rec("v2", ["emailVerified": false, "gender": "male"]), rec("v3", [:]),
            ]
        ])
        let q = QueryBuilder("_User")
        #expect(try set(q.where("gender" == "female"), users) == ["v1"])  // TC-59
        #expect(try set(q.where("emailVerified" == false), users) == ["v2"])  // TC-61
        #expect(try set(q.where(Field("emailVerified").doesNotExist), users) == ["v3"])
        #expect(try set(q.where("emailVerified" != true), users) == ["v2", "v3"])
        let games = db(["Game": [rec("g1", ["rupees": 0.5]), rec("g2", ["rupees": 0.99]), rec("g3", ["rupees": 1.5])]])
        #expect(try set(QueryBuilder("Game").where("rupees" <= 0.99), games) == ["g1", "g2"])  // TC-60
    }
}
