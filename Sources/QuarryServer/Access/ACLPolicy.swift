import Quarry

/// Object ACLs (`{"*":{"read":true},"<userId>":{"read":true,"write":true},"role:<name>":{…}}`)
/// as conditions. Reads get a condition ANDed into the query's filter — and into every inner
/// query's (`$inQuery`, `$notInQuery`, `$select`, `$dontSelect`) — so the planner plans it like
/// any other (EXPLAIN shows it) and no query shape reaches a row the principal may not read.
/// An object without an ACL is public, as in Parse. The master key skips all of this.
struct ACLPolicy: Sendable {
    let principal: Principal

    /// The query with the read condition in its filter and in every inner query's.
    func restrict(_ query: Query) -> Query {
        guard !principal.isMaster else { return query }
        var restricted = query
        restricted.predicate = Filters.and(restrict(query.predicate), readCondition)
        return restricted
    }

    /// `ACL` missing or null, or `ACL.<entry>.read == true` for one of the principal's entries.
    var readCondition: Filter {
        .or(
            [.leaf(Leaf(.isNull(.key("ACL")), semantics: .document))]
                + principal.aclEntries.map { Filters.equals(FieldPath(["ACL", $0, "read"]), .bool(true)) })
    }

    /// Whether the stored object may be changed or deleted.
    func canWrite(_ record: Record) -> Bool {
        principal.isMaster || allows(record["ACL"], "write")
    }

    private func allows(_ acl: Value?, _ permission: String) -> Bool {
        guard case .object(let entries)? = acl else { return true }
        return principal.aclEntries.contains { entry in
            if case .object(let grants)? = entries[entry], grants[permission] == .bool(true) { return true }
            return false
        }
    }

    private func restrict(_ filter: Filter) -> Filter {
        switch filter {
        case .constant: return filter
        case .and(let parts): return .and(parts.map(restrict))
        case .or(let parts): return .or(parts.map(restrict))
        case .not(let inner): return .not(restrict(inner))
        case .leaf(var leaf):
            switch leaf.condition {
            case .inQuery(let key, let inner):
                leaf.condition = .inQuery(key, restrict(inner))
            case .select(let key, let inner, let innerKey):
                leaf.condition = .select(key, restrict(inner), innerKey: innerKey)
            case .quantified(let q, let collection, let variable, let body):
                leaf.condition = .quantified(q, collection, variable: variable, restrict(body))
            default:
                break
            }
            return .leaf(leaf)
        }
    }
}
