import QuarryCore

/// A query in the style of the Parse, LeanCloud and MaxLeap SDKs, as a Swift value:
///
/// ```swift
/// let query = try QueryBuilder("GameScore")
///     .where("playerName" != "Michael Yabuti", "playerAge" > 18)
///     .order(.descending("score"), .ascending("playerName"))
///     .limit(10)
///     .build(profile: .parse)
/// ```
///
/// Constraints on one query are ANDed. As in the SDKs, constraints on the same key combine into
/// that key's operator dictionary, one per operator (`"wins" > 5` then `"wins" < 50` keeps both;
/// a second `"wins" > 7` replaces the first), and repeating an equality replaces the earlier
/// one. `build()` checks everything against the profile and returns the Core `Query`; running it
/// is the engine's job (`Quarry` adds `find`, `first`, `count` and `matches`).
public struct QueryBuilder: Sendable {
    public let className: String
    var constraints: [Constraint] = []
    var ordering: [Ordering]?
    var skipCount: Int?
    var limitCount: Int?
    var selectedKeys: [String]?
    var excludedKeys: [String]?
    var includedKeys: [String]?

    public init(_ className: String) {
        self.className = className
    }

    // MARK: Constraints

    /// Adds constraints, ANDed with the ones already there.
    public func `where`(_ constraints: Constraint...) -> QueryBuilder {
        var copy = self
        copy.constraints += constraints
        return copy
    }

    /// Objects matching any of the queries, which must share a class and set no limit, skip,
    /// order, keys or include (`orQueryWithSubqueries:`). Add further constraints and result
    /// shaping to the returned query.
    public static func or(_ queries: QueryBuilder...) -> QueryBuilder { compound(.or, queries) }
    /// Objects matching all of the queries (`andQueryWithSubqueries:`).
    public static func and(_ queries: QueryBuilder...) -> QueryBuilder { compound(.and, queries) }
    /// Objects matching none of the queries (`$nor`).
    public static func nor(_ queries: QueryBuilder...) -> QueryBuilder { compound(.nor, queries) }

    private static func compound(_ kind: CompoundKind, _ queries: [QueryBuilder]) -> QueryBuilder {
        var builder = QueryBuilder(queries.first?.className ?? "")
        builder.constraints = [Constraint(.subqueries(kind, queries))]
        return builder
    }

    // MARK: Result shaping

    /// Sorts by these keys, replacing any earlier order (`orderByAscending:` / `orderByDescending:`).
    public func order(_ keys: Ordering...) -> QueryBuilder {
        var copy = self
        copy.ordering = keys
        return copy
    }

    /// Adds tie-breaking sort keys after the current ones (`addAscendingOrder:` / `addDescendingOrder:`).
    public func addingOrder(_ keys: Ordering...) -> QueryBuilder {
        var copy = self
        copy.ordering = (ordering ?? []) + keys
        return copy
    }

    public func limit(_ count: Int) -> QueryBuilder {
        var copy = self
        copy.limitCount = count
        return copy
    }

    public func skip(_ count: Int) -> QueryBuilder {
        var copy = self
        copy.skipCount = count
        return copy
    }

    /// Returns only these fields (plus objectId, createdAt, updatedAt); calls accumulate (`selectKeys:`).
    public func select(_ keys: String...) -> QueryBuilder {
        var copy = self
        copy.selectedKeys = (selectedKeys ?? []) + keys
        return copy
    }

    /// Leaves these fields out of the results (`excludeKeys`).
    public func exclude(_ keys: String...) -> QueryBuilder {
        var copy = self
        copy.excludedKeys = (excludedKeys ?? []) + keys
        return copy
    }

    /// Embeds the objects these pointer fields point to; dots reach further (`includeKey:`).
    public func include(_ keys: String...) -> QueryBuilder {
        var copy = self
        copy.includedKeys = (includedKeys ?? []) + keys
        return copy
    }

    // MARK: Building

    /// The query, checked against the profile's rules.
    public func build(profile: Profile = .exact, limits: Limits = .default) throws(Diagnostic) -> Query {
        try Lowerer.lower(spec(at: .request), profile: profile, limits: limits)
    }

    /// The query that counts the matches (`countObjects`); skip and limit do not apply.
    public func buildCount(profile: Profile = .exact, limits: Limits = .default) throws(Diagnostic) -> Query {
        var s = spec(at: .request)
        s.count = true
        return try Lowerer.lower(s, profile: profile, limits: limits)
    }

    /// The query for the first match only (`getFirstObject`): the same query with limit 1.
    public func buildFirst(profile: Profile = .exact, limits: Limits = .default) throws(Diagnostic) -> Query {
        try limit(1).build(profile: profile, limits: limits)
    }
}
