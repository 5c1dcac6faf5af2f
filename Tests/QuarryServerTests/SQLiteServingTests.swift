import Foundation
import HTTPTypes
import Quarry
import QuarrySQLite
@testable import QuarryServer
import Testing

/// The same routes over the SQLite store: ACLs, inner queries, writes that persist.
@Suite struct SQLiteServingTests {
    typealias H = ServerHarness

    @Test func aclsAndWritesOverTheSQLiteStore() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-serve-\(UUID().uuidString).db")
            .path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try SQLiteStore(path: path, limits: H.configuration.limits)
        let database = try H.database()
        var changes: [StoreChange] = []
        for name in database.classNames {
            for record in database[name]?.records ?? [] { changes.append(.save(record, in: name)) }
        }
        try await store.write(changes)
        try await H.withServer(backend: store) { (c: H.Client) async throws in
            #expect(try await c.ids("/parse/classes/Post?order=score") == ["p1", "p4"])
            #expect(
                try await c.ids("/parse/classes/Post?order=score", headers: H.parse(session: "r:bob")) == [
                    "p1", "p3", "p4",
                ])
            let inQuery = H.q(#"{"post":{"$inQuery":{"className":"Post","where":{}}}}"#)
            #expect(try await c.ids("/parse/classes/Comment?where=\(inQuery)") == ["c1"])
            #expect(try await c.send(.get, "/parse/classes/Post?count=1&limit=0").1["count"] == 2)
            let (_, created) = try await c.send(.post, "/parse/classes/Game", body: #"{"n":1}"#)
            let id = try #require(created["objectId"]?.stringValue)
            _ = try await c.send(.put, "/parse/classes/Game/\(id)", body: #"{"n":{"__op":"Increment","amount":2}}"#)
            #expect(try await c.send(.get, "/parse/classes/Game/\(id)").1["n"] == 3)
        }
        let reopened = try SQLiteStore(path: path)
        let games = try await reopened.run(Query(className: "Game"), variables: [:]).records
        #expect(games.map { $0["n"] } == [.int(3)])
    }
}
