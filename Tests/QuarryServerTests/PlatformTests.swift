import HTTPTypes
import Quarry
@testable import QuarryServer
import Testing

/// LeanCloud under /1.1 (keys and signatures), Backendless under /api/data, POST /query.
@Suite struct PlatformTests {
    typealias H = ServerHarness

    static func lc(_ pairs: [(String, String)]) -> HTTPFields {
        var h = HTTPFields()
        for (name, value) in pairs { h[HTTPField.Name(name)!] = value }
        return h
    }

    @Test func md5MatchesKnownDigests() {
        #expect(MD5.hex("") == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(MD5.hex("The quick brown fox jumps over the lazy dog") == "9e107d9d372bb6826bd81d3542a419d6")
        #expect(MD5.hex(String(repeating: "a", count: 100)) == "36a92cc94a9e0fa21f625f8bfb007adf")
    }

    @Test func leanCloudKeysAndSignatures() async throws {
        try await H.withServer { (c: H.Client) async throws in
            let key = Self.lc([("X-LC-Id", "app"), ("X-LC-Key", "rest")])
            #expect(try await c.ids("/1.1/classes/Post?order=score", headers: key) == ["p1", "p4"])
            let masterKey = Self.lc([("X-LC-Id", "app"), ("X-LC-Key", "master,master")])
            #expect(try await c.ids("/1.1/classes/Post?order=score", headers: masterKey).count == 4)
            let signed = Self.lc([("X-LC-Id", "app"), ("X-LC-Sign", MD5.hex("1700000000000rest") + ",1700000000000")])
            #expect(try await c.ids("/1.1/classes/Post?order=score", headers: signed) == ["p1", "p4"])
            let masterSigned = Self.lc([("X-LC-Id", "app"), ("X-LC-Sign", MD5.hex("17master") + ",17,master")])
            #expect(try await c.ids("/1.1/classes/Post", headers: masterSigned).count == 4)
            let badSign = Self.lc([("X-LC-Id", "app"), ("X-LC-Sign", MD5.hex("17wrong") + ",17")])
            let (badStatus, badBody) = try await c.send(.get, "/1.1/classes/Post", headers: badSign)
            #expect(badStatus == .forbidden && badBody == ["error": "unauthorized"])
            let wrongApp = Self.lc([("X-LC-Id", "other"), ("X-LC-Key", "rest")])
            #expect(try await c.send(.get, "/1.1/classes/Post", headers: wrongApp).0 == .forbidden)
            let session = Self.lc([("X-LC-Id", "app"), ("X-LC-Key", "rest"), ("X-LC-Session", "r:ann")])
            #expect(try await c.ids("/1.1/classes/Post?order=score", headers: session) == ["p1", "p2", "p4"])
        }
    }

    @Test func leanCloudFetchWhenSave() async throws {
        try await H.withServer { (c: H.Client) async throws in
            let key = Self.lc([("X-LC-Id", "app"), ("X-LC-Key", "rest")])
            let (status, plain) = try await c.send(
                .post, "/1.1/classes/Game?fetchWhenSave=false", headers: key, body: #"{"a":1}"#)
            #expect(status == .created && plain.objectValue?.keys.sorted() == ["createdAt", "objectId"])
            let (_, full) = try await c.send(
                .post, "/1.1/classes/Game?fetchWhenSave=true", headers: key, body: #"{"a":1}"#)
            #expect(full["a"] == 1 && full["updatedAt"] != nil)
        }
    }

    static let backendless = lc([("application-id", "app"), ("secret-key", "rest")])

    @Test func backendlessFindsInTheSQLDialect() async throws {
        try await H.withServer { (c: H.Client) async throws in
            let (status, json) = try await c.send(
                .get,
                "/api/data/Post?where=\(H.q("score >= 1 AND title LIKE '%a%'"))&sortBy=\(H.q("score DESC"))&pageSize=1&offset=0&props=title",
                headers: Self.backendless)
            #expect(status == .ok)
            #expect(json == [["objectId": "p4", "title": "read all", "___class": "Post"]])
            let (_, count) = try await c.send(
                .get, "/api/data/Post/count?where=\(H.q("score > 0"))", headers: Self.backendless)
            #expect(count == 2)
            let (_, related) = try await c.send(
                .get, "/api/data/Comment/c1?loadRelations=post", headers: Self.backendless)
            #expect(related["post"]?["title"] == "public")
            let (bad, error) = try await c.send(
                .get, "/api/data/Post?where=\(H.q("score >"))", headers: Self.backendless)
            #expect(bad == .badRequest && error["message"] != nil && error["error"] == nil)
            let (s, e) = try await c.send(.get, "/api/data/Post?pageSize=x", headers: Self.backendless)
            #expect(s == .badRequest && e["code"] == 117)
        }
    }

    @Test func backendlessWrites() async throws {
        try await H.withServer { (c: H.Client) async throws in
            let (_, created) = try await c.send(.post, "/api/data/Game", headers: Self.backendless, body: #"{"n":1}"#)
            let id = try #require(created["objectId"]?.stringValue)
            #expect(created["created"]?.doubleValue != nil && created["___class"] == "Game")
            let (_, updated) = try await c.send(
                .put, "/api/data/Game/\(id)", headers: Self.backendless, body: #"{"n":2}"#)
            #expect(updated["n"] == 2)
            let (_, deleted) = try await c.send(.delete, "/api/data/Game/\(id)", headers: Self.backendless)
            #expect(deleted["deletionTime"]?.doubleValue != nil)
            #expect(try await c.send(.get, "/api/data/Game/\(id)", headers: Self.backendless).0 == .notFound)
        }
    }

    @Test func queryRouteTakesEveryDialect() async throws {
        try await H.withServer { (c: H.Client) async throws in
            let master = H.parse(master: true)
            let predicate =
                #"{"dialect":"predicate","className":"Post","query":"score > %@ AND title BEGINSWITH $t","args":[1],"vars":{"t":"r"},"order":"score"}"#
            let (_, p) = try await c.send(.post, "/query", headers: master, body: predicate)
            #expect(p["results"]?.arrayValue?.compactMap { $0["objectId"]?.stringValue } == ["p4"])
            let sql = #"{"dialect":"sql","className":"Post","query":"score IN (1, 2, 3)","count":1,"limit":0}"#
            #expect(try await c.send(.post, "/query", headers: H.parse(), body: sql).1["count"] == 1)
            let bad = #"{"dialect":"cobol","className":"Post","query":"x"}"#
            #expect(try await c.send(.post, "/query", headers: master, body: bad).1["code"] == 102)
        }
    }
}
