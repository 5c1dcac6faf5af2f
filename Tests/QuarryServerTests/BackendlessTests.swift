import HTTPTypes
import Quarry
@testable import QuarryServer
import Testing

/// Backendless's `relationsDepth` (under ACLs) and its keys-in-the-URL form.
@Suite struct BackendlessTests {
    typealias H = ServerHarness
    static let keys = PlatformTests.backendless
    static let master = PlatformTests.lc([("application-id", "app"), ("secret-key", "master")])

    @Test func relationsDepthEmbedsPointersLevelByLevel() async throws {
        try await H.withServer { (c: H.Client) async throws in
            let (_, one) = try await c.send(.get, "/api/data/Comment/c1?relationsDepth=1", headers: Self.keys)
            #expect(one["post"]?["title"] == "public" && one["post"]?["___class"] == nil)
            #expect(one["post"]?["author"] == ["__type": "Pointer", "className": "_User", "objectId": "u1"])
            let (_, two) = try await c.send(.get, "/api/data/Comment/c1?relationsDepth=2", headers: Self.keys)
            #expect(two["post"]?["author"]?["username"] == "ann")
            #expect(two["post"]?["author"]?["__type"] == "Object")
            let (_, zero) = try await c.send(.get, "/api/data/Comment/c1?relationsDepth=0", headers: Self.keys)
            #expect(zero["post"]?["__type"] == "Pointer")
            // loadRelations' objects count as the first level.
            let (_, mixed) = try await c.send(
                .get, "/api/data/Comment/c1?loadRelations=post&relationsDepth=2", headers: Self.keys)
            #expect(mixed["post"]?["author"]?["username"] == "ann")
        }
    }

    @Test func relationsDepthShowsOnlyReadableObjects() async throws {
        try await H.withServer { (c: H.Client) async throws in
            let uri = "/api/data/Comment?sortBy=text&relationsDepth=1"
            let (_, anonymous) = try await c.send(.get, uri, headers: Self.keys)
            let posts = try #require(anonymous.arrayValue).map { $0["post"]?["__type"]?.stringValue }
            // p2 is u1's and p3 the editors': they stay pointers.
            #expect(posts == ["Object", "Pointer", "Pointer"])
            var bob = Self.keys
            bob[HTTPField.Name("user-token")!] = "r:bob"
            let (_, editor) = try await c.send(.get, uri, headers: bob)
            #expect(
                try #require(editor.arrayValue).map { $0["post"]?["__type"]?.stringValue } == [
                    "Object", "Pointer", "Object",
                ])
            let (_, master) = try await c.send(.get, uri, headers: Self.master)
            #expect(try #require(master.arrayValue).map { $0["post"]?["score"] } == [1, 2, 3])
        }
    }

    @Test func relationsDepthOutOfRangeIsAnError() async throws {
        try await H.withServer { (c: H.Client) async throws in
            let (s1, e1) = try await c.send(.get, "/api/data/Comment?relationsDepth=11", headers: Self.keys)
            #expect(s1 == .badRequest && e1 == ["code": 102, "message": "relationsDepth must be at most 10, not 11"])
            let (s2, e2) = try await c.send(.get, "/api/data/Comment?relationsDepth=-1", headers: Self.keys)
            #expect(s2 == .badRequest && e2["code"] == 102)
        }
    }

    @Test func keysInTheURL() async throws {
        try await H.withServer { (c: H.Client) async throws in
            let (status, json) = try await c.send(.get, "/app/rest/data/Post?sortBy=score", headers: [:])
            #expect(status == .ok)
            #expect(json.arrayValue?.compactMap { $0["objectId"]?.stringValue } == ["p1", "p4"])
            #expect(try await c.send(.get, "/app/master/data/Post/count", headers: [:]).1 == 4)
            #expect(try await c.send(.get, "/app/rest/data/Post/p2", headers: [:]).0 == .notFound)
            let (created, body) = try await c.send(.post, "/app/rest/data/Game", headers: [:], body: #"{"n":1}"#)
            #expect(created == .ok && body["___class"] == "Game")
            let (wrong, refusal) = try await c.send(.get, "/app/wrong/data/Post", headers: [:])
            #expect(wrong == .forbidden && refusal == ["message": "unauthorized"])
            var ann = HTTPFields()
            ann[HTTPField.Name("user-token")!] = "r:ann"
            #expect(try await c.send(.get, "/app/rest/data/Post/p2", headers: ann).1["title"] == "u1 only")
        }
    }
}
