import Foundation
import HTTPTypes
import Hummingbird
import Quarry

/// Backendless's data API under `/api/data/{table}`: `where` in the SQL dialect, `pageSize`
/// and `offset` paging, `sortBy` (`name DESC, age`), `props` (the fields returned) and
/// `loadRelations` (pointers embedded); `…/count` for the number of matches. Answers are bare
/// arrays and objects; errors are `{"code":…,"message":…}` with Parse's codes.
struct BackendlessRoutes: Sendable {
    let service: DataService
    let parse: ParseRoutes

    func register(on router: Router<BasicRequestContext>) {
        router.get("/api/data/:table") { request, context in
            await Wire.handle(backendless: true) { () async throws(APIError) -> Response in
                let principal = try principalOf(request)
                let query = try compile(try table(context), FormQuery(request.uri.query ?? ""))
                return Wire.json(.array(try await results(query, principal: try await principal())))
            }
        }
        router.get("/api/data/:table/count") { request, context in
            await Wire.handle(backendless: true) { () async throws(APIError) -> Response in
                let principal = try principalOf(request)
                var query = try compile(try table(context), FormQuery(request.uri.query ?? ""))
                query.count = true
                query.limit = 0
                let answer = try await service.find(query, principal: try await principal())
                return Wire.json(answer["count"] ?? 0)
            }
        }
        router.get("/api/data/:table/:objectId") { request, context in
            await Wire.handle(backendless: true) { () async throws(APIError) -> Response in
                let principal = try principalOf(request)
                var query = try compile(try table(context), FormQuery(request.uri.query ?? ""))
                query.predicate = Filters.equals("objectId", .string(context.parameters.get("objectId") ?? ""))
                guard let object = try await results(query, principal: try await principal()).first else {
                    throw .notFound("Entity with the specified ID cannot be found")
                }
                return Wire.json(object)
            }
        }
        router.post("/api/data/:table") { request, context in
            await Wire.handle(backendless: true) { () async throws(APIError) -> Response in
                let principal = try principalOf(request)
                let body = try await Wire.body(request, limit: parse.maxBodyBytes)
                let created = try await service.create(
                    try table(context), body: body, principal: try await principal(),
                    fetchWhenSave: true)
                return Wire.json(Self.backendless(created, table: try table(context)))
            }
        }
        router.put("/api/data/:table/:objectId") { request, context in
            await Wire.handle(backendless: true) { () async throws(APIError) -> Response in
                let principal = try principalOf(request)
                let body = try await Wire.body(request, limit: parse.maxBodyBytes)
                let updated = try await service.update(
                    try table(context), objectId: context.parameters.get("objectId") ?? "",
                    body: body, principal: try await principal(), fetchWhenSave: true)
                return Wire.json(Self.backendless(updated, table: try table(context)))
            }
        }
        router.delete("/api/data/:table/:objectId") { request, context in
            await Wire.handle(backendless: true) { () async throws(APIError) -> Response in
                let principal = try principalOf(request)
                _ = try await service.delete(
                    try table(context), objectId: context.parameters.get("objectId") ?? "",
                    principal: try await principal())
                return Wire.json(["deletionTime": .int(service.now())])
            }
        }
    }

    /// Checks the keys now; resolves the session when called.
    private func principalOf(_ request: Request) throws(APIError) -> @Sendable () async throws(APIError) -> Principal {
        let claim = try parse.authenticate(request.headers)
        let resolver = parse.resolver
        return { () async throws(APIError) -> Principal in
            if claim.isMaster { return .master }
            if let token = claim.sessionToken { return try await resolver.principal(sessionToken: token) }
            return .anonymous
        }
    }

    /// The URL parameters as a query under the profile.
    private func compile(_ table: String, _ parameters: FormQuery) throws(APIError) -> Query {
        guard ObjectBody.isValidClassName(table) else {
            throw .parse(APIError.invalidClassName, "Invalid table name: \(table)")
        }
        var query = Query(className: table, profile: parse.profile)
        if let clause = parameters["where"], !clause.isEmpty {
            do {
                let options = CompileOptions(profile: parse.profile, limits: service.limits)
                query = try Dialect.sql.compile(clause, className: table, options: options)
            } catch { throw APIError(error) }
        }
        query.limit = try Self.integer(parameters["pageSize"], "pageSize")
        query.skip = try Self.integer(parameters["offset"], "offset")
        if let props = parameters["props"] { query.keys = Self.names(props).map { FieldPath($0) } }
        if let relations = parameters["loadRelations"] { query.includes = Self.names(relations).map { FieldPath($0) } }
        if let sortBy = parameters["sortBy"] { query.order = try Self.order(sortBy) }
        return query
    }

    private func results(_ query: Query, principal: Principal) async throws(APIError) -> [JSON] {
        let answer = try await service.find(query, principal: principal)
        guard case .array(let objects)? = answer["results"] else { return [] }
        return objects.map { Self.backendless($0, table: query.className) }
    }

    /// A Parse-shaped object in Backendless's: `created`/`updated` in milliseconds and the
    /// table in `___class`.
    static func backendless(_ object: JSON, table: String) -> JSON {
        guard case .object(var o) = object else { return object }
        for (from, to) in [("createdAt", "created"), ("updatedAt", "updated")] {
            if let text = o[from]?.stringValue, let ms = ISODate.parse(text) {
                o[from] = nil
                o[to] = .int(ms)
            }
        }
        o["___class"] = .string(table)
        return .object(o)
    }

    static func order(_ spec: String) throws(APIError) -> [SortKey] {
        try names(spec).map { entry throws(APIError) -> SortKey in
            let words = entry.split(separator: " ").map(String.init)
            guard let key = words.first, words.count <= 2 else {
                throw .parse(APIError.invalidQuery, "sortBy entry '\(entry)' is not 'field [ASC|DESC]'")
            }
            switch words.count == 2 ? words[1].uppercased() : "ASC" {
            case "ASC": return .key(FieldPath(key), .ascending)
            case "DESC": return .key(FieldPath(key), .descending)
            default: throw .parse(APIError.invalidQuery, "sortBy direction must be ASC or DESC, not '\(words[1])'")
            }
        }
    }

    private static func names(_ list: String) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    private static func integer(_ text: String?, _ name: String) throws(APIError) -> Int? {
        guard let text else { return nil }
        guard let n = Int(text), n >= 0 else {
            throw .parse(name == "pageSize" ? 117 : 118, "\(name) must be a non-negative integer, not '\(text)'")
        }
        return n
    }

    private func table(_ context: BasicRequestContext) throws(APIError) -> String {
        guard let name = context.parameters.get("table") else { throw .parse(APIError.invalidClassName, "no table") }
        return name
    }
}
