import Foundation
import Quarry
import QuarrySQLite
@testable import QuarryServer
import Testing

/// `POST /parse/batch` with `"transaction": true`: all the writes or none, on the in-memory
/// engine and on the SQLite store.
@Suite struct TransactionalBatchTests {
    typealias H = ServerHarness
    let master = H.parse(master: true)

    @Test func everyWriteLandsAndLaterOnesSeeEarlierOnes() async throws {
        try await H.withServer { (c: H.Client) async throws in
            let body = """
                {"transaction": true, "requests":[
                  {"method":"POST","path":"/parse/classes/Game","body":{"n":1}},
                  {"method":"PUT","path":"/parse/classes/Post/p1","body":{"score":{"__op":"Increment","amount":10}}},
                  {"method":"PUT","path":"/parse/classes/Post/p1","body":{"score":{"__op":"Increment","amount":100}}},
                  {"method":"DELETE","path":"/parse/classes/Post/p4"}
                ]}
                """
            let (status, json) = try await c.send(.post, "/parse/batch", headers: master, body: body)
            #expect(status == .ok)
            let answers = try #require(json.arrayValue)
            #expect(answers.count == 4)
            #expect(answers[0]["success"]?["objectId"] != nil)
            #expect(answers[3]["success"] == .object([:]))
            #expect(try await c.send(.get, "/parse/classes/Post/p1", headers: master).1["score"] == 111)
            #expect(try await c.ids("/parse/classes/Post?order=score", headers: master) == ["p2", "p3", "p1"])
            #expect(try await c.ids("/parse/classes/Game", headers: master).count == 1)
        }
    }

    @Test func oneFailureWritesNothing() async throws {
        try await H.withServer { (c: H.Client) async throws in
            // The third request updates the object the second deleted: it fails, and so does the whole.
            let body = """
                {"transaction": true, "requests":[
                  {"method":"POST","path":"/parse/classes/Game","body":{"n":1}},
                  {"method":"DELETE","path":"/parse/classes/Post/p1"},
                  {"method":"PUT","path":"/parse/classes/Post/p1","body":{"score":5}}
                ]}
                """
            let (status, json) = try await c.send(.post, "/parse/batch", headers: master, body: body)
            #expect(status == .notFound)
            #expect(json["code"] == 101)
            #expect(
                json["error"]?.stringValue?.hasPrefix("batch request 2 failed, so the transaction wrote nothing")
                    == true)
            #expect(try await c.ids("/parse/classes/Game", headers: master) == [])
            #expect(try await c.ids("/parse/classes/Post?order=score", headers: master) == ["p1", "p2", "p3", "p4"])
        }
    }

    @Test func writeACLsHoldInsideATransaction() async throws {
        try await H.withServer { (c: H.Client) async throws in
            // p2 is writable by u1 only: an anonymous transaction touching it writes nothing.
            let body = """
                {"transaction": true, "requests":[
                  {"method":"PUT","path":"/parse/classes/Post/p1","body":{"score":50}},
                  {"method":"PUT","path":"/parse/classes/Post/p2","body":{"score":50}}
                ]}
                """
            let (status, json) = try await c.send(.post, "/parse/batch", body: body)
            #expect(status == .notFound && json["code"] == 101)
            #expect(try await c.send(.get, "/parse/classes/Post/p1").1["score"] == 1)
            let (okStatus, _) = try await c.send(.post, "/parse/batch", headers: H.parse(session: "r:ann"), body: body)
            #expect(okStatus == .ok)
            #expect(try await c.send(.get, "/parse/classes/Post/p2", headers: master).1["score"] == 50)
        }
    }

    @Test func readsAndMalformedRequestsAreRefusedBeforeAnyWrite() async throws {
        try await H.withServer { (c: H.Client) async throws in
            let withRead = """
                {"transaction": true, "requests":[
                  {"method":"POST","path":"/parse/classes/Game","body":{"n":1}},
                  {"method":"GET","path":"/parse/classes/Post"}
                ]}
                """
            let (s1, e1) = try await c.send(.post, "/parse/batch", headers: master, body: withRead)
            #expect(s1 == .badRequest && e1["code"] == 107)
            #expect(e1["error"] == "batch request 1: a transaction holds only writes (POST, PUT, DELETE), not GET")
            let unroutable = """
                {"transaction": true, "requests":[
                  {"method":"POST","path":"/parse/classes/Game","body":{"n":1}},
                  {"method":"PATCH","path":"/parse/classes/Game/x"}
                ]}
                """
            let (s2, e2) = try await c.send(.post, "/parse/batch", headers: master, body: unroutable)
            #expect(s2 == .badRequest && e2["code"] == 107)
            #expect(try await c.ids("/parse/classes/Game", headers: master) == [])
        }
    }

    @Test func aFailedTransactionLeavesTheSQLiteStoreAsItWas() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-tx-\(UUID().uuidString).db")
            .path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try SQLiteStore(path: path, limits: H.configuration.limits)
        var changes: [StoreChange] = []
        for record in try H.database()["Post"]?.records ?? [] { changes.append(.save(record, in: "Post")) }
        try await store.write(changes)
        try await H.withServer(backend: store) { (c: H.Client) async throws in
            let failing = """
                {"transaction": true, "requests":[
                  {"method":"PUT","path":"/parse/classes/Post/p1","body":{"score":9}},
                  {"method":"POST","path":"/parse/classes/Post","body":{"title":"new"}},
                  {"method":"PUT","path":"/parse/classes/Post/p1","body":{"score":{"__op":"Increment","amount":"x"}}}
                ]}
                """
            let (status, json) = try await c.send(.post, "/parse/batch", headers: master, body: failing)
            #expect(status == .badRequest && json["code"] != nil)
            let passing = failing.replacingOccurrences(of: #""amount":"x""#, with: #""amount":1"#)
            #expect(try await c.send(.post, "/parse/batch", headers: master, body: passing).0 == .ok)
        }
        let reopened = try SQLiteStore(path: path)
        let posts = try await reopened.run(Query(className: "Post"), variables: [:]).records
        #expect(posts.map { $0["score"] } == [.int(10), .int(2), .int(3), .int(4), nil])
        #expect(posts.last?["title"] == .string("new"))
    }
}
