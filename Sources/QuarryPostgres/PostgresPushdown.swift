import Quarry
import QuarryStoreSupport

/// How one query runs on the PostgreSQL store (docs/STORAGE.md#postgresql-pushdown): the
/// conjuncts `PostgresTranslator` decides go into the SQL, the rest stay residual
/// (`ConjunctSplit`; a geo distance is both). Order, skip and limit go into the SQL only when
/// nothing is residual.
struct PostgresPushdown {
    /// `SELECT objectid, raw, version …`, or `SELECT count(*), version …` when `counts`: every
    /// answer carries the catalog version of the snapshot it was read in (a one-row
    /// subquery PostgreSQL runs once), so a read answered by this one statement knows which
    /// catalog it was translated on (docs/STORAGE.md#fixed-cost-per-query).
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
        let split = ConjunctSplit(query, limits: limits, mayThrow: mayThrow) { part in
            var attempt = translator
            attempt.narrowing = nil
            do throws(PostgresNotComparable) {
                let sql = try attempt.predicate(part, row, positive: true)
                translator = attempt
                guard let narrowing = attempt.narrowing else { return .decided(sql) }
                return .narrowed(sql, reason: narrowing.rawValue)
            } catch {
                return .refused(reason: error.reason, superset: nil)
            }
        }
        let (pushed, residual) = (split.pushed, split.residual)
        let from =
            "FROM \(row.table.table) AS \(row.alias) WHERE "
            + (pushed.isEmpty ? "TRUE" : pushed.joined(separator: " AND "))
        self.residual = residual
        residualReasons = split.residualReasons
        if residual.isEmpty, query.count {
            sql = "SELECT count(*)::text, \(Self.version) \(from)"
            (counts, ordered, paged) = (true, true, true)
            bindings = translator.bindings
            return
        }
        counts = false
        let select = "SELECT \(row.alias).objectid, \(row.alias).raw, \(Self.version) \(from) ORDER BY "
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

    private static let version = "(SELECT version::text FROM quarry_catalog_version)"
}
