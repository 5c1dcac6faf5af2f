import HTTPTypes
import Quarry
@testable import QuarryServer
import Testing

/// Parse REST under /parse: finds with every URL parameter, create/get/update/delete, the
/// update operators, batch, errors and keys.
@Suite struct ParseRoutesTests {
    typealias H = ServerHarness
    let master = H.parse(master: true)

    @Test func findWithParametersAndPlusAsSpace() async throws {
        try await H.withServer { (c: H.Client) async throws in
            #expect(try await c.ids("/parse/classes/Post?order=-score", headers: master) == ["p4", "p3", "p2", "p1"])
            #expect(
                try await c.ids(
                    "/parse/classes/Post?where=\(H.q(#"{"score":{"$gte":2}}"#))&order=score&limit=2&skip=1",
                    headers: master) == ["p3", "p4"])
            // Python's urlencode writes spaces as '+'.
            #expect(
                try await c.ids("/parse/classes/Post?where=%7B%22title%22%3A%22read+all%22%7D", headers: master) == [
                    "p4"
                ])
            let (_, keyed) = try await c.send(
                .get, "/parse/classes/Post?keys=title&where=\(H.q(#"{"objectId":"p1"}"#))")
            let object = try #require(keyed["results"]?[0]?.objectValue)
            #expect(object.keys.sorted() == ["objectId", "title"])
            let (_, excluded) = try await c.send(
                .get, "/parse/classes/Post?excludeKeys=title,tags&where=\(H.q(#"{"objectId":"p1"}"#))")
            #expect(excluded["results"]?[0]?["title"] == nil && excluded["results"]?[0]?["score"] == .int(1))
        }
    }

    @Test func countBesideResultsAndAlone() async throws {
        try await H.withServer { (c: H.Client) async throws in
            let (_, both) = try await c.send(.get, "/parse/classes/Post?count=1&limit=1&order=score", headers: master)
            #expect(both["count"] == .int(4))
            #expect(both["results"]?.arrayValue?.count == 1)
            let (_, alone) = try await c.send(.get, "/parse/classes/Post?count=1&limit=0", headers: master)
            #expect(alone == ["results": [], "count": 4])
            let (_, missing) = try await c.send(.get, "/parse/classes/Nothing?count=1")
            #expect(missing == ["results": [], "count": 0])
        }
    }

    @Test func postWithMethodGetIsAFind() async throws {
        try await H.withServer { (c: H.Client) async throws in
            let (status, json) = try await c.send(
                .post, "/parse/classes/Post", headers: master,
                body: #"{"_method":"GET","where":{"score":{"$in":[1,4]}},"order":"-score"}"#)
            #expect(status == .ok)
            #expect(json["results"]?.arrayValue?.compactMap { $0["objectId"]?.stringValue } == ["p4", "p1"])
        }
    }

    @Test func includeAnswersObjectsWithTypeObject() async throws {
        try await H.withServer { (c: H.Client) async throws in
            let (_, json) = try await c.send(
                .get, "/parse/classes/Comment?include=post&where=\(H.q(#"{"objectId":"c1"}"#))")
            let post = try #require(json["results"]?[0]?["post"])
            #expect(post["__type"] == "Object")
            #expect(post["className"] == "Post")
            #expect(post["title"] == "public")
        }
    }

    @Test func createGetUpdateDeleteWithParseShapes() async throws {
        try await H.withServer { (c: H.Client) async throws in
            let (created, answer) = try await c.send(
                .post, "/parse/classes/Game",
                body: #"{"name":"x","score":5,"when":{"__type":"Date","iso":"2020-01-02T03:04:05.006Z"}}"#)
            #expect(created == .created)
            let id = try #require(answer["objectId"]?.stringValue)
            #expect(id.count == 10)
            let createdAt = try #require(answer["createdAt"]?.stringValue)
            #expect(createdAt.count == 24 && createdAt.hasSuffix("Z"))
            #expect(answer.objectValue?.keys.sorted() == ["createdAt", "objectId"])

            let (_, fetched) = try await c.send(.get, "/parse/classes/Game/\(id)")
            #expect(fetched["name"] == "x")
            #expect(fetched["when"] == ["__type": "Date", "iso": "2020-01-02T03:04:05.006Z"])
            #expect(fetched["createdAt"] == .string(createdAt))

            let (updated, update) = try await c.send(.put, "/parse/classes/Game/\(id)", body: #"{"name":"y"}"#)
            #expect(updated == .ok)
            #expect(update.objectValue?.keys == ["updatedAt"])
            #expect(try await c.send(.get, "/parse/classes/Game/\(id)").1["name"] == "y")

            let (deleted, empty) = try await c.send(.delete, "/parse/classes/Game/\(id)")
            #expect(deleted == .ok && empty == .object([:]))
            let (gone, error) = try await c.send(.get, "/parse/classes/Game/\(id)")
            #expect(gone == .notFound)
            #expect(error == ["code": 101, "error": "Object not found."])
        }
    }

    @Test func updateOperators() async throws {
        try await H.withServer { (c: H.Client) async throws in
            let put = { (body: String) async throws -> (HTTPResponse.Status, JSON) in
                try await c.send(.put, "/parse/classes/Post/p1", headers: master, body: body)
            }
            _ = try await put(#"{"score":{"__op":"Increment","amount":10}}"#)
            _ = try await put(#"{"tags":{"__op":"Add","objects":["b","a"]}}"#)
            _ = try await put(#"{"tags":{"__op":"AddUnique","objects":["a","c"]}}"#)
            _ = try await put(#"{"tags":{"__op":"Remove","objects":["b"]}}"#)
            _ = try await put(#"{"title":{"__op":"Delete"}}"#)
            _ = try await put(
                #"{"fans":{"__op":"AddRelation","objects":[{"__type":"Pointer","className":"_User","objectId":"u1"},{"__type":"Pointer","className":"_User","objectId":"u2"}]}}"#
            )
            _ = try await put(
                #"{"fans":{"__op":"RemoveRelation","objects":[{"__type":"Pointer","className":"_User","objectId":"u1"}]}}"#
            )
            let (_, p1) = try await c.send(.get, "/parse/classes/Post/p1", headers: master)
            #expect(p1["score"] == .int(11))
            #expect(p1["tags"] == ["a", "a", "c"])
            #expect(p1["title"] == nil)
            #expect(p1["fans"]?["objects"]?.arrayValue?.compactMap { $0["objectId"]?.stringValue } == ["u2"])
            #expect(try await c.ids("/parse/classes/Post?where=\(H.q(#"{"score":11}"#))", headers: master) == ["p1"])

            let (status, error) = try await put(#"{"title":{"__op":"Increment","amount":1}}"#)
            #expect(status == .ok)  // title was deleted: Increment starts from 0
            let (bad, badError) = try await put(#"{"tags":{"__op":"Increment","amount":1}}"#)
            #expect(bad == .badRequest && badError["code"] == 107)
            let (unknown, unknownError) = try await put(#"{"tags":{"__op":"Frobnicate"}}"#)
            #expect(unknown == .badRequest && unknownError["error"]?.stringValue?.contains("Frobnicate") == true)
            _ = error
        }
    }

    @Test func batchRunsEachRequest() async throws {
        try await H.withServer { (c: H.Client) async throws in
            let body = """
                {"requests":[
                  {"method":"POST","path":"/parse/classes/Game","body":{"n":1}},
                  {"method":"PUT","path":"/parse/classes/Post/p1","body":{"score":100}},
                  {"method":"DELETE","path":"/parse/classes/Post/nope"},
                  {"method":"DELETE","path":"/parse/classes/Post/p4"}
                ]}
                """
            let (status, json) = try await c.send(.post, "/parse/batch", headers: master, body: body)
            #expect(status == .ok)
            let answers = try #require(json.arrayValue)
            #expect(answers.count == 4)
            #expect(answers[0]["success"]?["objectId"] != nil)
            #expect(answers[1]["success"]?["updatedAt"] != nil)
            #expect(answers[2]["error"] == ["code": 101, "error": "Object not found."])
            #expect(answers[3]["success"] == .object([:]))
            #expect(try await c.ids("/parse/classes/Post?order=score", headers: master) == ["p2", "p3", "p1"])
        }
    }

    @Test func errorsInParseShape() async throws {
        try await H.withServer { (c: H.Client) async throws in
            // parse-server answers an unknown operator with 107 ("bad constraint"), an exact array match with 102.
            let (s0, e0) = try await c.send(.get, "/parse/classes/Post?where=\(H.q(#"{"score":{"$bogus":1}}"#))")
            #expect(s0 == .badRequest && e0["code"] == 107)
            let (s1, e1) = try await c.send(.get, "/parse/classes/Post?where=\(H.q(#"{"tags":["a"]}"#))")
            #expect(s1 == .badRequest && e1["code"] == 102)
            let (s2, e2) = try await c.send(.get, "/parse/classes/Post?where=\(H.q("{nope"))")
            #expect(s2 == .badRequest && e2["code"] == 107)
            let (s3, e3) = try await c.send(.get, "/parse/classes/Post?limit=-1")
            #expect(s3 == .badRequest && e3["code"] == 117)
            let (s4, e4) = try await c.send(.post, "/parse/classes/Bad-Name", body: "{}")
            #expect(s4 == .badRequest && e4["code"] == 103)
            let (s5, e5) = try await c.send(.post, "/parse/classes/Game", body: #"{"1x":1}"#)
            #expect(s5 == .badRequest && e5["code"] == 105)
            let (s6, e6) = try await c.send(
                .post, "/parse/classes/Game", body: String(repeating: " ", count: 5000) + "{}")
            #expect(s6 == .contentTooLarge && e6["code"] == 107)
            let (s7, e7) = try await c.send(.post, "/parse/classes/Game", body: "[1]")
            #expect(s7 == .badRequest && e7["code"] == 107)
        }
    }

    @Test func keysAreRequired() async throws {
        try await H.withServer { (c: H.Client) async throws in
            let (s1, e1) = try await c.send(.get, "/parse/classes/Post", headers: [:])
            #expect(s1 == .forbidden && e1 == ["error": "unauthorized"])
            let wrongRest: HTTPFields = [Credentials.parseApplicationId: "app", Credentials.parseRESTKey: "nope"]
            #expect(try await c.send(.get, "/parse/classes/Post", headers: wrongRest).0 == .forbidden)
            let wrongMaster: HTTPFields = [Credentials.parseApplicationId: "app", Credentials.parseMasterKey: "nope"]
            #expect(try await c.send(.get, "/parse/classes/Post", headers: wrongMaster).0 == .forbidden)
            let (s4, health) = try await c.send(.get, "/health", headers: [:])
            #expect(s4 == .ok && health == ["status": "ok"])
        }
    }

    @Test func hostileRegexMeetsTheDeadline() async throws {
        var configuration = H.configuration
        configuration.limits.deadlineSeconds = 0.000_001
        try await H.withServer(configuration) { (c: H.Client) async throws in
            let (status, error) = try await c.send(
                .get, "/parse/classes/Post?where=\(H.q(#"{"title":{"$regex":"^(a+)+$"}}"#))")
            #expect(status == .badRequest)
            #expect(error["code"] == 124)
        }
    }

    /// A create that would make a class of the in-memory store too sparse (docs/STORAGE.md#sparse-fields)
    /// is refused with Parse's OBJECT_TOO_LARGE, and nothing is stored; one field more is fine.
    @Test func aCreateMakingAClassTooSparseIsRefused() async throws {
        let records = (0..<3_000).map { Record(objectId: "w\($0)", fields: [("n", .int(Int64($0)))]) }
        var limits = H.configuration.limits
        limits.maxSparseCells = 1 << 16
        let backend = InMemoryBackend(database: Database([ClassData(name: "Wide", records: records)]), limits: limits)
        try await H.withServer(backend: backend) { (c: H.Client) async throws in
            // 73 fields (createdAt and updatedAt too) × 3,001 objects: more than 2^16 cells and more
            // than 64 per value.
            let fields = (0..<70).map { "\"f\($0)\":1" }.joined(separator: ",")
            let (status, error) = try await c.send(.post, "/parse/classes/Wide", body: "{\(fields)}")
            #expect(status == .badRequest)
            #expect(error["code"] == 116)
            #expect(
                error["error"]?.stringValue?.hasPrefix("class 'Wide': the class would have 73 fields") == true,
                "\(error)")
            let (_, count) = try await c.send(.get, "/parse/classes/Wide?count=1&limit=0", headers: master)
            #expect(count["count"] == .int(3_000))
            let (created, _) = try await c.send(.post, "/parse/classes/Wide", body: #"{"extra":1}"#)
            #expect(created == .created)
        }
    }
}
