import QuarryCore
import QuarryData

// The shape of a Parse REST find request, before lowering to the IR. Both the JSON decoder and
// the Swift builder produce it, so one lowering gives both the same semantics and the same
// diagnostics. It mirrors the wire form: a `where` object maps each key to either a value
// (equality) or a dictionary of operators, one per operator name (`$gt`, `$in`, …).

/// One find request: a class, its `where` object and the result-shaping parameters.
struct QuerySpec: Sendable {
    var className: Located<String>
    var whereClause: WhereClause
    var order: Located<[OrderEntry]>?
    var skip: Located<Int>?
    var limit: Located<Int>?
    var keys: Located<[String]>?
    var excludeKeys: Located<[String]>?
    var includes: Located<[String]>?
    var count: Bool = false

    init(className: Located<String>, whereClause: WhereClause) {
        self.className = className
        self.whereClause = whereClause
    }

    /// The result-shaping parameters that are set, by wire name (for the OR-subquery rules).
    var shapingParameters: [(name: String, location: Location)] {
        var out: [(String, Location)] = []
        if let order { out.append(("order", order.location)) }
        if let skip { out.append(("skip", skip.location)) }
        if let limit { out.append(("limit", limit.location)) }
        if let keys { out.append(("keys", keys.location)) }
        if let excludeKeys { out.append(("excludeKeys", excludeKeys.location)) }
        if let includes { out.append(("include", includes.location)) }
        return out
    }
}

struct OrderEntry: Hashable, Sendable {
    var key: String
    var descending: Bool
}

/// A `where` object: its members in the order they were written.
struct WhereClause: Sendable {
    var location: Location
    var members: [WhereMember]

    init(location: Location, members: [WhereMember] = []) {
        self.location = location
        self.members = members
    }
}

enum WhereMember: Sendable {
    /// `"key": value` or `"key": {"$op": …, …}`.
    case field(FieldEntry)
    /// `$or`, `$and`, `$nor`.
    case compound(Compound)
    /// `"$relatedTo": {"object": <Pointer>, "key": "likes"}`.
    case relatedTo(Located<Pointer>, key: Located<String>, Location)
}

struct FieldEntry: Sendable {
    var key: String
    var location: Location
    var constraint: FieldConstraint
}

enum FieldConstraint: Sendable {
    /// A plain value: equality (on an array field: contains).
    case equals(Located<Value>)
    /// An operator dictionary, in written order, one entry per operator name.
    case operators([OperatorEntry])
}

struct OperatorEntry: Sendable {
    var op: FieldOperator
    var location: Location
}

struct Compound: Sendable {
    var kind: CompoundKind
    var branches: [Branch]
    var location: Location
}

enum CompoundKind: String, Sendable {
    case or = "$or"
    case and = "$and"
    case nor = "$nor"
}

/// One subquery of a compound. Builder subqueries carry their class and any result-shaping
/// parameters so that the profile rules can reject them; decoded JSON branches carry neither.
struct Branch: Sendable {
    var clause: WhereClause
    var className: Located<String>?
    var shaping: [(name: String, location: Location)] = []
}

/// The right-hand side of an ordered comparison.
enum Operand: Sendable {
    case value(Value)
    /// `{"$relativeTime": "3 days ago"}`, resolved against the clock when the query runs.
    case relativeTime(String)
}

enum ListOperator: String, Sendable {
    case containedIn = "$in"
    case notContainedIn = "$nin"
    case containsAll = "$all"
    case containedBy = "$containedBy"
}

enum FieldOperator: Sendable {
    /// `$eq $ne $lt $lte $gt $gte`.
    case compare(ComparisonOperator, Located<Operand>)
    case list(ListOperator, [Located<Value>])
    case exists(Bool)
    /// `$regex` with its `$options` letters as written (checked when lowering).
    case regex(String, options: Located<String>?)
    case size(Int)
    /// `$nearSphere` with one of the `$maxDistance…` members.
    case near(GeoPoint, maxDistance: Located<Distance>?)
    /// LeanCloud's `$minDistance` (radians) beside `$nearSphere`: at least that far from its point.
    case minDistance(GeoPoint, Located<Distance>)
    case withinBox(southwest: GeoPoint, northeast: GeoPoint)
    case withinPolygon([GeoPoint])
    case withinCircle(center: GeoPoint, radius: Distance)
    case polygonContains(GeoPoint)
    /// `$inQuery` (negated: `$notInQuery`).
    case inQuery(QuerySpec, negated: Bool)
    /// `$select` (negated: `$dontSelect`).
    case select(QuerySpec, key: Located<String>, negated: Bool)
    case text(TextSearch)

    /// The operator's name on the wire; one operator dictionary holds each name once.
    var slot: String {
        switch self {
        case .compare(let op, _): return ComparisonWire.name(op)
        case .list(let op, _): return op.rawValue
        case .exists: return "$exists"
        case .regex: return "$regex"
        case .size: return "$size"
        case .near: return "$nearSphere"
        case .minDistance: return "$minDistance"
        case .withinBox: return "$within"
        case .withinPolygon, .withinCircle: return "$geoWithin"
        case .polygonContains: return "$geoIntersects"
        case .inQuery(_, let negated): return negated ? "$notInQuery" : "$inQuery"
        case .select(_, _, let negated): return negated ? "$dontSelect" : "$select"
        case .text: return "$text"
        }
    }

    var isGeo: Bool {
        switch self {
        case .near, .minDistance, .withinBox, .withinPolygon, .withinCircle, .polygonContains: return true
        default: return false
        }
    }
}

/// Wire names of the comparison operators.
enum ComparisonWire {
    static func name(_ op: ComparisonOperator) -> String {
        switch op {
        case .eq: return "$eq"
        case .ne: return "$ne"
        case .lt: return "$lt"
        case .le: return "$lte"
        case .gt: return "$gt"
        case .ge: return "$gte"
        }
    }

    static func op(_ name: String) -> ComparisonOperator? {
        switch name {
        case "$eq": return .eq
        case "$ne": return .ne
        case "$lt": return .lt
        case "$lte": return .le
        case "$gt": return .gt
        case "$gte": return .ge
        default: return nil
        }
    }
}
