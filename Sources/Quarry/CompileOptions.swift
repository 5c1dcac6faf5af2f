/// What a query text is compiled with, besides the text and its class.
///
/// ```swift
/// var options = CompileOptions(schema: db, profile: .parse)
/// options.arguments = ["jo", 18]               // NSPredicate %@ and %d, in order
/// let query = try Dialect.predicate.compile("name BEGINSWITH[c] %@ AND age > %d",
///                                           className: "Contact", options: options)
/// ```
public struct CompileOptions: Sendable {
    /// Enables class, field and type checks (and date-literal conversion in SQL); without it
    /// only the syntax and the dialect's own rules are checked. A `Database` is a schema.
    public var schema: (any Schema)?
    /// The compatibility profile: its rules for what a dialect may say, and the query's limits.
    public var profile: Profile
    /// Safety caps (text length, nesting, list sizes, …).
    public var limits: Limits
    /// NSPredicate `%@ %K %d …` values, in order (predicate dialect only).
    public var arguments: [PredicateArgument]
    /// NSPredicate `$NAME` values, substituted at compile time (predicate dialect only). When
    /// nil, variables stay in the IR and the engine binds them when the query runs.
    public var variables: [String: Value]?

    public init(
        schema: (any Schema)? = nil, profile: Profile = .exact, limits: Limits = .default,
        arguments: [PredicateArgument] = [], variables: [String: Value]? = nil
    ) {
        self.schema = schema
        self.profile = profile
        self.limits = limits
        self.arguments = arguments
        self.variables = variables
    }
}
