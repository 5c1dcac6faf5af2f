/// One rewrite the normalizer applied, for EXPLAIN: the rule's name and what it changed.
public struct Rewrite: Hashable, Sendable, CustomStringConvertible {
    /// `constant-fold`, `flatten`, `not-pushdown`, `negation-to-operator`, `range-merge`,
    /// `contradiction`, `tautology`, `or-to-in`, `like-to-prefix`, `like-to-suffix`,
    /// `like-to-contains`, `duplicate`, `operand-swap`.
    public var rule: String
    public var before: String
    public var after: String

    public init(rule: String, before: String, after: String) {
        self.rule = rule
        self.before = before
        self.after = after
    }

    public var description: String { "\(rule): \(before) → \(after)" }
}
