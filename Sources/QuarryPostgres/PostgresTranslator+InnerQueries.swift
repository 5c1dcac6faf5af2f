import Quarry
import QuarryStoreSupport

extension PostgresTranslator {
    /// `$inQuery`/`$notInQuery` on a pointer to the inner query's class, as an IN-subselect
    /// with the inner query's order, skip and its profile's inner-query limit, as Quarry's
    /// evaluator applies them (docs/STORAGE.md#postgresql-inner-queries). The pushdown only
    /// gets here when the conjunct cannot throw, so the inner query cannot fail; anything the
    /// subselect could not say exactly (an untranslatable inner predicate, a geo distance that
    /// is only a superset filter, an order PostgreSQL cannot follow) leaves it residual.
    mutating func inQuery(_ key: FieldPath, _ inner: Query, _ rule: LeafRule, _ row: Row) throws(PostgresNotComparable)
        -> String
    {
        guard case .scalar(let x, let kind) = try operand(key, row) else {
            throw PostgresNotComparable("$inQuery is pushed down only on a pointer to the inner query's class")
        }
        // A field no object holds: every row decides without an operand.
        guard let kind else { return rule.withoutOperand ? "TRUE" : "FALSE" }
        guard kind == .pointer(to: inner.className) else {
            throw PostgresNotComparable("$inQuery is pushed down only on a pointer to the inner query's class")
        }
        let members = "\(x) IN (\(try innerIds(inner)))"
        guard rule.negated else { return "(\(members))" }
        return rule.withoutOperand ? "(\(x) IS NULL OR NOT \(members))" : "(\(x) IS NOT NULL AND NOT \(members))"
    }

    /// The inner query's objectIds, in its order, after its skip and limit.
    private mutating func innerIds(_ inner: Query) throws(PostgresNotComparable) -> String {
        guard let innerRow = newRow(inner.className) else {
            throw PostgresNotComparable("an inner query on a class the store does not have is evaluated by Quarry")
        }
        guard (inner.skip ?? 0) >= 0, (inner.limit ?? 0) >= 0 else {
            throw PostgresNotComparable("an inner query with a negative skip or limit is evaluated by Quarry")
        }
        // A superset of the inner rows (a regex's LIKE included) would change which rows its
        // limit keeps: the inner predicate is translated exactly or not at all.
        let (outerNarrowing, outerSupersets) = (narrowing, regexSupersets)
        (narrowing, regexSupersets) = (nil, false)
        defer { regexSupersets = outerSupersets }
        let filter = try predicate(inner.predicate, innerRow, positive: true)
        if narrowing != nil {
            throw PostgresNotComparable(
                "a superset filter (a geo distance, a folded string test) in an inner query is evaluated by Quarry")
        }
        narrowing = outerNarrowing
        let terms: [String]
        do throws(PostgresNotComparable) { terms = try orderTerms(inner, innerRow) } catch {
            throw PostgresNotComparable("an inner query whose order PostgreSQL cannot follow is evaluated by Quarry")
        }
        var limit = inner.profile.defaultInnerLimit
        if let own = inner.limit { limit = inner.profile.maxInnerLimit.map { Swift.min(own, $0) } ?? own }
        var sql =
            "SELECT \(innerRow.alias).objectid FROM \(innerRow.table.table) AS \(innerRow.alias) WHERE \(filter)"
            + " ORDER BY " + terms.joined(separator: ", ")
        if let limit { sql += " LIMIT " + parameter(String(limit), "bigint") }
        if let skip = inner.skip, skip > 0 { sql += " OFFSET " + parameter(String(skip), "bigint") }
        return sql
    }
}
