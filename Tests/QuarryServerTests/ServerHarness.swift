import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Quarry
@testable import QuarryServer

/// A server over a small in-memory database, driven through Hummingbird's router test client.
/// `Post` p1 is public, p2 readable by user u1 only, p3 by role `editors` (which u2 holds
/// through `staff`, a role whose `roles` hold... see the data), p4 public-read with write for u1.
enum ServerHarness {
    static let data = """
        {
          "Post": [
            {"objectId": "p1", "title": "public", "score": 1, "tags": ["a"], "author": {"__type":"Pointer","className":"_User","objectId":"u1"}},
            {"objectId": "p2", "title": "u1 only", "score": 2, "ACL": {"u1": {"read": true, "write": true}}},
            {"objectId": "p3", "title": "editors", "score": 3, "ACL": {"role:editors": {"read": true}}},
            {"objectId": "p4", "title": "read all", "score": 4, "ACL": {"*": {"read": true}, "u1": {"write": true}}}
          ],
          "Comment": [
            {"objectId": "c1", "text": "on p1", "post": {"__type":"Pointer","className":"Post","objectId":"p1"}},
            {"objectId": "c2", "text": "on p2", "post": {"__type":"Pointer","className":"Post","objectId":"p2"}},
            {"objectId": "c3", "text": "on p3", "post": {"__type":"Pointer","className":"Post","objectId":"p3"}}
          ],
          "_User": [
            {"objectId": "u1", "username": "ann"},
            {"objectId": "u2", "username": "bob"}
          ],
          "_Session": [
            {"objectId": "s1", "sessionToken": "r:ann", "user": {"__type":"Pointer","className":"_User","objectId":"u1"},
             "expiresAt": {"__type":"Date","iso":"2999-01-01T00:00:00.000Z"}},
            {"objectId": "s2", "sessionToken": "r:bob", "user": {"__type":"Pointer","className":"_User","objectId":"u2"},
             "expiresAt": {"__type":"Date","iso":"2999-01-01T00:00:00.000Z"}},
            {"objectId": "s3", "sessionToken": "r:old", "user": {"__type":"Pointer","className":"_User","objectId":"u1"},
             "expiresAt": {"__type":"Date","iso":"2000-01-01T00:00:00.000Z"}}
          ],
          "_Role": [
            {"objectId": "r1", "name": "staff", "users": {"__type":"Relation","className":"_User","objects":[{"__type":"Pointer","className":"_User","objectId":"u2"}]}},
            {"objectId": "r2", "name": "editors", "roles": {"__type":"Relation","className":"_Role","objects":[{"__type":"Pointer","className":"_Role","objectId":"r1"}]}}
          ]
        }
        """

    static func database() throws -> Database {
        try DataFile.load(bytes: Array(data.utf8), fileName: "test.json", className: "Object")
    }

    static let configuration = ServerConfiguration(
        applicationId: "app", restKey: "rest", masterKey: "master",
        maxBodyBytes: 4096)

    /// Runs `body` against a fresh server on a fresh copy of the data.
    static func withServer(
        _ configuration: ServerConfiguration = configuration,
        backend: (any QueryBackend)? = nil,
        _ body: @Sendable (Client) async throws -> Void
    ) async throws {
        let store = try backend ?? InMemoryBackend(database: database(), limits: configuration.limits)
        let server = QuarryServer(backend: store, configuration: configuration)
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client in
            try await body(Client(client: client))
        }
    }

    /// Parse headers: app id and REST key, plus a session token or the master key.
    static func parse(session: String? = nil, master: Bool = false) -> HTTPFields {
        var h: HTTPFields = [Credentials.parseApplicationId: "app", Credentials.parseRESTKey: "rest"]
        if let session { h[Credentials.parseSessionToken] = session }
        if master { h[Credentials.parseMasterKey] = "master" }
        return h
    }

    struct Client: Sendable {
        let client: any TestClientProtocol

        /// Sends a request; answers the status and the parsed JSON body.
        func send(
            _ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields = ServerHarness.parse(),
            body: String? = nil
        ) async throws -> (HTTPResponse.Status, JSON) {
            try await client.execute(
                uri: uri, method: method, headers: headers,
                body: body.map { ByteBuffer(string: $0) }
            ) { response in
                let bytes = Array(response.body.readableBytesView)
                return (response.status, try JSONParser().parse(bytes))
            }
        }

        /// The objectIds of a find's results.
        func ids(_ uri: String, headers: HTTPFields = ServerHarness.parse()) async throws -> [String] {
            let (status, json) = try await send(.get, uri, headers: headers)
            guard status == .ok, case .array(let results)? = json["results"] else { throw Unexpected(json: json) }
            return results.compactMap { $0["objectId"]?.stringValue }
        }
    }

    struct Unexpected: Error, CustomStringConvertible {
        var json: JSON
        var description: String { JSONWriter.string(json) }
    }

    /// A URL query parameter value, percent-encoded as a form would.
    static func q(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed)!
    }
}
