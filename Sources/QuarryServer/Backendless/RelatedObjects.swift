import Quarry

/// Backendless's `relationsDepth=N` (docs/SERVER.md#backendless): every pointer of a result,
/// and every pointer of the objects so embedded, down to N levels, is replaced by the object it
/// points to — the objects the principal may read, asked of the backend with the ACL condition
/// (one planned `objectId IN […]` query per class and level); others stay pointers, as with
/// `include`. Objects `loadRelations` embedded count as one level.
struct RelatedObjects {
    let service: DataService
    let policy: ACLPolicy
    /// The objects fetched so far by class and objectId; nil for one missing or hidden.
    private var fetched: [String: [String: Record?]] = [:]

    init(service: DataService, policy: ACLPolicy) {
        self.service = service
        self.policy = policy
    }

    /// The deepest `relationsDepth` accepted: each level is a round of queries.
    static let maxDepth = 10

    mutating func embed(_ records: [Record], depth: Int) async throws(APIError) -> [Record] {
        guard depth > 0 else { return records }
        // Each round fetches the pointers one level further down than the last.
        for _ in 0..<depth {
            var missing: [String: Set<String>] = [:]
            for record in records { for value in record.fields.values { reach(value, depth, &missing) } }
            guard !missing.isEmpty else { break }
            for (className, ids) in missing { try await fetch(ids, of: className) }
        }
        return records.map { record in
            var shown = record
            shown.fields = record.fields.mapValues { expand($0, depth) }
            return shown
        }
    }

    /// The pointers within `remaining` levels of `value` that are not fetched yet.
    private func reach(_ value: Value, _ remaining: Int, _ missing: inout [String: Set<String>]) {
        guard remaining > 0 else { return }
        switch value {
        case .pointer(let p):
            if let known = fetched[p.className]?[p.objectId] {
                if let record = known { for inner in record.fields.values { reach(inner, remaining - 1, &missing) } }
            } else {
                missing[p.className, default: []].insert(p.objectId)
            }
        case .object(let fields):
            let below = fields["__type"] == .string("Object") ? remaining - 1 : remaining
            for inner in fields.values { reach(inner, below, &missing) }
        case .array(let items):
            for item in items { reach(item, remaining, &missing) }
        default:
            break
        }
    }

    private mutating func fetch(_ ids: Set<String>, of className: String) async throws(APIError) {
        var found: [String: Record?] = Dictionary(uniqueKeysWithValues: ids.map { ($0, nil) })
        if try await service.hasClass(className) {
            let query = policy.restrict(Query(className: className, predicate: Filters.objectId(in: ids.sorted())))
            for record in try await service.run(query).records { found[record.objectId] = record }
        }
        fetched[className, default: [:]].merge(found) { _, new in new }
    }

    /// The value with the fetched objects within `remaining` levels embedded.
    private func expand(_ value: Value, _ remaining: Int) -> Value {
        guard remaining > 0 else { return value }
        switch value {
        case .pointer(let p):
            guard case .some(.some(let record)) = fetched[p.className]?[p.objectId] else { return value }
            var fields = record.fields.mapValues { expand($0, remaining - 1) }
            fields["__type"] = .string("Object")
            fields["className"] = .string(p.className)
            fields["objectId"] = .string(record.objectId)
            return .object(fields)
        case .object(let fields):
            let below = fields["__type"] == .string("Object") ? remaining - 1 : remaining
            return .object(fields.mapValues { expand($0, below) })
        case .array(let items):
            return .array(items.map { expand($0, remaining) })
        default:
            return value
        }
    }
}
