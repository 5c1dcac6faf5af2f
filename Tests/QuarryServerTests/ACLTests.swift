import HTTPTypes
import Quarry
@testable import QuarryServer
import Testing

/// Object ACLs: the read condition in the filter (top level, inner queries, counts), includes
/// of unreadable objects left as pointers, write ACLs, sessions and transitive roles, the
/// master key bypassing all of it.
@Suite struct ACLTests {
    typealias H = ServerHarness
    let anonymous = H.parse()
    let ann = H.parse(session: "r:ann")  // u1
    let bob = H.parse(session: "r:bob")  // u2, in staff, so in editors
    let master = H.parse(master: true)

    @Test func findsSeeOnlyReadableRows() async throws {
        try await H.withServer { (c: H.Client) async throws in
            #expect(try await c.ids("/parse/classes/Post?order=score", headers: anonymous) == ["p1", "p4"])
            #expect(try await c.ids("/parse/classes/Post?order=score", headers: ann) == ["p1", "p2", "p4"])
            #expect(try await c.ids("/parse/classes/Post?order=score", headers: bob) == ["p1", "p3", "p4"])
            #expect(try await c.ids("/parse/classes/Post?order=score", headers: master) == ["p1", "p2", "p3", "p4"])
            #expect(try await c.send(.get, "/parse/classes/Post/p2", headers: anonymous).0 == .notFound)
            #expect(try await c.send(.get, "/parse/classes/Post/p2", headers: ann).1["title"] == "u1 only")
        }
    }

    @Test func countsAndInnerQueriesCannotReachHiddenRows() async throws {
        try await H.withServer { (c: H.Client) async throws in
            #expect(try await c.send(.get, "/parse/classes/Post?count=1&limit=0", headers: anonymous).1["count"] == 2)
            let inQuery = H.q(#"{"post":{"$inQuery":{"className":"Post","where":{"score":{"$gt":0}}}}}"#)
            #expect(try await c.ids("/parse/classes/Comment?where=\(inQuery)&order=text", headers: anonymous) == ["c1"])
            #expect(
                try await c.ids("/parse/classes/Comment?where=\(inQuery)&order=text", headers: master) == [
                    "c1", "c2", "c3",
                ])
            let notIn = H.q(#"{"post":{"$notInQuery":{"className":"Post","where":{}}}}"#)
            #expect(
                try await c.ids("/parse/classes/Comment?where=\(notIn)&order=text", headers: anonymous) == ["c2", "c3"])
            // $select: comments whose post's objectId is the objectId of a readable post titled like it.
            let select = H.q(#"{"text":{"$select":{"query":{"className":"Post","where":{}},"key":"title"}}}"#)
            #expect(try await c.ids("/parse/classes/Comment?where=\(select)", headers: master) == [])
            let titles = H.q(#"{"title":{"$select":{"query":{"className":"Post","where":{}},"key":"title"}}}"#)
            #expect(
                try await c.ids("/parse/classes/Post?where=\(titles)&order=score", headers: anonymous) == ["p1", "p4"])
        }
    }

    @Test func includesOfHiddenObjectsStayPointers() async throws {
        try await H.withServer { (c: H.Client) async throws in
            let (_, json) = try await c.send(.get, "/parse/classes/Comment?include=post&order=text", headers: anonymous)
            let posts = try #require(json["results"]?.arrayValue).map { $0["post"] }
            #expect(posts[0]?["__type"] == "Object")
            #expect(posts[1] == ["__type": "Pointer", "className": "Post", "objectId": "p2"])
            #expect(posts[2] == ["__type": "Pointer", "className": "Post", "objectId": "p3"])
            let (_, asBob) = try await c.send(.get, "/parse/classes/Comment?include=post&order=text", headers: bob)
            #expect(asBob["results"]?[2]?["post"]?["__type"] == "Object")
        }
    }

    @Test func theConditionIsPlannedAndVisibleInExplain() async throws {
        let backend = InMemoryBackend(database: try H.database())
        let policy = ACLPolicy(principal: Principal(isMaster: false, userId: "u1", roleNames: ["editors"]))
        let query = policy.restrict(Query(className: "Post", predicate: Filters.equals("score", .int(2))))
        let plan = try await backend.explain(query, variables: [:]).plan.joined(separator: "\n")
        #expect(plan.contains("ACL"))
        #expect(plan.contains("role:editors"))
        #expect(try await backend.run(query, variables: [:]).objectIds == ["p2"])
    }

    @Test func writesCheckWriteACLs() async throws {
        try await H.withServer { (c: H.Client) async throws in
            // p4: everyone may read, only u1 may write.
            let (s1, e1) = try await c.send(.put, "/parse/classes/Post/p4", headers: anonymous, body: #"{"score":9}"#)
            #expect(s1 == .notFound && e1["code"] == 101)
            #expect(try await c.send(.delete, "/parse/classes/Post/p4", headers: bob).0 == .notFound)
            #expect(try await c.send(.put, "/parse/classes/Post/p4", headers: ann, body: #"{"score":9}"#).0 == .ok)
            // p3: editors may read but nobody may write but the master key.
            #expect(
                try await c.send(.put, "/parse/classes/Post/p3", headers: bob, body: #"{"score":9}"#).0 == .notFound)
            #expect(try await c.send(.delete, "/parse/classes/Post/p3", headers: master).0 == .ok)
            // p1 has no ACL: public.
            #expect(
                try await c.send(.put, "/parse/classes/Post/p1", headers: anonymous, body: #"{"score":9}"#).0 == .ok)
            #expect(
                try await c.ids("/parse/classes/Post?where=\(H.q(#"{"score":9}"#))&order=objectId", headers: master)
                    == ["p1", "p4"])
        }
    }

    @Test func sessionsMustExistAndBeCurrent() async throws {
        try await H.withServer { (c: H.Client) async throws in
            let (s1, e1) = try await c.send(.get, "/parse/classes/Post", headers: H.parse(session: "r:nobody"))
            #expect(s1 == .badRequest && e1["code"] == 209)
            let (s2, e2) = try await c.send(.get, "/parse/classes/Post", headers: H.parse(session: "r:old"))
            #expect(s2 == .badRequest && e2["code"] == 209)
        }
    }

    @Test func createdObjectsKeepTheirACL() async throws {
        try await H.withServer { (c: H.Client) async throws in
            let (_, created) = try await c.send(
                .post, "/parse/classes/Post", headers: ann,
                body: #"{"title":"mine","ACL":{"u1":{"read":true,"write":true}}}"#)
            let id = try #require(created["objectId"]?.stringValue)
            #expect(try await c.send(.get, "/parse/classes/Post/\(id)", headers: ann).0 == .ok)
            #expect(try await c.send(.get, "/parse/classes/Post/\(id)", headers: bob).0 == .notFound)
        }
    }
}
