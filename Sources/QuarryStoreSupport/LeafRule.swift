import QuarryCore

/// A leaf's semantics and negation, which decide how both stores' translators write it
/// (docs/STORAGE.md#queries-pushdown-and-residual).
package struct LeafRule {
    package let semantics: LeafSemantics
    package let negated: Bool

    package init(semantics: LeafSemantics, negated: Bool) {
        self.semantics = semantics
        self.negated = negated
    }

    /// The answer when the operand reaches nothing testable (IR: `decideWithoutOperand`).
    package var withoutOperand: Bool { semantics == .sql ? false : negated }
}

extension ComparisonOperator {
    /// The operator as SQL writes it (SQLite and PostgreSQL alike).
    package var sql: String {
        switch self {
        case .eq: return "="
        case .ne: return "<>"
        case .lt: return "<"
        case .le: return "<="
        case .gt: return ">"
        case .ge: return ">="
        }
    }
}
