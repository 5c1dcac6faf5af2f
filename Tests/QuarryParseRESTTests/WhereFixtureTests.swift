import Testing
@testable import QuarryParseREST
import Quarry

/// One object, one REST where, one answer: the in-memory matching cases of parse-server's
/// LiveQuery suite (`spec/QueryTools.spec.js`) and the seeds, restated as fixtures and run
/// through the JSON front-end and the reference evaluator.
@Suite struct WhereFixtureTests {
    struct Fixture: Sendable, CustomStringConvertible {
        var object: [String: Value]
        var where_: String
        var matches: Bool
        var description: String { where_ }
    }

    static let bill: [String: Value] = [
        "score": 12, "name": "Bill", "birthday": .date(320_000_000_000),
        "lastLocation": point(37.484815, -122.148377), "tags": ["nofilter", "latergram", "tbt"],
        "owner": pointer("_User", "U2"), "owners": [pointer("_User", "U2")],
        "status": .object(["x": "read", "y": "delivered"]),
    ]

    static let fixtures: [Fixture] = [
        // Existence.
        Fixture(object: bill, where_: #"{"score":{"$exists":true}}"#, matches: true),
        Fixture(object: bill, where_: #"{"missing":{"$exists":true}}"#, matches: false),
        Fixture(object: bill, where_: #"{"missing":{"$exists":false}}"#, matches: true),
        Fixture(object: bill, where_: #"{"score":{"$exists":false}}"#, matches: false),
        // Equality.
        Fixture(object: bill, where_: #"{"objectId":{"$eq":"O1"}}"#, matches: true),
        Fixture(object: bill, where_: #"{"score":{"$eq":12}}"#, matches: true),
        Fixture(object: bill, where_: #"{"score":12.0}"#, matches: true),
        Fixture(object: bill, where_: #"{"name":"Bill"}"#, matches: true),
        Fixture(object: bill, where_: #"{"name":"bill"}"#, matches: false),
        Fixture(object: bill, where_: #"{"name":{"$in":["Adam","Ben","Charles"]}}"#, matches: false),
        Fixture(object: bill, where_: #"{"name":{"$in":["Adam","Bill","Charles"]}}"#, matches: true),
        Fixture(object: bill, where_: #"{"name":{"$nin":["Adam","Bill","Charles"]}}"#, matches: false),
        Fixture(object: bill, where_: #"{"name":{"$nin":["Adam","Ben","Charles"]}}"#, matches: true),
        Fixture(
            object: bill, where_: #"{"birthday":{"__type":"Date","iso":"1980-02-21T16:53:20.000Z"}}"#, matches: true),
        Fixture(
            object: bill, where_: #"{"birthday":{"__type":"Date","iso":"1990-02-01T00:00:00.000Z"}}"#, matches: false),
        Fixture(
            object: bill,
            where_: #"{"lastLocation":{"__type":"GeoPoint","latitude":37.484815,"longitude":-122.148377}}"#,
            matches: true),
        Fixture(
            object: bill, where_: #"{"lastLocation":{"__type":"GeoPoint","latitude":37.4848,"longitude":-122.1483}}"#,
            matches: false),
        Fixture(object: bill, where_: #"{"tags":"selfie"}"#, matches: false),
        Fixture(object: bill, where_: #"{"tags":"tbt"}"#, matches: true),
        Fixture(object: bill, where_: #"{"tags":{"$all":["latergram","nofilter"]}}"#, matches: true),
        Fixture(object: bill, where_: #"{"tags":{"$all":["latergram","selfie"]}}"#, matches: false),
        Fixture(object: bill, where_: #"{"missing":{"$all":[1,2,3]}}"#, matches: false),
        Fixture(object: bill, where_: #"{"tags":{"$containedBy":["nofilter","latergram","tbt","x"]}}"#, matches: true),
        Fixture(object: bill, where_: #"{"tags":{"$containedBy":["nofilter"]}}"#, matches: false),
        Fixture(object: bill, where_: #"{"tags":{"$size":3}}"#, matches: true),
        Fixture(
            object: bill, where_: #"{"owner":{"__type":"Pointer","className":"_User","objectId":"U2"}}"#, matches: true),
        Fixture(
            object: bill, where_: #"{"owner":{"__type":"Pointer","className":"_User","objectId":"U3"}}"#, matches: false
        ),
        Fixture(
            object: bill, where_: #"{"owners":{"__type":"Pointer","className":"_User","objectId":"U2"}}"#, matches: true
        ),
        Fixture(object: bill, where_: #"{"owner":"U2"}"#, matches: true),
        // Inequalities.
        Fixture(object: bill, where_: #"{"score":{"$lt":15}}"#, matches: true),
        Fixture(object: bill, where_: #"{"score":{"$lt":10}}"#, matches: false),
        Fixture(object: bill, where_: #"{"score":{"$lte":12}}"#, matches: true),
        Fixture(object: bill, where_: #"{"score":{"$gt":15}}"#, matches: false),
        Fixture(object: bill, where_: #"{"score":{"$gte":12}}"#, matches: true),
        Fixture(object: bill, where_: #"{"score":{"$ne":12}}"#, matches: false),
        Fixture(object: bill, where_: #"{"score":{"$ne":40}}"#, matches: true),
        Fixture(object: bill, where_: #"{"missing":{"$ne":40}}"#, matches: true),
        Fixture(object: bill, where_: #"{"birthday":{"$lt":{"$relativeTime":"now"}}}"#, matches: true),
        Fixture(object: bill, where_: #"{"birthday":{"$gt":{"$relativeTime":"1 day ago"}}}"#, matches: false),
        // Compounds.
        Fixture(object: bill, where_: #"{"$or":[{"name":"Bill"},{"name":"Jeff"}]}"#, matches: true),
        Fixture(object: bill, where_: #"{"$or":[{"name":"Ann"},{"name":"Jeff"}]}"#, matches: false),
        Fixture(object: bill, where_: #"{"$and":[{"name":"Bill"},{"score":12}]}"#, matches: true),
        Fixture(object: bill, where_: #"{"$and":[{"name":"Bill"},{"score":100}]}"#, matches: false),
        Fixture(object: bill, where_: #"{"$nor":[{"name":"Bill"},{"name":"Jeff"}]}"#, matches: false),
        Fixture(object: bill, where_: #"{"$nor":[{"name":"Ann"},{"name":"Jeff"}]}"#, matches: true),
        // Strings, with the SDKs' quoting.
        Fixture(object: bill, where_: #"{"name":{"$regex":"^\\QBi\\E"}}"#, matches: true),
        Fixture(object: bill, where_: #"{"name":{"$regex":"^\\QBo\\E"}}"#, matches: false),
        Fixture(object: bill, where_: #"{"name":{"$regex":"\\Qll\\E$"}}"#, matches: true),
        Fixture(object: bill, where_: #"{"name":{"$regex":"\\QIL\\E","$options":"i"}}"#, matches: true),
        Fixture(object: bill, where_: #"{"name":{"$regex":"B.l"}}"#, matches: true),
        Fixture(object: bill, where_: #"{"name":{"$regex":"B[^i]l"}}"#, matches: false),
        Fixture(object: ["name": "Android-7"], where_: #"{"name":{"$regex":"\\Qd-7\\E"}}"#, matches: true),
        Fixture(object: ["name": #"Slash \E"#], where_: #"{"name":{"$regex":"\\Qh \\E\\\\E\\Q\\E$"}}"#, matches: true),
        Fixture(
            object: ["name": #"Slash \E"#], where_: #"{"name":{"$regex":"\\Qh \\E\\\\E\\Qe\\E$"}}"#, matches: false),
        Fixture(
            object: ["name": #"Slash \Q and more"#], where_: #"{"name":{"$regex":"\\Qh \\Q and\\E"}}"#, matches: true),
        Fixture(
            object: ["name": "Big Daddy's BBQ"], where_: #"{"name":{"$regex":"^\\QBig Daddy's\\E"}}"#, matches: true),
        Fixture(object: ["name": "big daddy's"], where_: #"{"name":{"$regex":"^\\QBig Daddy's\\E"}}"#, matches: false),
        Fixture(
            object: ["body": "The quick brown fox"], where_: #"{"body":{"$text":{"$search":{"$term":"QUICK fox"}}}}"#,
            matches: true),
        Fixture(
            object: ["body": "The quick brown fox"], where_: #"{"body":{"$text":{"$search":{"$term":"fox -brown"}}}}"#,
            matches: false),
        // Geo.
        Fixture(
            object: ["location": point(40, 40)],
            where_: #"{"location":{"$nearSphere":{"__type":"GeoPoint","latitude":20,"longitude":20}}}"#, matches: true),
        Fixture(
            object: [:], where_: #"{"location":{"$nearSphere":{"__type":"GeoPoint","latitude":20,"longitude":20}}}"#,
            matches: false),
        Fixture(
            object: ["location": .null],
            where_: #"{"location":{"$nearSphere":{"__type":"GeoPoint","latitude":20,"longitude":20}}}"#, matches: false),
        Fixture(
            object: ["location": point(40, 40)],
            where_:
                #"{"location":{"$nearSphere":{"__type":"GeoPoint","latitude":30,"longitude":30},"$maxDistance":0.3}}"#,
            matches: true),
        Fixture(
            object: ["location": point(40, 40)],
            where_:
                #"{"location":{"$nearSphere":{"__type":"GeoPoint","latitude":30,"longitude":30},"$maxDistanceInRadians":0.2}}"#,
            matches: false),
        Fixture(
            object: ["location": point(37.776346, -122.394218)],
            where_:
                #"{"location":{"$within":{"$box":[{"__type":"GeoPoint","latitude":37.708813,"longitude":-122.526398},{"__type":"GeoPoint","latitude":37.822802,"longitude":-122.373962}]}}}"#,
            matches: true),
        Fixture(
            object: ["location": point(37.325635, -121.945753)],
            where_:
                #"{"location":{"$within":{"$box":[{"__type":"GeoPoint","latitude":37.708813,"longitude":-122.526398},{"__type":"GeoPoint","latitude":37.822802,"longitude":-122.373962}]}}}"#,
            matches: false),
        Fixture(
            object: ["location": point(0.5, 0.5)],
            where_: #"{"location":{"$geoWithin":{"$polygon":[[0,0],[0,1],[1,1],[1,0]]}}}"#, matches: true),
        Fixture(
            object: ["location": point(1.5, 0.5)],
            where_: #"{"location":{"$geoWithin":{"$polygon":[[0,0],[0,1],[1,1],[1,0]]}}}"#, matches: false),
        Fixture(
            object: ["location": point(0, 0.5)], where_: #"{"location":{"$geoWithin":{"$centerSphere":[[0,0],0.01]}}}"#,
            matches: true),
        Fixture(
            object: [
                "bounds": .polygon([
                    GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 0, longitude: 1),
                    GeoPoint(latitude: 1, longitude: 1),
                ])
            ],
            where_: #"{"bounds":{"$geoIntersects":{"$point":{"__type":"GeoPoint","latitude":0.2,"longitude":0.5}}}}"#,
            matches: true),
        // Sub-objects with dot notation.
        Fixture(object: bill, where_: #"{"status.x":"read"}"#, matches: true),
        Fixture(object: bill, where_: #"{"status.z":"read"}"#, matches: false),
        Fixture(object: bill, where_: #"{"status.x":"delivered"}"#, matches: false),
        Fixture(object: bill, where_: #"{"status.x":{"$ne":"read"}}"#, matches: false),
        Fixture(object: bill, where_: #"{"status.z":{"$ne":"read"}}"#, matches: true),
        Fixture(object: bill, where_: #"{"status.x":{"$ne":"delivered"}}"#, matches: true),
    ]

    @Test(arguments: fixtures)
    func matches(_ f: Fixture) throws {
        let query = try ParseWhere.parse(f.where_, className: "Thing")
        let record = Record(objectId: "O1", fields: f.object.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        // Pointers resolve against the database; a dangling one would read as null.
        let users = db(["_User": [rec("U2", [:]), rec("U3", [:])]])
        let evaluator = ReferenceEvaluator(database: users)
        #expect(try evaluator.matches(record, className: "Thing", predicate: query.predicate) == f.matches)
    }

    /// T62: the seed's REST example, whole.
    @Test func restExampleFromTheSeed() throws {
        let body =
            #"{"where":{"city":"San Francisco","deviceType":{"$in":["ios","android","winphone","embedded"]}},"limit":1000}"#
        let query = try ParseWhere.parse(body, className: "_Installation", profile: .parse)
        let result = try ReferenceEvaluator(database: Datasets.installations).run(query)
        #expect(Set(result.objectIds) == ["i1", "i2"])
        let one =
            #"{"where":{"objectId":"i2","city":"San Francisco","deviceType":{"$in":["ios","android","winphone","embedded"]}},"limit":1}"#
        #expect(
            try ReferenceEvaluator(database: Datasets.installations)
                .run(ParseWhere.parse(one, className: "_Installation", profile: .parse)).objectIds == ["i2"])
    }

    /// TC-41 with REST JSON: the inner query's own limit lifts the truncation.
    @Test func innerLimitFromJSON() throws {
        let evaluator = ReferenceEvaluator(database: Datasets.manyPosts)
        let truncated =
            #"{"where":{"post":{"$inQuery":{"className":"Post","where":{"image":{"$exists":true}}}}},"limit":1000}"#
        #expect(
            try evaluator.run(ParseWhere.parse(truncated, className: "Comment", profile: .leancloud)).objectIds.count
                == 100)
        #expect(
            try evaluator.run(ParseWhere.parse(truncated, className: "Comment", profile: .exact)).objectIds.count == 150
        )
        let lifted =
            #"{"where":{"post":{"$inQuery":{"className":"Post","where":{"image":{"$exists":true}},"limit":1000}}},"limit":1000}"#
        #expect(
            try evaluator.run(ParseWhere.parse(lifted, className: "Comment", profile: .leancloud)).objectIds.count
                == 150)
    }
}
