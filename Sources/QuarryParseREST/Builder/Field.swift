import QuarryCore

/// A key to constrain: `Field("score") > 10`, or with a literal, `"score" > 10`.
/// Dots reach into pointers and objects (`"post.author"`).
public struct Field: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let name: String

    public init(_ name: String) { self.name = name }
    public init(stringLiteral value: String) { self.name = value }
    public var description: String { name }

    private func op(_ o: BuilderOperator) -> Constraint { Constraint(.op(name, o)) }

    // MARK: Equality and comparison

    /// Equal to the value; on an array field, the array contains it; `== nil` matches a missing
    /// or null field. Repeating an equality on the same key replaces the earlier one.
    public static func == (lhs: Field, rhs: Value) -> Constraint { Constraint(.equals(lhs.name, rhs)) }
    /// Not equal (`$ne`); also matches objects without the field.
    public static func != (lhs: Field, rhs: Value) -> Constraint { lhs.op(.compare(.ne, .value(rhs))) }
    public static func < (lhs: Field, rhs: Value) -> Constraint { lhs.op(.compare(.lt, .value(rhs))) }
    public static func <= (lhs: Field, rhs: Value) -> Constraint { lhs.op(.compare(.le, .value(rhs))) }
    public static func > (lhs: Field, rhs: Value) -> Constraint { lhs.op(.compare(.gt, .value(rhs))) }
    public static func >= (lhs: Field, rhs: Value) -> Constraint { lhs.op(.compare(.ge, .value(rhs))) }

    public static func < (lhs: Field, rhs: RelativeDate) -> Constraint {
        lhs.op(.compare(.lt, .relativeTime(rhs.text)))
    }
    public static func <= (lhs: Field, rhs: RelativeDate) -> Constraint {
        lhs.op(.compare(.le, .relativeTime(rhs.text)))
    }
    public static func > (lhs: Field, rhs: RelativeDate) -> Constraint {
        lhs.op(.compare(.gt, .relativeTime(rhs.text)))
    }
    public static func >= (lhs: Field, rhs: RelativeDate) -> Constraint {
        lhs.op(.compare(.ge, .relativeTime(rhs.text)))
    }

    /// `$eq`: equality that combines with other operators on the same key instead of replacing them.
    public func equalTo(_ value: Value) -> Constraint { op(.compare(.eq, .value(value))) }

    // MARK: Lists and arrays

    /// The value is one of these; on an array field, the array holds any of them (`$in`).
    public func containedIn(_ values: [Value]) -> Constraint { op(.list(.containedIn, values)) }
    /// The value is none of these; also matches objects without the field (`$nin`).
    public func notContainedIn(_ values: [Value]) -> Constraint { op(.list(.notContainedIn, values)) }
    /// The array field holds every one of these (`$all`).
    public func containsAll(_ values: [Value]) -> Constraint { op(.list(.containsAll, values)) }
    /// Every element of the array field is one of these (`$containedBy`).
    public func containedBy(_ values: [Value]) -> Constraint { op(.list(.containedBy, values)) }
    /// The array field has exactly `count` elements (LeanCloud `sizeEqualTo`, `$size`).
    public func sizeEqualTo(_ count: Int) -> Constraint { op(.size(count)) }

    // MARK: Existence

    /// The object has a non-null value for the key (`$exists: true`).
    public var exists: Constraint { op(.exists(true)) }
    /// The object has no value, or null, for the key (`$exists: false`).
    public var doesNotExist: Constraint { op(.exists(false)) }

    // MARK: Strings

    /// Starts with the text, taken literally (sent as `^\Q…\E`). Case-sensitive unless asked.
    public func hasPrefix(_ prefix: String, caseInsensitive: Bool = false) -> Constraint {
        op(.regex(QuotedRegex.pattern(.prefix, prefix), options: caseInsensitive ? "i" : nil))
    }
    /// Ends with the text, taken literally (sent as `\Q…\E$`).
    public func hasSuffix(_ suffix: String, caseInsensitive: Bool = false) -> Constraint {
        op(.regex(QuotedRegex.pattern(.suffix, suffix), options: caseInsensitive ? "i" : nil))
    }
    /// Contains the text, taken literally (sent as `\Q…\E`).
    public func containsString(_ substring: String, caseInsensitive: Bool = false) -> Constraint {
        op(.regex(QuotedRegex.pattern(.contains, substring), options: caseInsensitive ? "i" : nil))
    }
    /// Matches the PCRE pattern anywhere in the string (`$regex`); `modifiers` are any of
    /// `i` (case-insensitive), `m` (multi-line), `x` (extended), `s` (dot matches newline).
    public func matchesRegex(_ pattern: String, modifiers: String = "") -> Constraint {
        op(.regex(pattern, options: modifiers.isEmpty ? nil : modifiers))
    }
    /// Token search (`$text`): every term of `terms` appears as a word of the field; a quoted
    /// phrase must appear as consecutive words; a term with a leading `-` must not appear.
    public func matchesText(
        _ terms: String, language: String? = nil, caseSensitive: Bool = false,
        diacriticSensitive: Bool = false
    ) -> Constraint {
        op(
            .text(
                TextSearch(
                    terms: terms, language: language, caseSensitive: caseSensitive,
                    diacriticSensitive: diacriticSensitive)))
    }

    // MARK: Relations

    /// The pointer (or array of pointers) points to an object the inner query returns (`$inQuery`).
    public func matchesQuery(_ query: QueryBuilder) -> Constraint { op(.inQuery(query, negated: false)) }
    /// The pointer points to no object the inner query returns; also matches objects without
    /// the field (`$notInQuery`).
    public func doesNotMatchQuery(_ query: QueryBuilder) -> Constraint { op(.inQuery(query, negated: true)) }
    /// The value equals the `key` of some object the inner query returns (`$select`).
    public func matchesKey(_ key: String, in query: QueryBuilder) -> Constraint {
        op(.select(query, key: key, negated: false))
    }
    /// The value equals the `key` of no object the inner query returns (`$dontSelect`).
    public func doesNotMatchKey(_ key: String, in query: QueryBuilder) -> Constraint {
        op(.select(query, key: key, negated: true))
    }

    // MARK: Geo

    /// Has a geo point; results come nearest first unless the query sets an order (`$nearSphere`).
    public func near(_ point: GeoPoint) -> Constraint { op(.near(point, maxDistance: nil)) }
    /// Within `distance` of the point (radians, kilometres or miles are sent as such; other
    /// units as kilometres), nearest first unless the query sets an order.
    public func near(_ point: GeoPoint, within distance: Distance) -> Constraint {
        op(.near(point, maxDistance: distance))
    }
    /// Inside the box, edges included; the box may not cross the antimeridian (`$within.$box`).
    public func withinGeoBox(southwest: GeoPoint, northeast: GeoPoint) -> Constraint {
        op(.withinBox(southwest: southwest, northeast: northeast))
    }
    /// Inside the polygon of at least three points, edges included (`$geoWithin.$polygon`).
    public func withinPolygon(_ points: [GeoPoint]) -> Constraint { op(.withinPolygon(points)) }
    /// Within `radius` of `center`, in no particular order (`$geoWithin.$centerSphere`).
    public func withinCircle(center: GeoPoint, radius: Distance) -> Constraint {
        op(.withinCircle(center: center, radius: radius))
    }
    /// The polygon field contains the point (`$geoIntersects.$point`).
    public func polygonContains(_ point: GeoPoint) -> Constraint { op(.polygonContains(point)) }
}

/// A sort key of a `QueryBuilder`.
public struct Ordering: Hashable, Sendable {
    public var key: String
    public var descending: Bool

    public static func ascending(_ key: String) -> Ordering { Ordering(key: key, descending: false) }
    public static func descending(_ key: String) -> Ordering { Ordering(key: key, descending: true) }
}
