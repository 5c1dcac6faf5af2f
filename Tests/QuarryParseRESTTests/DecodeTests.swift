import Testing
@testable import QuarryParseREST
import QuarryCore

/// REST JSON → IR for every operator and parameter, including the alternative spellings the
/// SDKs and parse-server accept.
@Suite struct DecodeTests {
    func decode(_ json: String, profile: Profile = .exact) throws -> Query {
        try ParseWhere.parse(json, className: "T", profile: profile)
    }

    func predicate(_ json: String) throws -> Filter { try decode(json).predicate }

    static let sf = geo(37.7749, -122.4194)

    static let golden: [(String, Filter)] = [
        (#"{}"#, .constant(true)),
        (#"{"a":1}"#, eq("a", 1)),
        (#"{"a":1.5,"b":"x","c":true,"d":null}"#, .and([eq("a", 1.5), eq("b", "x"), eq("c", true), eq("d", .null)])),
        (#"{"a":{"$eq":"x"}}"#, eq("a", "x")),
        (#"{"a":{"$ne":"x"}}"#, doc(.compare(key("a"), .eq, lit("x"), []), negated: true)),
        (
            #"{"a":{"$lt":1,"$lte":2,"$gt":3,"$gte":4}}"#,
            .and([cmp("a", .lt, 1), cmp("a", .le, 2), cmp("a", .gt, 3), cmp("a", .ge, 4)])
        ),
        (
            #"{"d":{"$gte":{"__type":"Date","iso":"2016-11-13T00:00:00.000Z"}}}"#,
            cmp("d", .ge, .date(1_478_995_200_000))
        ),
        (
            #"{"d":{"$lt":{"$relativeTime":"in 2 days"}}}"#,
            doc(.compare(key("d"), .lt, .function(.relativeTime, [lit("in 2 days")]), []))
        ),
        (#"{"post":{"__type":"Pointer","className":"Post","objectId":"p1"}}"#, eq("post", .pointer(ptr("Post", "p1")))),
        (#"{"loc":{"__type":"GeoPoint","latitude":1,"longitude":2}}"#, eq("loc", .geoPoint(geo(1, 2)))),
        (#"{"a":{"$in":[1,"x"]}}"#, doc(.inCollection(key("a"), list([1, "x"]), []))),
        (#"{"a":{"$in":[[1,2],3]}}"#, doc(.inCollection(key("a"), list([1, 2, 3]), []))),
        (#"{"a":{"$nin":[1]}}"#, doc(.inCollection(key("a"), list([1]), []), negated: true)),
        (#"{"a":{"$all":[1,2]}}"#, doc(.containsAll(key("a"), list([1, 2])))),
        (#"{"a":{"$containedBy":[1,2]}}"#, doc(.containedBy(key("a"), list([1, 2])))),
        (#"{"a":{"$exists":true}}"#, doc(.isNull(key("a")), negated: true)),
        (#"{"a":{"$exists":false}}"#, doc(.isNull(key("a")))),
        (#"{"a":{"$size":0}}"#, doc(.arraySize(key("a"), 0))),
        (#"{"a":{"$regex":"^\\Qx.y\\E"}}"#, doc(.string(key("a"), .beginsWith, lit("x.y"), []))),
        (#"{"a":{"$options":"i","$regex":"\\Qx\\E$"}}"#, doc(.string(key("a"), .endsWith, lit("x"), .caseInsensitive))),
        (#"{"a":{"$regex":"\\Qx\\E"}}"#, doc(.string(key("a"), .contains, lit("x"), []))),
        (
            #"{"a":{"$regex":"^\\Qx\\E","$options":"im"}}"#,
            doc(
                .string(
                    key("a"), .matches(RegexOptions(wholeString: false, flags: [.caseInsensitive, .multiline])),
                    lit(#"^\Qx\E"#), []))
        ),
        (
            #"{"a":{"$regex":"^M.*l$","$options":"sx"}}"#,
            doc(
                .string(
                    key("a"), .matches(RegexOptions(wholeString: false, flags: [.extended, .dotAll])), lit("^M.*l$"), []
                ))
        ),
        (
            #"{"a":{"$text":{"$search":{"$term":"x y","$language":"fr","$caseSensitive":false,"$diacriticSensitive":true}}}}"#,
            doc(.text("a", TextSearch(terms: "x y", language: "fr", diacriticSensitive: true)))
        ),
        (
            #"{"l":{"$nearSphere":{"__type":"GeoPoint","latitude":37.7749,"longitude":-122.4194},"$maxDistance":0.1}}"#,
            doc(.geo(.near("l", sf, maxDistance: Distance(0.1, .radians))))
        ),
        (
            #"{"l":{"$maxDistanceInKilometers":16.1,"$nearSphere":{"__type":"GeoPoint","latitude":37.7749,"longitude":-122.4194}}}"#,
            doc(.geo(.near("l", sf, maxDistance: Distance(16.1, .kilometers))))
        ),
        (
            #"{"l":{"$within":{"$box":[{"__type":"GeoPoint","latitude":1,"longitude":2},{"__type":"GeoPoint","latitude":3,"longitude":4}]}}}"#,
            doc(.geo(.withinBox("l", southwest: geo(1, 2), northeast: geo(3, 4))))
        ),
        // `$polygon` takes GeoPoints, MongoDB's [longitude, latitude] pairs, or a Polygon ([latitude, longitude]).
        (
            #"{"l":{"$geoWithin":{"$polygon":[{"__type":"GeoPoint","latitude":0,"longitude":0},[1,0],[0,1]]}}}"#,
            doc(.geo(.withinPolygon("l", [geo(0, 0), geo(0, 1), geo(1, 0)])))
        ),
        (
            #"{"l":{"$geoWithin":{"$polygon":{"__type":"Polygon","coordinates":[[0,0],[0,1],[1,0]]}}}}"#,
            doc(.geo(.withinPolygon("l", [geo(0, 0), geo(0, 1), geo(1, 0)])))
        ),
        (
            #"{"l":{"$geoWithin":{"$centerSphere":[[-122.4194,37.7749],0.5]}}}"#,
            doc(.geo(.withinCircle("l", center: sf, radius: Distance(0.5, .radians))))
        ),
        (
            #"{"b":{"$geoIntersects":{"$point":{"__type":"GeoPoint","latitude":1,"longitude":2}}}}"#,
            doc(.geo(.polygonContains("b", geo(1, 2))))
        ),
        (
            #"{"$relatedTo":{"object":{"__type":"Pointer","className":"_User","objectId":"u1"},"key":"likes"}}"#,
            doc(.relatedTo(ptr("_User", "u1"), key: "likes"))
        ),
        (#"{"$or":[{"a":1},{"b":2}]}"#, .or([eq("a", 1), eq("b", 2)])),
        (#"{"$or":[{"a":1,"b":2},{}]}"#, .or([.and([eq("a", 1), eq("b", 2)]), .constant(true)])),
        (#"{"a":1,"$and":[{"b":2},{"c":3}]}"#, .and([eq("a", 1), eq("b", 2), eq("c", 3)])),
        (#"{"$nor":[{"a":1}]}"#, doc(.compare(key("a"), .eq, lit(1), []), negated: true)),
        (#"{"$nor":[{"a":1,"b":2}]}"#, .not(.and([eq("a", 1), eq("b", 2)]))),
        (#"{"$nor":[{"n":{"$regex":"^\\Qx\\E"}}]}"#, doc(.string(key("n"), .beginsWith, lit("x"), []), negated: true)),
        (#"{"$nor":[{"a":1},{"b":2}]}"#, .not(.or([eq("a", 1), eq("b", 2)]))),
        (#"{"$nor":[{}]}"#, .constant(false)),
        (#"{"$and":[{}]}"#, .constant(true)),
    ]

    @Test(arguments: golden.indices)
    func operators(_ i: Int) throws {
        let (json, expected) = Self.golden[i]
        #expect(try predicate(json) == expected, "\(json)")
    }

    @Test func innerQueries() throws {
        let p = try predicate(
            #"{"post":{"$inQuery":{"className":"Post","where":{"image":{"$exists":true}},"limit":1000,"skip":5,"order":"-createdAt"}}}"#
        )
        var inner = Query(className: "Post", predicate: doc(.isNull(key("image")), negated: true))
        inner.limit = 1000
        inner.skip = 5
        inner.order = [.key("createdAt", .descending)]
        #expect(p == doc(.inQuery("post", inner)))
        #expect(
            try predicate(#"{"h":{"$dontSelect":{"query":{"className":"Team","where":{}},"key":"city"}}}"#)
                == doc(.select("h", Query(className: "Team"), innerKey: "city"), negated: true))
        #expect(
            try predicate(#"{"p":{"$notInQuery":{"where":{},"className":"Post"}}}"#)
                == doc(.inQuery("p", Query(className: "Post")), negated: true))
    }

    @Test func requestBody() throws {
        let q = try decode(
            #"{"where":{"a":1},"order":"-score, name","limit":10,"skip":"5","keys":"a,b.c","excludeKeys":["d"],"include":"post,post.author","count":true}"#
        )
        #expect(q.predicate == eq("a", 1))
        #expect(q.order == [.key("score", .descending), .key("name", .ascending)])
        #expect(q.limit == 10 && q.skip == 5)
        #expect(q.keys == ["a", "b.c"])
        #expect(q.excludeKeys == ["d"])
        #expect(q.includes == ["post", "post.author"])
        #expect(q.count)
        #expect(q.className == "T" && q.profile == .exact)
        #expect(try decode(#"{"where":{},"limit":10.0,"count":0}"#).limit == 10)
    }

    /// A list of keys drops the spaces and tabs around each name, and empty names; a space that
    /// a combining mark follows is part of the name (one character that is not a space), which
    /// is then not a valid key.
    @Test func keyListsAreTrimmedOfSpacesAndTabs() throws {
        let q = try decode(#"{"where":{},"order":" \t-score ,\tname\t, ,","keys":"  a  ,b.c\t"}"#)
        #expect(q.order == [.key("score", .descending), .key("name", .ascending)])
        #expect(q.keys == ["a", "b.c"])
        #expect {
            try decode(#"{"where":{},"keys":" \u0301x, y "}"#)
        } throws: { "\($0)".contains("invalid key name ' \u{301}x'") }
    }

    @Test func nearOrdersByDistanceUnlessTheRequestOrders() throws {
        let near = #"{"l":{"$nearSphere":{"__type":"GeoPoint","latitude":1,"longitude":2}}}"#
        #expect(try decode(near).order == [.distance("l", from: geo(1, 2), .ascending)])
        #expect(try decode(#"{"where":\#(near),"order":"name"}"#).order == [.key("name", .ascending)])
        // Inside $and it still orders; under $or it does not.
        #expect(try decode(#"{"$and":[\#(near)]}"#).order == [.distance("l", from: geo(1, 2), .ascending)])
        #expect(try decode(#"{"$or":[\#(near),{"x":1}]}"#).order == [])
        // Parse's implicit 100-mile cap.
        #expect(
            try decode(near, profile: .parse).predicate
                == doc(.geo(.near("l", geo(1, 2), maxDistance: Distance(100, .miles)))))
    }

    @Test func profilesApply() throws {
        #expect(try decode(#"{"where":{},"limit":5000}"#, profile: .leancloud).limit == 1000)
        #expect(try decode(#"{"where":{},"keys":"-tags"}"#, profile: .leancloud).excludeKeys == ["tags"])
        #expect(try decode("{}", profile: .maxleap).profile == .maxleap)
    }
}
