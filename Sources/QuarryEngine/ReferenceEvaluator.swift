import Foundation
import QuarryCore

/// The reference evaluator (docs/ARCHITECTURE.md#the-reference-evaluator): runs the IR over a
/// `Database` as directly as the rules in docs/SEMANTICS.md read, row by row, with no indexes and
/// no plan. It is the oracle every optimized executor is compared against, so it favours being
/// obviously correct over speed; the only things it prepares once per query are string patterns
/// (regex, LIKE, folded literals) and inner-query results.
///
/// Errors are `Diagnostic`s without a source range: `query.unknown-class`,
/// `query.unbound-variable`, `query.function-arity`, `query.invalid-skip`,
/// `query.invalid-limit`, `regex.invalid`, `date.unparseable`, `date.relative-time`, and the
/// safety caps `limit.regex`, `limit.inner-rows`, `limit.subqueries`, `limit.subquery-depth`,
/// `limit.nesting`, `limit.deadline`.
public struct ReferenceEvaluator: Sendable {
    public let database: Database
    public let limits: Limits
    /// Values for `$NAME` variables.
    public let variables: [String: Value]
    private let now: @Sendable () -> Int64
    private let random: @Sendable () -> Double

    /// - Parameters:
    ///   - now: the clock, in epoch milliseconds, read once per query for `now()` and
    ///     `$relativeTime`.
    ///   - random: numbers in `0..<1` for `random()` and `random:`.
    public init(
        database: Database, limits: Limits = .default, variables: [String: Value] = [:],
        now: @escaping @Sendable () -> Int64 = ReferenceEvaluator.systemClock,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.database = database
        self.limits = limits
        self.variables = variables
        self.now = now
        self.random = random
    }

    /// Runs a query: filter, order, count or page, then includes and projection.
    public func run(_ query: Query) throws(Diagnostic) -> QueryResult {
        var validator = QueryValidator(source: database, limits: limits, variables: Set(variables.keys))
        try validator.check(query)
        return try evaluation().run(query)
    }

    /// Whether one object satisfies a predicate (live queries, conditional saves). The object
    /// need not be stored; its pointers resolve against the database, and so do inner queries.
    public func matches(_ record: Record, className: String, predicate: Filter) throws(Diagnostic) -> Bool {
        var validator = QueryValidator(source: database, limits: limits, variables: Set(variables.keys))
        try validator.check(predicate)
        return try evaluation().evaluate(predicate, Scope(record: record, className: className))
    }

    /// The system clock in epoch milliseconds.
    public static func systemClock() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    private func evaluation() -> Evaluation {
        Evaluation(source: database, limits: limits, variables: variables, nowMillis: now(), random: random)
    }
}
