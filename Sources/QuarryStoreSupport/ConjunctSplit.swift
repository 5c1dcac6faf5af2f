import QuarryCore
import QuarryEngine

/// Which of a query's conjuncts a store's SQL decides and which stay residual for Quarry to
/// evaluate on the returned rows, the same way for both stores
/// (docs/STORAGE.md#queries-pushdown-and-residual): the normalized predicate's conjuncts, in
/// order, go to the store's translator one by one; a conjunct it refuses stays residual, and so
/// does a conjunct that may throw and everything after it, so errors surface on the rows and in
/// the order the reference evaluator meets them.
package struct ConjunctSplit {
    /// What the store's translator made of one conjunct that cannot throw.
    package enum Translation {
        /// SQL that is TRUE exactly when the conjunct holds.
        case decided(String)
        /// SQL that is TRUE wherever the conjunct holds, and more: the conjunct stays residual.
        /// `undecided`, when there is one, is SQL that is TRUE on the rows where the narrowed SQL
        /// may differ from the conjunct; elsewhere it is the conjunct's exact value.
        case narrowed(String, reason: String, undecided: String? = nil)
        /// No SQL with Quarry's semantics; `superset`, when there is one, still narrows the rows.
        case refused(reason: String, superset: String?)
    }

    /// The SQL of each conjunct (or of a superset of it) that the store runs, in order.
    package private(set) var pushed: [String] = []
    /// What Quarry evaluates on the returned rows, in the reference's order.
    package private(set) var residual: [Filter] = []
    /// Why each residual conjunct stayed (EXPLAIN shows them).
    package private(set) var residualReasons: [String] = []
    /// The residual conjunct that may throw and whose superset the store runs
    /// (`supersetOfThrowing`): on a row where its regex tests were decided at no charge, the row's
    /// coming back means it holds, and Quarry need not test it there.
    package private(set) var supersetOfThrowingIndex: Int?
    /// The first narrowed conjunct with an `undecided` test, and that test: a returned row where
    /// it is not TRUE holds the conjunct, and Quarry need not test it there.
    package private(set) var narrowedWithUndecided: (index: Int, undecided: String)?

    /// - Parameters:
    ///   - supersetOfThrowing: SQL that narrows the rows for a conjunct that may throw without
    ///     losing a row where it holds or throws (docs/STORAGE.md#regular-expressions); nil:
    ///     none. The SQLite store's is also the conjunct's exact value on a row where each of its
    ///     regex tests was decided under the budget's first, uncharged limit; the PostgreSQL
    ///     store's (`LIKE` supersets of its regexes) is not, and it ignores
    ///     `supersetOfThrowingIndex`.
    ///   - supersetReason: EXPLAIN's reason for such a conjunct.
    ///   - translate: the store's translation of a conjunct that cannot throw.
    package init(
        _ query: Query, limits: Limits, mayThrow: (Filter) -> Bool,
        supersetOfThrowing: (Filter) -> String? = { _ in nil },
        supersetReason: String = ConjunctSplit.supersetOfThrowingReason, translate: (Filter) -> Translation
    ) {
        var blocked = false
        for part in PushdownEvaluator.conjuncts(of: query.predicate, limits: limits) {
            if blocked {
                keep(part, "follows a conjunct that may throw; evaluated in the reference's order")
                continue
            }
            if mayThrow(part) {
                blocked = true
                if let superset = supersetOfThrowing(part) {
                    keep(part, supersetReason)
                    pushed.append(superset)
                    supersetOfThrowingIndex = residual.count - 1
                } else {
                    keep(part, "may throw on some row (a regex, a date to parse or an inner query)")
                }
                continue
            }
            switch translate(part) {
            case .decided(let sql): pushed.append(sql)
            case .narrowed(let sql, let reason, let undecided):
                pushed.append(sql)
                keep(part, reason)
                if let undecided, narrowedWithUndecided == nil {
                    narrowedWithUndecided = (residual.count - 1, undecided)
                }
            case .refused(let reason, let superset):
                keep(part, reason)
                if let superset { pushed.append(superset) }
            }
        }
    }

    /// EXPLAIN's reason for the conjunct `supersetOfThrowing` narrows: only the rows its
    /// regexes left undecided are evaluated by Quarry.
    package static let supersetOfThrowingReason =
        "may throw on some row (a regex), so decided by the store only where the regex's uncharged limit decides it; Quarry tests the rows left undecided"

    private mutating func keep(_ part: Filter, _ reason: String) {
        residual.append(part)
        residualReasons.append(reason)
    }
}

extension Filter {
    /// The filter with each regular-expression test read as TRUE: what may still throw in it
    /// once its regexes are set aside (each store's `supersetOfThrowing` is for regexes only).
    package var withoutRegularExpressions: Filter {
        switch self {
        case .constant: return self
        case .and(let ps): return .and(ps.map(\.withoutRegularExpressions))
        case .or(let ps): return .or(ps.map(\.withoutRegularExpressions))
        case .not(let p): return .not(p.withoutRegularExpressions)
        case .leaf(let leaf):
            if case .string(_, .matches, _, _) = leaf.condition { return .constant(true) }
            return self
        }
    }
}
