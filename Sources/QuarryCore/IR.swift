// The intermediate representation every front-end lowers into (docs/ARCHITECTURE.md#the-pipeline).
// Nothing downstream knows which language a query came from: the differences between the
// dialects are lowered into the leaves' `LeafSemantics` and into explicit nodes.

/// A boolean condition over one object of the queried class.
public indirect enum Filter: Hashable, Codable, Sendable {
    case constant(Bool)
    case and([Filter])
    case or([Filter])
    case not(Filter)
    case leaf(Leaf)
}

/// A test, with its own rule for null and missing operands and for negation.
public struct Leaf: Hashable, Codable, Sendable {
    public var condition: Condition
    /// Applies the leaf's NOT rule (see `LeafSemantics`); lets SQL push NOT to the leaves.
    public var negated: Bool
    public var semantics: LeafSemantics
    /// The text the leaf was read from, so that an error met while checking or running it is
    /// located (docs/DIAGNOSTICS.md). Not part of the leaf's identity: two leaves that test the
    /// same thing are equal wherever they were written.
    public var range: SourceRange?

    public init(
        _ condition: Condition, negated: Bool = false, semantics: LeafSemantics,
        range: SourceRange? = nil
    ) {
        self.condition = condition
        self.negated = negated
        self.semantics = semantics
        self.range = range
    }

    public static func == (a: Leaf, b: Leaf) -> Bool {
        a.condition == b.condition && a.negated == b.negated && a.semantics == b.semantics
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(condition)
        hasher.combine(negated)
        hasher.combine(semantics)
    }
}

extension Filter {
    /// The filter with every leaf that has no range given `range` (a front-end locates the
    /// leaves one source construct lowered to).
    public func locating(_ range: SourceRange) -> Filter {
        switch self {
        case .constant: return self
        case .and(let ps): return .and(ps.map { $0.locating(range) })
        case .or(let ps): return .or(ps.map { $0.locating(range) })
        case .not(let p): return .not(p.locating(range))
        case .leaf(var l):
            if l.range == nil { l.range = range }
            return .leaf(l)
        }
    }
}

/// How a leaf treats null, missing and multi-valued operands, and what negation means.
public enum LeafSemantics: String, Hashable, Codable, Sendable, CaseIterable {
    /// SQL three-valued logic lowered to two values. A null or missing operand makes the leaf
    /// false, negated or not (`name != 'foo'` never matches a null `name`; only `isNull` sees
    /// nulls). An operand that reaches several values through arrays or to-many relations is
    /// existential: the leaf holds when some reached non-null value passes the (negated) test,
    /// like a join followed by DISTINCT.
    case sql
    /// NSPredicate: a missing key is nil; `==`/`!=` treat nil as a value (`x == nil` matches
    /// missing or null); ordered and string tests with nil are false; a collection is one value
    /// (ANY/ALL/NONE quantify explicitly). Negation is logical NOT.
    case predicate
    /// Parse / MongoDB: a field holding an array matches when the array itself or any element
    /// passes; equality with null matches missing or null. Negation is logical NOT, so `$ne` and
    /// `$nin` match a missing field.
    case document
}

public indirect enum Condition: Hashable, Codable, Sendable {
    /// `lhs op rhs`; string options apply when both sides are strings.
    case compare(Expr, ComparisonOperator, Expr, StringOptions)
    /// `lower <= value <= upper`, inclusive.
    case between(Expr, lower: Expr, upper: Expr)
    /// The value equals an element of the collection (`.list` literal, an array, a to-many key);
    /// when the collection is a string, the value is a substring of it (NSPredicate).
    case inCollection(Expr, Expr, StringOptions)
    /// The value is null or missing (or a dangling pointer).
    case isNull(Expr)
    /// String test: `lhs op pattern`.
    case string(Expr, StringOperator, Expr, StringOptions)
    /// Every element of the list is in the array value (Parse `$all`).
    case containsAll(Expr, Expr)
    /// Every element of the array value is in the list (Parse `$containedBy`).
    case containedBy(Expr, Expr)
    /// The array value has exactly this many elements (LeanCloud `sizeEqualTo`, `$size`).
    case arraySize(Expr, Int)
    /// ANY / ALL / NONE element of the collection, bound to `variable`, satisfies the predicate.
    case quantified(Quantifier, Expr, variable: String, Filter)
    case geo(GeoCondition)
    /// The pointer at `key` is among the results of the inner query (Parse `$inQuery`).
    case inQuery(FieldPath, Query)
    /// The value at `key` is among the values of `innerKey` over the inner query's results
    /// (Parse `$select`, SQL `col IN (Table[where].col)`, inverted relations).
    case select(FieldPath, Query, innerKey: FieldPath)
    /// The object is in the relation `key` of `object` (Parse `$relatedTo`).
    case relatedTo(Pointer, key: String)
    /// Token search over a string field (Parse `$text`).
    case text(FieldPath, TextSearch)
}

public enum ComparisonOperator: String, Hashable, Codable, Sendable, CaseIterable {
    case eq = "=="
    case ne = "!="
    case lt = "<"
    case le = "<="
    case gt = ">"
    case ge = ">="

    /// The operator that gives the same answer with the operands swapped.
    public var swapped: ComparisonOperator {
        switch self {
        case .eq, .ne: return self
        case .lt: return .gt
        case .le: return .ge
        case .gt: return .lt
        case .ge: return .le
        }
    }

    /// The operator that holds exactly when this one fails, on two values it orders (no NaN):
    /// a NOT above a comparison, for the normalizer, the translations and both stores' SQL.
    package var complement: ComparisonOperator {
        switch self {
        case .eq: return .ne
        case .ne: return .eq
        case .lt: return .ge
        case .le: return .gt
        case .gt: return .le
        case .ge: return .lt
        }
    }

    /// Whether an ordering result (-1, 0, 1) passes this operator.
    @inlinable public func accepts(_ order: Int) -> Bool {
        switch self {
        case .eq: return order == 0
        case .ne: return order != 0
        case .lt: return order < 0
        case .le: return order <= 0
        case .gt: return order > 0
        case .ge: return order >= 0
        }
    }
}

public struct StringOptions: OptionSet, Hashable, Codable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `[c]`, SQL LIKE, Parse `$regex` with `i`: Unicode case folding.
    public static let caseInsensitive = StringOptions(rawValue: 1)
    /// `[d]`: diacritics are stripped before comparing.
    public static let diacriticInsensitive = StringOptions(rawValue: 2)
}

public enum StringOperator: Hashable, Codable, Sendable {
    case beginsWith
    case endsWith
    case contains
    case like(LikeSyntax)
    case matches(RegexOptions)

    /// BEGINSWITH, ENDSWITH, CONTAINS: under `.predicate` semantics an empty pattern is in no
    /// string, as Foundation's `hasPrefix:@""` is NO (docs/SEMANTICS.md).
    public var isSubstringTest: Bool {
        switch self {
        case .beginsWith, .endsWith, .contains: return true
        case .like, .matches: return false
        }
    }
}

/// The wildcard language of a LIKE pattern; the pattern text stays as written.
public enum LikeSyntax: Hashable, Codable, Sendable {
    /// `%` any run, `_` one character; `escape` makes the next character literal.
    case sql(escape: Character?)
    /// NSPredicate: `*` any run, `?` one character, `\` escapes.
    case glob

    private enum CodingKeys: String, CodingKey { case syntax, escape }
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .syntax) {
        case "glob": self = .glob
        default: self = .sql(escape: (try c.decodeIfPresent(String.self, forKey: .escape))?.first)
        }
    }
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .glob: try c.encode("glob", forKey: .syntax)
        case .sql(let e):
            try c.encode("sql", forKey: .syntax)
            try c.encodeIfPresent(e.map(String.init), forKey: .escape)
        }
    }
}

public struct RegexOptions: Hashable, Codable, Sendable {
    /// NSPredicate MATCHES must match the whole string; Parse `$regex` searches.
    public var wholeString: Bool
    public var flags: RegexFlags
    public init(wholeString: Bool, flags: RegexFlags = []) {
        self.wholeString = wholeString
        self.flags = flags
    }
}

/// Parse `$options`: `i m x s`.
public struct RegexFlags: OptionSet, Hashable, Codable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let caseInsensitive = RegexFlags(rawValue: 1)  // i
    public static let multiline = RegexFlags(rawValue: 2)  // m
    public static let extended = RegexFlags(rawValue: 4)  // x
    public static let dotAll = RegexFlags(rawValue: 8)  // s

    /// Parses `imxs` letters; nil if any other character appears.
    public init?(letters: String) {
        var f: RegexFlags = []
        for ch in letters {
            switch ch {
            case "i": f.insert(.caseInsensitive)
            case "m": f.insert(.multiline)
            case "x": f.insert(.extended)
            case "s": f.insert(.dotAll)
            default: return nil
            }
        }
        self = f
    }

    public var letters: String {
        var s = ""
        if contains(.caseInsensitive) { s += "i" }
        if contains(.multiline) { s += "m" }
        if contains(.extended) { s += "x" }
        if contains(.dotAll) { s += "s" }
        return s
    }
}

public enum Quantifier: String, Hashable, Codable, Sendable {
    case any, all, none
}

public struct TextSearch: Hashable, Codable, Sendable {
    public var terms: String
    public var language: String?
    public var caseSensitive: Bool
    public var diacriticSensitive: Bool
    public init(
        terms: String, language: String? = nil, caseSensitive: Bool = false,
        diacriticSensitive: Bool = false
    ) {
        self.terms = terms
        self.language = language
        self.caseSensitive = caseSensitive
        self.diacriticSensitive = diacriticSensitive
    }
}

// MARK: - Geo

public enum GeoCondition: Hashable, Codable, Sendable {
    /// Within `maxDistance` of the point (unbounded when nil). Sorting by distance is explicit
    /// in `Query.order`, which front-ends fill in as their dialect defines.
    case near(FieldPath, GeoPoint, maxDistance: Distance?)
    case withinBox(FieldPath, southwest: GeoPoint, northeast: GeoPoint)
    case withinPolygon(FieldPath, [GeoPoint])
    case withinCircle(FieldPath, center: GeoPoint, radius: Distance)
    /// The polygon at `key` contains the point (Parse `$geoIntersects`).
    case polygonContains(FieldPath, GeoPoint)
    /// Backendless `distance(lat, lon, key.latitude, key.longitude) op unit(x)`.
    case distance(FieldPath, from: GeoPoint, ComparisonOperator, Distance)

    /// The geo-point (or polygon) field the condition tests.
    public var key: FieldPath {
        switch self {
        case .near(let k, _, _), .withinBox(let k, _, _), .withinPolygon(let k, _),
            .withinCircle(let k, _, _), .polygonContains(let k, _), .distance(let k, _, _, _):
            return k
        }
    }

    /// The values a cached plan or a text template takes as parameters
    /// (docs/ARCHITECTURE.md#plan-parameters), in a fixed order: each coordinate and distance
    /// amount as a double, a polygon's ring as one polygon value. Units, operators and the key
    /// stay in the condition.
    package var parameters: [Value] {
        switch self {
        case .near(_, let p, let d):
            return [.double(p.latitude), .double(p.longitude)] + (d.map { [.double($0.value)] } ?? [])
        case .withinBox(_, let sw, let ne):
            return [.double(sw.latitude), .double(sw.longitude), .double(ne.latitude), .double(ne.longitude)]
        case .withinPolygon(_, let ring): return [.polygon(ring)]
        case .withinCircle(_, let p, let r): return [.double(p.latitude), .double(p.longitude), .double(r.value)]
        case .polygonContains(_, let p): return [.double(p.latitude), .double(p.longitude)]
        case .distance(_, let p, _, let d): return [.double(p.latitude), .double(p.longitude), .double(d.value)]
        }
    }

    /// How many values `parameters` holds.
    package var parameterCount: Int {
        switch self {
        case .near(_, _, let d): return d == nil ? 2 : 3
        case .withinBox: return 4
        case .withinPolygon: return 1
        case .withinCircle, .distance: return 3
        case .polygonContains: return 2
        }
    }

    /// The condition with `values` in the places `parameters` lists; nil unless they are as
    /// many, each of the kind its place holds.
    package func with(parameters values: ArraySlice<Value>) -> GeoCondition? {
        guard values.count == parameterCount else { return nil }
        var numbers: [Double] = []
        var ring: [GeoPoint]?
        for v in values {
            switch v {
            case .double(let d): numbers.append(d)
            case .polygon(let r): ring = r
            default: return nil
            }
        }
        func point(_ i: Int) -> GeoPoint { GeoPoint(latitude: numbers[i], longitude: numbers[i + 1]) }
        switch self {
        case .near(let k, _, let d):
            guard numbers.count == values.count else { return nil }
            return .near(k, point(0), maxDistance: d.map { Distance(numbers[2], $0.unit) })
        case .withinBox(let k, _, _):
            guard numbers.count == 4 else { return nil }
            return .withinBox(k, southwest: point(0), northeast: point(2))
        case .withinPolygon(let k, _):
            guard let ring else { return nil }
            return .withinPolygon(k, ring)
        case .withinCircle(let k, _, let r):
            guard numbers.count == 3 else { return nil }
            return .withinCircle(k, center: point(0), radius: Distance(numbers[2], r.unit))
        case .polygonContains(let k, _):
            guard numbers.count == 2 else { return nil }
            return .polygonContains(k, point(0))
        case .distance(let k, _, let op, let d):
            guard numbers.count == 3 else { return nil }
            return .distance(k, from: point(0), op, Distance(numbers[2], d.unit))
        }
    }

    /// The condition with a placeholder in each parameter's place (what a plan shape keeps).
    package var withPlaceholders: GeoCondition {
        switch self {
        case .withinPolygon(let k, _): return .withinPolygon(k, [])
        default:
            let zeros = [Value](repeating: .double(0), count: parameterCount)
            return with(parameters: zeros[...]) ?? self
        }
    }
}

/// A length with its unit, kept as written so that printers reproduce it exactly.
public struct Distance: Hashable, Codable, Sendable {
    public var value: Double
    public var unit: DistanceUnit
    public init(_ value: Double, _ unit: DistanceUnit) {
        self.value = value
        self.unit = unit
    }
    public var meters: Double { unit.meters(value) }
    public var radians: Double { meters / Geo.earthRadiusMeters }
}

public enum DistanceUnit: String, Hashable, Codable, Sendable, CaseIterable {
    case meters = "m"
    case kilometers = "km"
    case miles = "mi"
    case feet = "ft"
    case yards = "yd"
    /// An angle at the centre of the Earth (Parse `$maxDistance`).
    case radians = "rad"

    public func meters(_ v: Double) -> Double {
        switch self {
        case .meters: return v
        case .kilometers: return v * 1000
        case .miles: return v * 1609.344
        case .feet: return v * 0.3048
        case .yards: return v * 0.9144
        case .radians: return v * Geo.earthRadiusMeters
        }
    }
}

// MARK: - Expressions

/// Literals, keys and variables are held inline; only the cases that contain another
/// expression or a filter are boxed (a box per literal was most of substituting a text
/// template's values: docs/ARCHITECTURE.md#text-templates).
public enum Expr: Hashable, Codable, Sendable {
    case literal(Value)
    /// A path from the evaluated object (or from `SELF` inside a quantifier).
    case key(FieldPath)
    /// `$NAME`: bound by substitution, or by a quantifier / SUBQUERY while it iterates.
    case variable(String)
    /// NSPredicate `SELF`: the evaluated object itself (or the current element).
    case evaluatedObject
    /// A path applied to another expression's value (`$x.name`).
    indirect case member(Expr, FieldPath)
    /// A literal aggregate `{a, b}` or `IN (a, b)` list.
    case list([Expr])
    indirect case arithmetic(ArithmeticOperator, Expr, Expr)
    indirect case negate(Expr)
    case function(Function, [Expr])
    /// A collection operator applied to a collection (`children.@count`, `@sum.items.price`).
    indirect case aggregate(AggregateOperator, Expr)
    indirect case index(Expr, IndexSpec)
    /// `SUBQUERY(collection, $x, predicate)`: the elements that satisfy the predicate.
    indirect case subquery(Expr, variable: String, Filter)
    /// `CAST(value, 'NSDate')` and friends.
    indirect case cast(Expr, CastType)
}

public enum ArithmeticOperator: String, Hashable, Codable, Sendable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case modulus = "%"
    case power = "**"
}

public enum AggregateOperator: String, Hashable, Codable, Sendable, CaseIterable {
    case count = "@count"
    case sum = "@sum"
    case avg = "@avg"
    case min = "@min"
    case max = "@max"
    case distinctUnionOfObjects = "@distinctUnionOfObjects"
    case unionOfObjects = "@unionOfObjects"
}

public enum IndexSpec: Hashable, Codable, Sendable {
    case first
    case last
    case size
    /// `[n]` on an array, `['key']` on an object.
    case at(Expr)
}

public enum CastType: String, Hashable, Codable, Sendable {
    case date = "NSDate"
    case number = "NSNumber"
    case string = "NSString"
}

/// Built-in functions. Raw values are NSPredicate's selector names where one exists.
public enum Function: String, Hashable, Codable, Sendable, CaseIterable {
    case sum = "sum:"
    case count = "count:"
    case min = "min:"
    case max = "max:"
    case average = "average:"
    case median = "median:"
    case mode = "mode:"
    case stddev = "stddev:"
    case add = "add:to:"
    case subtract = "from:subtract:"
    case multiply = "multiply:by:"
    case divide = "divide:by:"
    case modulus = "modulus:by:"
    case sqrt = "sqrt:"
    case log = "log:"
    case ln = "ln:"
    case raise = "raise:toPower:"
    case exp = "exp:"
    case floor = "floor:"
    case ceiling = "ceiling:"
    case abs = "abs:"
    case trunc = "trunc:"
    case random = "random"
    case randomn = "random:"
    case now = "now"
    case uppercase = "uppercase:"
    case lowercase = "lowercase:"
    case length = "length:"
    case bitwiseAnd = "bitwiseAnd:with:"
    case bitwiseOr = "bitwiseOr:with:"
    case bitwiseXor = "bitwiseXor:with:"
    case leftshift = "leftshift:by:"
    case rightshift = "rightshift:by:"
    case onesComplement = "onesComplement:"
    case noindex = "noindex:"
    case distanceToLocation = "distanceToLocation:fromLocation:"
    /// Parse `$relativeTime` ("in 2 days", "3 hours ago", "now"), resolved against the clock
    /// when the query runs.
    case relativeTime = "relativeTime:"

    /// The number of arguments the function takes.
    public var arity: Int {
        switch self {
        case .random, .now: return 0
        case .add, .subtract, .multiply, .divide, .modulus, .raise, .bitwiseAnd, .bitwiseOr,
            .bitwiseXor, .leftshift, .rightshift, .distanceToLocation:
            return 2
        default: return 1
        }
    }

    /// The name as written in a call: `sqrt` for `sqrt:`.
    public var callName: String {
        String(rawValue.prefix(while: { $0 != ":" }))
    }
}

// MARK: - Constructors that read like the IR

extension Filter {
    public static func leaf(
        _ condition: Condition, negated: Bool = false,
        _ semantics: LeafSemantics
    ) -> Filter {
        .leaf(Leaf(condition, negated: negated, semantics: semantics))
    }

    /// Logical NOT that stays two-valued: for SQL leaves De Morgan pushes it to the leaves,
    /// where the leaf's own NOT rule applies.
    public func pushingNotToLeaves() -> Filter {
        switch self {
        case .constant(let b): return .constant(!b)
        case .and(let ps): return .or(ps.map { $0.pushingNotToLeaves() })
        case .or(let ps): return .and(ps.map { $0.pushingNotToLeaves() })
        case .not(let p): return p
        case .leaf(var l):
            l.negated.toggle()
            return .leaf(l)
        }
    }
}
