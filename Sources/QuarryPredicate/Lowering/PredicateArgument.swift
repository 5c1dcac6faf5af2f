import QuarryCore

/// A value bound to a `%…` placeholder of a format string, in order.
///
/// - `%@` takes `.value` (an array becomes a literal aggregate `{…}`) or, on the right of
///   `key IN %@`, a `.query` (Parse's `matchesQuery`).
/// - `%K` takes `.keyPath` (or a string `.value`), a dotted path such as `"address.city"`.
/// - `%d %i %u %x %ld %lld …` take an integer `.value`; `%f %g %e` an integer or a double.
public enum PredicateArgument: Hashable, Sendable {
    case value(Value)
    case keyPath(String)
    case query(Query)
}

extension PredicateArgument: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral,
    ExpressibleByArrayLiteral
{
    public init(stringLiteral value: String) { self = .value(.string(value)) }
    public init(integerLiteral value: Int64) { self = .value(.int(value)) }
    public init(floatLiteral value: Double) { self = .value(.double(value)) }
    public init(booleanLiteral value: Bool) { self = .value(.bool(value)) }
    public init(nilLiteral: ()) { self = .value(.null) }
    public init(arrayLiteral elements: Value...) { self = .value(.array(elements)) }
}
