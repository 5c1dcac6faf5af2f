import Foundation
import HTTPTypes
import Hummingbird
import Quarry

/// Backendless's data API under `/api/data/{table}`: `where` in the SQL dialect, `pageSize`
/// and `offset` paging, `sortBy` (`name DESC, age`), `props` (the fields returned) and
/// `loadRelations` (pointers embedded); `…/count` for the number of matches. Answers are bare
/// arrays and objects; errors are `{"code":…,"message":…}` with Parse's codes. The same routes
/// answer under `/{application-id}/{secret-key}/data/{table}`, with the keys in the URL.
struct BackendlessRoutes: Sendable {
    let service: DataService
    let parse: ParseRoutes
    let credentials: Credentials

    func register(on router: Router<BasicRequestContext>) {
        register(on: router, prefix: "/api/data") { request, _ throws(APIError) in
            try parse.authenticate(request.headers)
        }
        register(on: router, prefix: "/:applicationId/:secretKey/data") { request, context throws(APIError) in
            try credentials.backendless(
                applicationId: context.parameters.get("applicationId"),
                secretKey: context.parameters.get("secretKey"),
                userToken: request.headers[Credentials.blUserToken])
        }
    }

    typealias Authenticate = @Sendable (Request, BasicRequestContext) throws(APIError) -> Credentials.Claim

    private func register(
        on router: Router<BasicRequestContext>, prefix: String, _ authenticate: @escaping Authenticate
    ) {
        let principalOf = { @Sendable (request: Request, context: BasicRequestContext) throws(APIError) in
            try principal(try authenticate(request, context))
        }
        router.get(RouterPath("\(prefix)/:table")) { request, context in
            await Wire.handle(backendless: true) { () async throws(APIError) -> Response in
                let principal = try principalOf(request, context)
                let parameters = FormQuery(request.uri.query ?? "")
                let query = try compile(try table(context), parameters)
                return Wire.json(.array(try await results(query, parameters, principal: try await principal())))
            }
        }
        router.get(RouterPath("\(prefix)/:table/count")) { request, context in
            await Wire.handle(backendless: true) { () async throws(APIError) -> Response in
                let principal = try principalOf(request, context)
                var query = try compile(try table(context), FormQuery(request.uri.query ?? ""))
                query.count = true
                query.limit = 0
                let answer = try await service.find(query, principal: try await principal())
                return Wire.json(answer["count"] ?? 0)
            }
        }
        router.get(RouterPath("\(prefix)/:table/:objectId")) { request, context in
            await Wire.handle(backendless: true) { () async throws(APIError) -> Response in
                let principal = try principalOf(request, context)
                let parameters = FormQuery(request.uri.query ?? "")
                var query = try compile(try table(context), parameters)
                query.predicate = Filters.equals("objectId", .string(context.parameters.get("objectId") ?? ""))
                guard let object = try await results(query, parameters, principal: try await principal()).first else {
                    throw .notFound("Entity with the specified ID cannot be found")
                }
                return Wire.json(object)
            }
        }
        router.post(RouterPath("\(prefix)/:table")) { request, context in
            await Wire.handle(backendless: true) { () async throws(APIError) -> Response in
                let principal = try principalOf(request, context)
                let body = try await Wire.body(request, limit: parse.maxBodyBytes)
                let created = try await service.create(
                    try table(context), body: body, principal: try await principal(),
                    fetchWhenSave: true)
                return Wire.json(Self.backendless(created, table: try table(context)))
            }
        }
        router.put(RouterPath("\(prefix)/:table/:objectId")) { request, context in
            await Wire.handle(backendless: true) { () async throws(APIError) -> Response in
                let principal = try principalOf(request, context)
                let body = try await Wire.body(request, limit: parse.maxBodyBytes)
                let updated = try await service.update(
                    try table(context), objectId: context.parameters.get("objectId") ?? "",
                    body: body, principal: try await principal(), fetchWhenSave: true)
                return Wire.json(Self.backendless(updated, table: try table(context)))
            }
        }
        router.delete(RouterPath("\(prefix)/:table/:objectId")) { request, context in
            await Wire.handle(backendless: true) { () async throws(APIError) -> Response in
                let principal = try principalOf(request, context)
                _ = try await service.delete(
                    try table(context), objectId: context.parameters.get("objectId") ?? "",
                    principal: try await principal())
                return Wire.json(["deletionTime": .int(service.now())])
            }
        }
    }

    /// Checks the keys now; resolves the session when called.
    private func principal(_ claim: Credentials.Claim) -> @Sendable () async throws(APIError) -> Principal {
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

    private func results(_ query: Query, _ parameters: FormQuery, principal: Principal) async throws(APIError)
        -> [JSON]
    {
        let depth = try Self.integer(parameters["relationsDepth"], "relationsDepth") ?? 0
        guard depth <= RelatedObjects.maxDepth else {
            throw .parse(
                APIError.invalidQuery, "relationsDepth must be at most \(RelatedObjects.maxDepth), not \(depth)")
        }
        let answer = try await service.find(query, principal: principal, relationsDepth: depth)
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
            let code = ["pageSize": 117, "offset": 118][name] ?? APIError.invalidQuery
            throw .parse(code, "\(name) must be a non-negative integer, not '\(text)'")
        }
        return n
    }

    private func table(_ context: BasicRequestContext) throws(APIError) -> String {
        guard let name = context.parameters.get("table") else { throw .parse(APIError.invalidClassName, "no table") }
        return name
    }
}
