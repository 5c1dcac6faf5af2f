import Quarry

/// How one query runs on the PostgreSQL store (docs/STORAGE.md#postgresql-pushdown): the
/// normalized predicate's conjuncts, in order, are translated one by one; a conjunct the
/// translator refuses stays residual (Quarry evaluates it on the returned rows), and so does a
/// conjunct that may throw and everything after it, so errors surface on the rows and in the
/// order the reference evaluator meets them. Order, skip and limit go into the SQL only when
/// nothing is residual.
struct PostgresPushdown {
    /// `SELECT objectid, raw …`, or `SELECT count(*) …` when `counts`.
    let sql: String
    let bindings: [String]
    let residual: [Filter]
    let residualReasons: [String]
    let counts: Bool
    let ordered: Bool
    let paged: Bool

    init(_ query: Query, catalog: PostgresCatalog, limits: Limits, mayThrow: (Filter) -> Bool) throws(Diagnostic) {
        var translator = PostgresTranslator(catalog: catalog)
        guard let row = translator.newRow(query.className) else {
            throw Diagnostic(.query.unknownClass, "there is no class named '\(query.className)'")
        }
        var pushed: [String] = []
        var residual: [Filter] = []
        var reasons: [String] = []
        var blocked = false
        for part in PushdownEvaluator.conjuncts(of: query.predicate, limits: limits) {
            if blocked {
                residual.append(part)
                reasons.append("follows a conjunct that may throw; evaluated in the reference's order")
                continue
            }
            if mayThrow(part) {
                residual.append(part)
                reasons.append("may throw on some row (a regex, a date to parse or an inner query)")
                blocked = true
                continue
            }
            var attempt = translator
            attempt.narrowing = false
            do throws(PostgresNotComparable) {
                pushed.append(try attempt.predicate(part, row, positive: true))
                translator = attempt
                if attempt.narrowing {
                    residual.append(part)
                    reasons.append("a geo distance is narrowed by PostgreSQL with a 1 m margin and decided by Quarry")
                }
            } catch {
                residual.append(part)
                reasons.append(error.reason)
            }
        }
        let from =
            "FROM \(row.table.table) AS \(row.alias) WHERE "
            + (pushed.isEmpty ? "TRUE" : pushed.joined(separator: " AND "))
        self.residual = residual
        residualReasons = reasons
        if residual.isEmpty, query.count {
            sql = "SELECT count(*)::text \(from)"
            (counts, ordered, paged) = (true, true, true)
            bindings = translator.bindings
            return
        }
        counts = false
        let select = "SELECT \(row.alias).objectid, \(row.alias).raw \(from) ORDER BY "
        if residual.isEmpty, (query.skip ?? 0) >= 0, (query.limit ?? 0) >= 0 {
            var attempt = translator
            if let terms = try? attempt.orderTerms(query, row) {
                var limit = query.limit ?? query.profile.defaultLimit
                if let l = limit, let cap = query.profile.maxLimit, l > cap { limit = cap }
                var page = ""
                if let limit { page += " LIMIT " + attempt.parameter(String(limit), "bigint") }
                if let skip = query.skip, skip > 0 { page += " OFFSET " + attempt.parameter(String(skip), "bigint") }
                sql = select + terms.joined(separator: ", ") + page
                (ordered, paged) = (true, true)
                bindings = attempt.bindings
                return
            }
        }
        sql = select + "\(row.alias).seq"
        (ordered, paged) = (false, false)
        bindings = translator.bindings
    }
}
