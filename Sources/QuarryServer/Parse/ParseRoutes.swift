import HTTPTypes
import Hummingbird
import Quarry

/// Parse's REST data API (and LeanCloud's, which is the same under `/1.1` with its own
/// headers): find, create, get, update, delete and batch on `classes/{class}`.
struct ParseRoutes: Sendable {
    let service: DataService
    let resolver: PrincipalResolver
    let authenticate: @Sendable (HTTPFields) throws(APIError) -> Credentials.Claim
    let profile: Profile
    let maxBodyBytes: Int

    func register(on router: Router<BasicRequestContext>, prefix: String) {
        let classes = "\(prefix)/classes/:className"
        let object = "\(prefix)/classes/:className/:objectId"
        router.get(RouterPath(classes)) { request, context in
            await Wire.handle { () async throws(APIError) -> Response in
                let principal = try await principal(request)
                let body = try Self.findBody(FormQuery(request.uri.query ?? ""))
                return Wire.json(
                    try await service.find(try className(context), body: body, principal: principal, profile: profile))
            }
        }
        router.post(RouterPath(classes)) { request, context in
            await Wire.handle { () async throws(APIError) -> Response in
                let principal = try await principal(request)
                let body = try await Wire.body(request, limit: maxBodyBytes)
                let name = try className(context)
                if body["_method"]?.stringValue == "GET" {
                    return Wire.json(try await service.find(name, body: body, principal: principal, profile: profile))
                }
                let created = try await service.create(
                    name, body: body, principal: principal,
                    fetchWhenSave: Self.fetchWhenSave(request))
                var response = Wire.json(created, status: .created)
                if let id = created["objectId"]?.stringValue {
                    response.headers[.location] = "\(prefix)/classes/\(name)/\(id)"
                }
                return response
            }
        }
        router.get(RouterPath(object)) { request, context in
            await Wire.handle { () async throws(APIError) -> Response in
                let principal = try await principal(request)
                let query = FormQuery(request.uri.query ?? "")
                var body = JSONObject()
                for name in ["keys", "excludeKeys", "include"] { if let v = query[name] { body[name] = .string(v) } }
                return Wire.json(
                    try await service.get(
                        try className(context), objectId: try objectId(context), body: body,
                        principal: principal, profile: profile))
            }
        }
        router.put(RouterPath(object)) { request, context in
            await Wire.handle { () async throws(APIError) -> Response in
                let principal = try await principal(request)
                let body = try await Wire.body(request, limit: maxBodyBytes)
                return Wire.json(
                    try await service.update(
                        try className(context), objectId: try objectId(context), body: body,
                        principal: principal, fetchWhenSave: Self.fetchWhenSave(request)))
            }
        }
        router.delete(RouterPath(object)) { request, context in
            await Wire.handle { () async throws(APIError) -> Response in
                let principal = try await principal(request)
                return Wire.json(
                    try await service.delete(
                        try className(context), objectId: try objectId(context),
                        principal: principal))
            }
        }
        router.post(RouterPath("\(prefix)/batch")) { request, _ in
            await Wire.handle { () async throws(APIError) -> Response in
                let principal = try await principal(request)
                let body = try await Wire.body(request, limit: maxBodyBytes)
                return Wire.json(try await batch(body, principal: principal))
            }
        }
    }

    /// The request's principal: master, a session's user with their roles, or anonymous.
    func principal(_ request: Request) async throws(APIError) -> Principal {
        let claim = try authenticate(request.headers)
        if claim.isMaster { return .master }
        if let token = claim.sessionToken { return try await resolver.principal(sessionToken: token) }
        return .anonymous
    }

    /// `POST /batch {"requests":[{"method","path","body"}]}`: each request in order, each
    /// answered `{"success":…}` or `{"error":{"code","error"}}`. With `"transaction": true`
    /// the writes are all-or-nothing instead (docs/SERVER.md#batch): the answers, or the first
    /// failure's error and nothing written.
    func batch(_ body: JSONObject, principal: Principal) async throws(APIError) -> JSON {
        guard case .array(let requests)? = body["requests"] else {
            throw .parse(APIError.invalidJSON, "requests must be an array")
        }
        if body["transaction"] == .bool(true) {
            var writes: [BatchWrite] = []
            for (index, request) in requests.enumerated() {
                guard case .write(let write) = try Self.route(request, index: index) else {
                    throw .parse(
                        APIError.invalidJSON,
                        "batch request \(index): a transaction holds only writes (POST, PUT, DELETE), not GET")
                }
                writes.append(write)
            }
            let answers = try await service.transaction(writes, principal: principal)
            return .array(answers.map { ["success": $0] })
        }
        var answers: [JSON] = []
        for (index, request) in requests.enumerated() {
            do throws(APIError) {
                answers.append(["success": try await run(try Self.route(request, index: index), principal: principal)])
            } catch {
                answers.append(["error": error.body(backendless: false)])
            }
        }
        return .array(answers)
    }

    /// A batch request routed: a write, or a read (`GET` of a class or an object).
    enum BatchRequest {
        case write(BatchWrite)
        case read(className: String, objectId: String?, body: JSONObject)
    }

    static func route(_ request: JSON, index: Int) throws(APIError) -> BatchRequest {
        guard case .string(let method)? = request["method"], case .string(let path)? = request["path"] else {
            throw .parse(APIError.invalidJSON, "batch request \(index) needs a 'method' and a 'path'")
        }
        let body = request["body"]?.objectValue ?? JSONObject()
        let parts = path.split(separator: "/").map(String.init)
        guard let at = parts.firstIndex(of: "classes"), at + 1 < parts.count, parts.count <= at + 3 else {
            throw .parse(APIError.invalidJSON, "cannot route batch request path \(path)")
        }
        let name = parts[at + 1]
        let id = at + 2 < parts.count ? parts[at + 2] : nil
        switch (method.uppercased(), id) {
        case ("POST", nil): return .write(.create(className: name, body: body))
        case ("PUT", let id?): return .write(.update(className: name, objectId: id, body: body))
        case ("DELETE", let id?): return .write(.delete(className: name, objectId: id))
        case ("GET", let id): return .read(className: name, objectId: id, body: body)
        default: throw .parse(APIError.invalidJSON, "cannot route batch request \(method) \(path)")
        }
    }

    private func run(_ request: BatchRequest, principal: Principal) async throws(APIError) -> JSON {
        switch request {
        case .write(.create(let name, let body)):
            return try await service.create(name, body: body, principal: principal)
        case .write(.update(let name, let id, let body)):
            return try await service.update(name, objectId: id, body: body, principal: principal)
        case .write(.delete(let name, let id)):
            return try await service.delete(name, objectId: id, principal: principal)
        case .read(let name, let id?, let body):
            return try await service.get(name, objectId: id, body: body, principal: principal, profile: profile)
        case .read(let name, nil, let body):
            return try await service.find(name, body: body, principal: principal, profile: profile)
        }
    }

    /// A find's URL parameters as a find body: `where` is JSON text, `limit`/`skip` numbers,
    /// the key lists comma-separated.
    static func findBody(_ query: FormQuery) throws(APIError) -> JSONObject {
        var body = JSONObject()
        if let text = query["where"], !text.isEmpty {
            body["where"] = .object(try Wire.object(Array(text.utf8), what: "where parameter"))
        }
        for name in ["order", "keys", "excludeKeys", "include"] { if let v = query[name] { body[name] = .string(v) } }
        for name in ["limit", "skip"] {
            if let v = query[name] { body[name] = Int64(v).map(JSON.int) ?? .string(v) }
        }
        if let count = query["count"] { body["count"] = .string(count) }
        return body
    }

    private static func fetchWhenSave(_ request: Request) -> Bool {
        FormQuery(request.uri.query ?? "")["fetchWhenSave"] == "true"
    }

    private func className(_ context: BasicRequestContext) throws(APIError) -> String {
        guard let name = context.parameters.get("className") else {
            throw .parse(APIError.invalidClassName, "no class name")
        }
        return name
    }

    private func objectId(_ context: BasicRequestContext) throws(APIError) -> String {
        guard let id = context.parameters.get("objectId") else { throw .parse(APIError.missingObjectId, "no objectId") }
        return id
    }
}
