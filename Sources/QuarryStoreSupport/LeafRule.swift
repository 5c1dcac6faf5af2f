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

    /// For `pointer.field op literal`, the pointer's and the field's names when the leaf holds
    /// exactly where the pointer's target exists and its field passes, so that both stores may
    /// write it as membership in the passing targets (docs/STORAGE.md#queries-pushdown-and-residual):
    /// not negated, not `!=` (a missing target passes it under the document semantics) and not
    /// a null literal (which a missing value equals there). The leaf's SQL is then TRUE on exactly
    /// the rows where it holds, which is all a NOT or IS NOT above it reads. Nil otherwise.
    package func targetComparison(_ path: FieldPath, _ op: ComparisonOperator, _ literal: Value)
        -> (pointer: String, field: String)?
    {
        guard !negated, op != .ne, !literal.isNull, path.count == 2, path.components[1] != "objectId" else {
            return nil
        }
        return (path.components[0], path.components[1])
    }
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
