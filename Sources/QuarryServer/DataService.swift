import Quarry

/// The data API without HTTP: find, get, create, update, delete on any `QueryBackend`, with
/// ACLs applied for the request's principal. Each platform's routes translate their wire
/// format into these calls.
struct DataService: Sendable {
    let backend: any QueryBackend
    let limits: Limits
    let writes: WriteQueue
    let now: @Sendable () -> Int64

    // MARK: Reads

    /// Runs a Parse find body (`where`, `order`, `limit`, `skip`, `keys`, `excludeKeys`,
    /// `include`, `count`) under the profile; answers `{"results":[…]}` and, when asked,
    /// `"count"` beside them (alone with `limit` 0, as Parse does).
    func find(_ className: String, body: JSONObject, principal: Principal, profile: Profile) async throws(APIError)
        -> JSON
    {
        let query = try compile(className, body: body, profile: profile)
        return try await find(query, principal: principal)
    }

    /// `relationsDepth`: Backendless's, pointers embedded that many levels down.
    func find(_ query: Query, principal: Principal, relationsDepth: Int = 0) async throws(APIError) -> JSON {
        guard try await hasClass(query.className) else {
            return query.count ? ["results": [], "count": 0] : ["results": []]
        }
        let policy = ACLPolicy(principal: principal)
        let restricted = policy.restrict(query)
        var count: Int?
        var found: [Record]
        if query.count {
            // The count and the page from one version of the data (docs/SERVER.md#layers).
            var page = restricted
            page.count = false
            let results = try await run(query.limit == 0 ? [restricted] : [restricted, page])
            if case .count(let n) = results[0] { count = n }
            if query.limit == 0 { return ["results": [], "count": .int(Int64(count ?? 0))] }
            found = results[1].records
        } else {
            found = try await run(restricted).records
        }
        var records = try await visibleIncludes(found, policy: policy)
        if relationsDepth > 0 {
            var related = RelatedObjects(service: self, policy: policy)
            records = try await related.embed(records, depth: relationsDepth)
        }
        var out: JSONObject = ["results": .array(records.map(ParseJSON.encode))]
        if let count { out["count"] = .int(Int64(count)) }
        return .object(out)
    }

    /// One object by id, or 101 when it is missing or hidden by its ACL.
    func get(_ className: String, objectId: String, body: JSONObject, principal: Principal, profile: Profile)
        async throws(APIError) -> JSON
    {
        var query = try compile(className, body: body, profile: profile)
        query.predicate = Filters.equals("objectId", .string(objectId))
        query.limit = 1
        query.count = false
        guard case .array(let results)? = try await find(query, principal: principal)["results"],
            let object = results.first
        else { throw APIError.notFound() }
        return object
    }

    func compile(_ className: String, body: JSONObject, profile: Profile) throws(APIError) -> Query {
        guard ObjectBody.isValidClassName(className) else {
            throw .parse(
                APIError.invalidClassName,
                "Invalid classname: \(className), classnames can only have alphanumeric characters and _, and must start with an alpha character "
            )
        }
        var find = JSONObject()
        for member in body where RequestParameters.find.contains(member.key) { find[member.key] = member.value }
        if find["where"] == nil { find["where"] = .object([:]) }
        do {
            return try ParseWhere.parse(
                JSONWriter.string(.object(find)), className: className, profile: profile,
                limits: limits)
        } catch { throw APIError(error) }
    }

    // MARK: Writes

    /// Creates an object; answers its objectId and createdAt (or the whole object when
    /// `fetchWhenSave`, as LeanCloud asks).
    func create(_ className: String, body: JSONObject, principal: Principal, fetchWhenSave: Bool = false)
        async throws(APIError) -> JSON
    {
        var pending = PendingWrites()
        let answer = try create(className, body: body, fetchWhenSave: fetchWhenSave, into: &pending)
        try await save(pending.changes)
        return answer
    }

    /// Applies an update body to a stored object the principal may write; answers updatedAt.
    func update(
        _ className: String, objectId: String, body: JSONObject, principal: Principal, fetchWhenSave: Bool = false
    ) async throws(APIError) -> JSON {
        try await writes.perform { () async throws(APIError) -> JSON in
            var pending = PendingWrites()
            let answer = try await update(
                className, objectId: objectId, body: body, principal: principal, fetchWhenSave: fetchWhenSave,
                into: &pending)
            try await save(pending.changes)
            return answer
        }
    }

    /// Deletes a stored object the principal may write; answers `{}`.
    func delete(_ className: String, objectId: String, principal: Principal) async throws(APIError) -> JSON {
        try await writes.perform { () async throws(APIError) -> JSON in
            var pending = PendingWrites()
            let answer = try await delete(className, objectId: objectId, principal: principal, into: &pending)
            try await save(pending.changes)
            return answer
        }
    }

    /// Runs writes as one transaction (docs/SERVER.md#batch): each sees the ones before it, and
    /// they are saved together in one `QueryBackend.write` once all have succeeded. The first
    /// that fails fails the whole: nothing is written, and its error names it.
    func transaction(_ requests: [BatchWrite], principal: Principal) async throws(APIError) -> [JSON] {
        try await writes.perform { () async throws(APIError) -> [JSON] in
            var pending = PendingWrites()
            var answers: [JSON] = []
            for (index, request) in requests.enumerated() {
                do throws(APIError) {
                    answers.append(try await apply(request, principal: principal, into: &pending))
                } catch {
                    var failed = error
                    failed.message =
                        "batch request \(index) failed, so the transaction wrote nothing: \(error.message)"
                    throw failed
                }
            }
            try await save(pending.changes)
            return answers
        }
    }

    private func apply(_ request: BatchWrite, principal: Principal, into pending: inout PendingWrites)
        async throws(APIError) -> JSON
    {
        switch request {
        case .create(let className, let body):
            return try create(className, body: body, fetchWhenSave: false, into: &pending)
        case .update(let className, let objectId, let body):
            return try await update(
                className, objectId: objectId, body: body, principal: principal, fetchWhenSave: false,
                into: &pending)
        case .delete(let className, let objectId):
            return try await delete(className, objectId: objectId, principal: principal, into: &pending)
        }
    }

    private func create(
        _ className: String, body: JSONObject, fetchWhenSave: Bool, into pending: inout PendingWrites
    ) throws(APIError) -> JSON {
        guard ObjectBody.isValidClassName(className) else {
            throw .parse(APIError.invalidClassName, "Invalid classname: \(className)")
        }
        let time = now()
        var record = Record(objectId: ObjectIdentifiers.make(), fields: [])
        try ObjectBody.apply(body, to: &record)
        record.fields["createdAt"] = .date(time)
        record.fields["updatedAt"] = .date(time)
        record.fieldOrder += ["createdAt", "updatedAt"]
        pending.save(record, in: className)
        if fetchWhenSave { return ParseJSON.encode(record) }
        return ["objectId": .string(record.objectId), "createdAt": .string(ISODate.format(time))]
    }

    /// Within a turn of `writes`.
    private func update(
        _ className: String, objectId: String, body: JSONObject, principal: Principal, fetchWhenSave: Bool,
        into pending: inout PendingWrites
    ) async throws(APIError) -> JSON {
        var record = try await stored(className, objectId, principal: principal, pending: pending)
        try ObjectBody.apply(body, to: &record)
        let time = now()
        if record.fields["updatedAt"] == nil { record.fieldOrder.append("updatedAt") }
        record.fields["updatedAt"] = .date(time)
        pending.save(record, in: className)
        if fetchWhenSave { return ParseJSON.encode(record) }
        return ["updatedAt": .string(ISODate.format(time))]
    }

    /// Within a turn of `writes`.
    private func delete(
        _ className: String, objectId: String, principal: Principal, into pending: inout PendingWrites
    ) async throws(APIError) -> JSON {
        _ = try await stored(className, objectId, principal: principal, pending: pending)
        pending.delete(objectId, from: className)
        return .object([:])
    }

    /// The object as the writes so far leave it, when it exists and its write ACL lets the
    /// principal change it (parse-server answers 101 in both cases, so an ACL does not reveal
    /// that it exists).
    private func stored(_ className: String, _ objectId: String, principal: Principal, pending: PendingWrites)
        async throws(APIError) -> Record
    {
        let found: Record?
        if let written = pending.object(objectId, in: className) {
            found = written
        } else if try await hasClass(className) {
            let lookup = Query(
                className: className, predicate: Filters.equals("objectId", .string(objectId)), limit: 1)
            found = try await run(lookup).records.first
        } else {
            found = nil
        }
        guard let record = found, ACLPolicy(principal: principal).canWrite(record) else {
            throw APIError.notFound()
        }
        return record
    }

    private func save(_ changes: [StoreChange]) async throws(APIError) {
        do { try await backend.write(changes) } catch { throw APIError(error) }
    }

    // MARK: Helpers

    func run(_ query: Query) async throws(APIError) -> QueryResult {
        do { return try await backend.run(query, variables: [:]) } catch { throw APIError(error) }
    }

    func run(_ queries: [Query]) async throws(APIError) -> [QueryResult] {
        do { return try await backend.run(queries, variables: [:]) } catch { throw APIError(error) }
    }

    func hasClass(_ name: String) async throws(APIError) -> Bool {
        do { return try await backend.hasClass(name) } catch { throw APIError(error) }
    }

    /// Included objects the principal may not read go back to being pointers (as in
    /// parse-server): which ones are readable is asked of the backend with the ACL condition,
    /// one planned `objectId IN […]` query per class.
    private func visibleIncludes(_ records: [Record], policy: ACLPolicy) async throws(APIError) -> [Record] {
        guard !policy.principal.isMaster else { return records }
        var wanted: [String: Set<String>] = [:]
        for record in records { for value in record.fields.values { IncludedObjects.collect(value, into: &wanted) } }
        guard !wanted.isEmpty else { return records }
        var readable: [String: Set<String>] = [:]
        for (className, ids) in wanted {
            let query = policy.restrict(
                Query(
                    className: className, predicate: Filters.objectId(in: ids.sorted()),
                    keys: [FieldPath("objectId")]))
            readable[className] = Set(try await run(query).records.map(\.objectId))
        }
        return records.map { record in
            var shown = record
            for (key, value) in record.fields { shown.fields[key] = IncludedObjects.hiding(value, unless: readable) }
            return shown
        }
    }
}

/// Parameters of a Parse find body.
enum RequestParameters {
    static let find: Set<String> = ["where", "order", "limit", "skip", "keys", "excludeKeys", "include", "count"]
}
