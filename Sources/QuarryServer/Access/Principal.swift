import Quarry

/// Who a request acts for: the master key (no ACL applies), or a user (or nobody) with the
/// roles they hold. ACL entries name `*`, a user's objectId, or `role:<name>`.
struct Principal: Sendable, Hashable {
    var isMaster: Bool
    var userId: String?
    var roleNames: Set<String>

    static let master = Principal(isMaster: true, userId: nil, roleNames: [])
    static let anonymous = Principal(isMaster: false, userId: nil, roleNames: [])

    /// The ACL entries that grant this principal access, most general first.
    var aclEntries: [String] {
        ["*"] + (userId.map { [$0] } ?? []) + roleNames.sorted().map { "role:\($0)" }
    }
}

/// Finds the principal of a session token: the `_Session` with that `sessionToken` (unexpired)
/// names the `user`; the user's roles are the `_Role`s whose `users` hold the user, plus, by
/// transitivity, every role whose `roles` hold one of those (a role's `roles` are the roles
/// that inherit its rights, as in Parse).
struct PrincipalResolver: Sendable {
    let backend: any QueryBackend
    let now: @Sendable () -> Int64

    func principal(sessionToken: String) async throws(APIError) -> Principal {
        let sessions = try await lookup(
            Query(
                className: "_Session",
                predicate: Filters.equals("sessionToken", .string(sessionToken)),
                limit: 1))
        guard let session = sessions.first, case .pointer(let user)? = session["user"] else {
            throw APIError.parse(APIError.invalidSessionToken, "Invalid session token")
        }
        if case .date(let expiry)? = session["expiresAt"], expiry <= now() {
            throw APIError.parse(APIError.invalidSessionToken, "Session token is expired.")
        }
        return Principal(isMaster: false, userId: user.objectId, roleNames: try await roles(of: user.objectId))
    }

    private func roles(of userId: String) async throws(APIError) -> Set<String> {
        let all = try await lookup(Query(className: "_Role"))
        var held = Set(all.filter { Self.members($0["users"]).contains(userId) }.map(\.objectId))
        var grew = true
        while grew {
            grew = false
            for role in all
            where !held.contains(role.objectId)
                && !Self.members(role["roles"]).isDisjoint(with: held)
            {
                held.insert(role.objectId)
                grew = true
            }
        }
        return Set(
            all.filter { held.contains($0.objectId) }.compactMap { record -> String? in
                if case .string(let name)? = record["name"] { return name }
                return nil
            })
    }

    /// The objectIds a relation or an array of pointers holds.
    private static func members(_ value: Value?) -> Set<String> {
        switch value {
        case .relation(_, let ids)?: return Set(ids)
        case .array(let items)?:
            return Set(
                items.compactMap { item -> String? in
                    if case .pointer(let p) = item { return p.objectId }
                    return nil
                })
        default: return []
        }
    }

    /// The records of a system class; a class the store lacks holds nothing.
    private func lookup(_ query: Query) async throws(APIError) -> [Record] {
        let known: Bool
        do { known = try await backend.hasClass(query.className) } catch { throw APIError(error) }
        guard known else { return [] }
        do { return try await backend.run(query, variables: [:]).records } catch { throw APIError(error) }
    }
}
