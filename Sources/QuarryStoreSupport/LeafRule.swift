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

    /// A whole-array test (`$all`, `$containedBy`, `$size`) as SQL over the array `x` (SQLite
    /// and PostgreSQL alike): `test` on a non-null array, and a null or missing array deciding
    /// as `withoutOperand`. `strict`: `test` is already NULL for a NULL array.
    package func wholeArray(_ x: String, _ test: String, strict: Bool) -> String {
        let passes = strict ? test : "(\(x) IS NOT NULL AND \(test))"
        guard negated else { return passes }
        return withoutOperand ? "(\(x) IS NULL OR NOT \(test))" : "(\(x) IS NOT NULL AND NOT \(test))"
    }

    /// `$relatedTo` as SQL, from `listed` (whether the parent's `field` lists the row, never
    /// unknown): a missing parent or a null field (`field` NULL) decides as `withoutOperand`.
    package func related(_ listed: String, field: String) -> String {
        guard negated else { return listed }
        if semantics != .sql { return "(NOT \(listed))" }
        return "(\(field) IS NOT NULL AND NOT \(listed))"
    }
}

extension Expr {
    /// The members of a whole-array test's literal list (a single literal is a list of one, a
    /// null an empty list); nil for a computed list, which the stores leave residual.
    package var arrayTestMembers: [Value]? {
        if let items = literalValues { return items }
        if case .literal(let v) = self { return v.isNull ? [] : [v] }
        return nil
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
