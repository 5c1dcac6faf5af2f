import Quarry

extension SQLiteTranslator {
    /// SQL that is TRUE on every row where the predicate holds (`positive`) or fails (not
    /// `positive`): the predicate itself where it translates, and otherwise its translatable
    /// parts, each part that does not translate read as TRUE. Implied by the predicate, not
    /// equivalent to it, so the caller keeps the predicate residual and uses this only to let
    /// the database drop rows that cannot match (docs/STORAGE.md#queries-pushdown-and-residual).
    /// Nil when no part constrains the rows; the bindings are kept only when it is not nil.
    mutating func relaxed(_ p: Filter, _ row: Row, positive: Bool) -> String? {
        var attempt = self
        if let exact = try? attempt.predicate(p, row, positive: positive) {
            self = attempt
            return exact
        }
        switch p {
        case .and(let ps), .or(let ps):
            var isAnd = false
            if case .and = p { isAnd = true }
            // As in `predicate`: NOT distributes over the two-valued operands (De Morgan).
            let conjunction = isAnd == positive
            attempt = self
            var parts: [String] = []
            for q in ps {
                if let s = attempt.relaxed(q, row, positive: positive) {
                    parts.append(s)
                } else if !conjunction {
                    // An alternative that constrains nothing: neither does the whole.
                    return nil
                }
            }
            guard !parts.isEmpty else { return nil }
            self = attempt
            return "(" + parts.joined(separator: conjunction ? " AND " : " OR ") + ")"
        case .not(let q):
            return relaxed(q, row, positive: !positive)
        case .constant, .leaf:
            return nil
        }
    }
}
