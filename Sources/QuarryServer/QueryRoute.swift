import HTTPTypes
import Hummingbird
import Quarry

/// `POST /query {"dialect","className","query","args","vars","order","limit","skip","keys",
/// "include","count"}`: any of the three dialects (NSPredicate with `%@` arguments and `$NAME`
/// variables), for tools; Parse's keys and answer shape.
struct QueryRoute: Sendable {
    let service: DataService
    let parse: ParseRoutes

    func register(on router: Router<BasicRequestContext>) {
        router.post("/query") { request, _ in
            await Wire.handle { () async throws(APIError) -> Response in
                let principal = try await parse.principal(request)
                let body = try await Wire.body(request, limit: parse.maxBodyBytes)
                return Wire.json(try await service.find(try compile(body), principal: principal))
            }
        }
    }

    func compile(_ body: JSONObject) throws(APIError) -> Query {
        guard case .string(let className)? = body["className"] else {
            throw .parse(APIError.invalidClassName, "the request needs a 'className'")
        }
        guard case .string(let text)? = body["query"] else {
            throw .parse(APIError.invalidQuery, "the request needs a 'query' string")
        }
        let dialectName = body["dialect"]?.stringValue ?? "json"
        guard let dialect = Dialect(rawValue: dialectName) else {
            throw .parse(APIError.invalidQuery, "dialect must be sql, predicate or json, not '\(dialectName)'")
        }
        var options = CompileOptions(profile: parse.profile, limits: service.limits)
        if case .array(let args)? = body["args"] {
            for arg in args { options.arguments.append(.value(try ObjectBody.decode(arg, key: "args"))) }
        }
        if case .object(let vars)? = body["vars"] {
            var values: [String: Value] = [:]
            for member in vars { values[member.key] = try ObjectBody.decode(member.value, key: "vars") }
            options.variables = values
        }
        var query: Query
        do { query = try dialect.compile(text, className: className, options: options) } catch { throw APIError(error) }
        // The find parameters apply to every dialect (a json body's own win when both are given).
        var parameters = JSONObject()
        for member in body
        where ["order", "limit", "skip", "keys", "excludeKeys", "include", "count"].contains(member.key) {
            parameters[member.key] = member.value
        }
        if !parameters.isEmpty {
            let shaped = try service.compile(className, body: parameters, profile: parse.profile)
            if shaped.order != [] { query.order = shaped.order }
            query.limit = shaped.limit ?? query.limit
            query.skip = shaped.skip ?? query.skip
            query.keys = shaped.keys ?? query.keys
            if !shaped.excludeKeys.isEmpty { query.excludeKeys = shaped.excludeKeys }
            if !shaped.includes.isEmpty { query.includes = shaped.includes }
            query.count = query.count || shaped.count
        }
        return query
    }
}
