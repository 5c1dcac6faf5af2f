import Testing
@testable import QuarryParseREST
import QuarryCore

/// Builder → REST JSON: the exact request each builder method sends, and that it decodes back
/// to the builder's IR.
@Suite struct EncodeTests {
    static let q = QueryBuilder("GameScore")
    static let sf = geo(37.7749, -122.4194)
    static let p1 = ptr("Post", "p1")

    static let golden: [(QueryBuilder, String)] = [
        (q.where("playerName" == "Dan Stemkoski"), #"{"playerName":"Dan Stemkoski"}"#),
        (q.where("playerName" != "Michael Yabuti"), #"{"playerName":{"$ne":"Michael Yabuti"}}"#),
        (q.where("wins" < 50, "wins" >= 10), #"{"wins":{"$lt":50,"$gte":10}}"#),
        (q.where("wins" <= 5.5, "score" > 1), #"{"wins":{"$lte":5.5},"score":{"$gt":1}}"#),
        (q.where("wins" == 5, "wins" < 9), #"{"wins":{"$eq":5,"$lt":9}}"#),
        (q.where(Field("wins").equalTo(5)), #"{"wins":5}"#),
        (q.where("score" == nil), #"{"score":null}"#),
        (q.where("post" == .pointer(p1)), #"{"post":{"__type":"Pointer","className":"Post","objectId":"p1"}}"#),
        (
            q.where("createdAt" > .date(1_427_068_800_000)),
            #"{"createdAt":{"$gt":{"__type":"Date","iso":"2015-03-23T00:00:00.000Z"}}}"#
        ),
        (q.where("createdAt" > RelativeDate("3 days ago")), #"{"createdAt":{"$gt":{"$relativeTime":"3 days ago"}}}"#),
        (q.where(Field("playerName").containedIn(["a", "b"])), #"{"playerName":{"$in":["a","b"]}}"#),
        (q.where(Field("playerName").notContainedIn(["a"])), #"{"playerName":{"$nin":["a"]}}"#),
        (q.where(Field("arrayKey").containsAll([2, 3, 4])), #"{"arrayKey":{"$all":[2,3,4]}}"#),
        (q.where(Field("arrayKey").containedBy([1, 2])), #"{"arrayKey":{"$containedBy":[1,2]}}"#),
        (q.where(Field("tags").sizeEqualTo(3)), #"{"tags":{"$size":3}}"#),
        (q.where(Field("score").exists), #"{"score":{"$exists":true}}"#),
        (q.where(Field("score").doesNotExist), #"{"score":{"$exists":false}}"#),
        (q.where(Field("name").hasPrefix("Big Daddy's")), #"{"name":{"$regex":"^\\QBig Daddy's\\E"}}"#),
        (
            q.where(Field("name").hasSuffix("We", caseInsensitive: true)),
            #"{"name":{"$regex":"\\QWe\\E$","$options":"i"}}"#
        ),
        (q.where(Field("name").containsString(#"a\Eb"#)), #"{"name":{"$regex":"\\Qa\\E\\\\E\\Qb\\E"}}"#),
        (
            q.where(Field("name").matchesRegex("^Michael", modifiers: "mi")),
            #"{"name":{"$regex":"^Michael","$options":"im"}}"#
        ),
        (
            q.where(Field("body").matchesText("coffee -tea", language: "en", caseSensitive: true)),
            #"{"body":{"$text":{"$search":{"$term":"coffee -tea","$language":"en","$caseSensitive":true}}}}"#
        ),
        (
            q.where(Field("post").matchesQuery(QueryBuilder("Post").where(Field("image").exists))),
            #"{"post":{"$inQuery":{"where":{"image":{"$exists":true}},"className":"Post"}}}"#
        ),
        (
            q.where(Field("post").doesNotMatchQuery(QueryBuilder("Post").limit(1000).order(.descending("createdAt")))),
            #"{"post":{"$notInQuery":{"where":{},"className":"Post","order":"-createdAt","limit":1000}}}"#
        ),
        (
            q.where(Field("hometown").matchesKey("city", in: QueryBuilder("Team").where("winPct" > 0.5))),
            #"{"hometown":{"$select":{"query":{"where":{"winPct":{"$gt":0.5}},"className":"Team"},"key":"city"}}}"#
        ),
        (
            q.where(Field("hometown").doesNotMatchKey("city", in: QueryBuilder("Team"))),
            #"{"hometown":{"$dontSelect":{"query":{"where":{},"className":"Team"},"key":"city"}}}"#
        ),
        (
            QueryBuilder("Post").where(.relatedTo(ptr("_User", "u1"), key: "likes")),
            #"{"$relatedTo":{"object":{"__type":"Pointer","className":"_User","objectId":"u1"},"key":"likes"}}"#
        ),
        (
            q.where(Field("location").near(sf)),
            #"{"location":{"$nearSphere":{"__type":"GeoPoint","latitude":37.7749,"longitude":-122.4194}}}"#
        ),
        (
            q.where(Field("location").near(sf, within: Distance(10, .miles))),
            #"{"location":{"$nearSphere":{"__type":"GeoPoint","latitude":37.7749,"longitude":-122.4194},"$maxDistanceInMiles":10.0}}"#
        ),
        (
            q.where(Field("location").near(sf, within: Distance(2, .kilometers))).order(.ascending("name")),
            #"{"where":{"location":{"$nearSphere":{"__type":"GeoPoint","latitude":37.7749,"longitude":-122.4194},"$maxDistanceInKilometers":2.0}},"order":"name"}"#
        ),
        (
            q.where(Field("location").near(sf, within: Distance(0.1, .radians))),
            #"{"location":{"$nearSphere":{"__type":"GeoPoint","latitude":37.7749,"longitude":-122.4194},"$maxDistanceInRadians":0.1}}"#
        ),
        (
            q.where(Field("location").withinGeoBox(southwest: geo(1, 2), northeast: geo(3, 4))),
            #"{"location":{"$within":{"$box":[{"__type":"GeoPoint","latitude":1.0,"longitude":2.0},{"__type":"GeoPoint","latitude":3.0,"longitude":4.0}]}}}"#
        ),
        (
            q.where(Field("location").withinPolygon([geo(0, 0), geo(0, 1), geo(1, 0)])),
            #"{"location":{"$geoWithin":{"$polygon":[{"__type":"GeoPoint","latitude":0.0,"longitude":0.0},{"__type":"GeoPoint","latitude":0.0,"longitude":1.0},{"__type":"GeoPoint","latitude":1.0,"longitude":0.0}]}}}"#
        ),
        (
            q.where(Field("location").withinCircle(center: geo(0, 0), radius: Distance(0.25, .radians))),
            #"{"location":{"$geoWithin":{"$centerSphere":[{"__type":"GeoPoint","latitude":0.0,"longitude":0.0},0.25]}}}"#
        ),
        (
            q.where(Field("bounds").polygonContains(geo(1, 1))),
            #"{"bounds":{"$geoIntersects":{"$point":{"__type":"GeoPoint","latitude":1.0,"longitude":1.0}}}}"#
        ),
        (q.where(("wins" < 5) || ("wins" > 150)), #"{"$or":[{"wins":{"$lt":5}},{"wins":{"$gt":150}}]}"#),
        (q.where(!("a" == 1)), #"{"a":{"$ne":1}}"#),
        (q.where(!Field("n").hasPrefix("x")), #"{"$nor":[{"n":{"$regex":"^\\Qx\\E"}}]}"#),
        (q.where(.nor(["a" == 1, "b" == 2])), #"{"$nor":[{"a":1},{"b":2}]}"#),
        (q.where(("a" > 1) && ("a" > 2)), #"{"a":{"$gt":1},"$and":[{"a":{"$gt":2}}]}"#),
        (
            QueryBuilder.or(q.where("a" == 1), q.where("b" == 2)).where("c" == 3),
            #"{"$or":[{"a":1},{"b":2}],"c":3}"#
        ),
        (
            q.order(.ascending("score"), .descending("name")).skip(20).limit(10).select("a", "b.c").exclude("d")
                .include("post.author"),
            #"{"where":{},"order":"score,-name","limit":10,"skip":20,"keys":"a,b.c","excludeKeys":"d","include":"post.author"}"#
        ),
    ]

    @Test(arguments: golden.indices)
    func builderEncodesAsTheSDKsDo(_ i: Int) throws {
        let (builder, json) = Self.golden[i]
        #expect(try builder.encoded() == json)
        // ... and the JSON means what the builder meant.
        #expect(try ParseWhere.parse(json, className: builder.className) == (try builder.build()))
    }

    @Test func countAndFirstBodies() throws {
        let base = Self.q.where("playerName" == "Sean Plott")
        #expect(try ParseWhere.print(base.buildCount()) == #"{"where":{"playerName":"Sean Plott"},"count":1}"#)
        #expect(try ParseWhere.print(base.buildFirst()) == #"{"where":{"playerName":"Sean Plott"},"limit":1}"#)
        // The SDKs' count request: count=1&limit=0.
        let counted = try ParseWhere.parse(#"{"where":{},"count":1,"limit":0}"#, className: "T")
        #expect(counted.count && counted.limit == 0)
    }

    @Test func aFieldNamedWhereForcesTheBodyForm() throws {
        let query = try Self.q.where(Field("where").exists).build()
        let json = try ParseWhere.print(query)
        #expect(json == #"{"where":{"where":{"$exists":true}}}"#)
        #expect(try ParseWhere.parse(json, className: "GameScore") == query)
    }
}
