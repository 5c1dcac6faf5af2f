import QuarryCore
import QuarryData

/// One condition of a `QueryBuilder`, made from a `Field` (`"score" > 10`,
/// `Field("name").hasPrefix("Big")`) or combined with `||`, `&&` and `!`.
///
/// A constraint is checked when the query is built, never when it is made: mistakes such as an
/// invalid key name or a latitude of 91 come back from `QueryBuilder.build()` as diagnostics
/// with the JSON path the SDK would have sent (`where.location.$nearSphere`).
public struct Constraint: Sendable {
    indirect enum Kind: Sendable {
        case equals(String, Value)
        case op(String, BuilderOperator)
        case compound(CompoundKind, [Constraint])
        /// `QueryBuilder.or(…)` and friends: whole subqueries, checked for class and shaping.
        case subqueries(CompoundKind, [QueryBuilder])
        case relatedTo(Pointer, key: String)
    }

    let kind: Kind

    init(_ kind: Kind) { self.kind = kind }

    /// Objects in the relation `key` of `object` (`[[user relationForKey:@"likes"] query]`,
    /// REST `$relatedTo`).
    public static func relatedTo(_ object: Pointer, key: String) -> Constraint {
        Constraint(.relatedTo(object, key: key))
    }

    /// Matches when any of the constraints matches (`$or`).
    public static func or(_ constraints: [Constraint]) -> Constraint {
        Constraint(.compound(.or, constraints))
    }

    /// Matches when all of the constraints match (`$and`).
    public static func and(_ constraints: [Constraint]) -> Constraint {
        Constraint(.compound(.and, constraints))
    }

    /// Matches when none of the constraints matches (`$nor`).
    public static func nor(_ constraints: [Constraint]) -> Constraint {
        Constraint(.compound(.nor, constraints))
    }

    public static func || (lhs: Constraint, rhs: Constraint) -> Constraint {
        if case .compound(.or, let ls) = lhs.kind { return .or(ls + [rhs]) }
        return .or([lhs, rhs])
    }

    /// Both must hold. Unlike repeated `where` calls, which replace an earlier equality on the
    /// same key as the SDKs do, `&&` never drops a side.
    public static func && (lhs: Constraint, rhs: Constraint) -> Constraint {
        if case .compound(.and, let ls) = lhs.kind { return .and(ls + [rhs]) }
        return .and([lhs, rhs])
    }

    public static prefix func ! (operand: Constraint) -> Constraint {
        .nor([operand])
    }
}

/// An operator of the builder, before it has a location: inner queries stay builders until the
/// query is built, so that their diagnostics carry the path at which they end up.
indirect enum BuilderOperator: Sendable {
    case compare(ComparisonOperator, Operand)
    case list(ListOperator, [Value])
    case exists(Bool)
    case regex(String, options: String?)
    case size(Int)
    case near(GeoPoint, maxDistance: Distance?)
    case withinBox(southwest: GeoPoint, northeast: GeoPoint)
    case withinPolygon([GeoPoint])
    case withinCircle(center: GeoPoint, radius: Distance)
    case polygonContains(GeoPoint)
    case inQuery(QueryBuilder, negated: Bool)
    case select(QueryBuilder, key: String, negated: Bool)
    case text(TextSearch)
}

/// A date relative to when the query runs: `"createdAt" > RelativeDate("2 days ago")`
/// (REST `$relativeTime`; `now`, `in 3 hours`, `1 week 2 days ago`; see `RelativeTime`).
public struct RelativeDate: Hashable, Sendable {
    public var text: String
    public init(_ text: String) { self.text = text }
}
