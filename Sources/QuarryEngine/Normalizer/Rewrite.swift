import QuarryCore

/// One rewrite the normalizer applied, for EXPLAIN: the rule's name, and the part of the
/// predicate before and after it.
public struct Rewrite: Hashable, Sendable, CustomStringConvertible {
    /// `constant-fold`, `flatten`, `not-pushdown`, `negation-to-operator`, `range-merge`,
    /// `contradiction`, `tautology`, `or-to-in`, `like-to-prefix`, `like-to-suffix`,
    /// `like-to-contains`, `duplicate`, `operand-swap`.
    public var rule: String
    public var before: Filter
    public var after: Filter

    public init(rule: String, before: Filter, after: Filter) {
        self.rule = rule
        self.before = before
        self.after = after
    }

    /// `rule: before → after`, in EXPLAIN's notation.
    public var description: String {
        "\(rule): \(PredicateText.render(before)) → \(PredicateText.render(after))"
    }
}
