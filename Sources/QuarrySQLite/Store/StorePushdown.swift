import Quarry
import QuarryStoreSupport

/// How one query runs on the SQLite store (docs/STORAGE.md#queries-pushdown-and-residual): the
/// conjuncts `SQLiteTranslator` decides go into the SQL, the rest stay residual
/// (`ConjunctSplit`), after SQLite has filtered the rows by whatever a residual conjunct implies
/// that translates. Order, skip and limit go into the SQL only when nothing is residual.
struct StorePushdown {
    /// `SELECT objectId, doc …` (and `quarry_regexp_undecided()` when `lenientConjunct` is
    /// set), or `SELECT count(*) …` when `counts`.
    let sql: String
    let bindings: [SQLiteBinding]
    let residual: [Filter]
    let residualReasons: [String]
    /// The residual conjunct SQLite ran as a superset with lenient regex tests: a returned row
    /// whose third column is 0 passed it exactly (docs/STORAGE.md#regular-expressions).
    let lenientConjunct: Int?
    let counts: Bool
    let ordered: Bool
    let paged: Bool

    init(_ query: Query, tables: [String: SQLiteTable], limits: Limits, mayThrow: (Filter) -> Bool) throws(Diagnostic) {
        var translator = SQLiteTranslator(tables: tables)
        let row: SQLiteTranslator.Row
        do throws(SQLiteNotComparable) {
            row = try translator.newRow(query.className)
        } catch {
            throw Diagnostic(.query.unknownClass, "there is no class named '\(query.className)'")
        }
        let split = ConjunctSplit(
            query, limits: limits, mayThrow: mayThrow,
            // When only its regular expressions may throw, SQLite still drops the rows where it
            // can neither hold nor throw (docs/STORAGE.md#regular-expressions).
            supersetOfThrowing: { part in
                mayThrow(part.withoutRegularExpressions) ? nil : translator.lenientSuperset(part, row)
            },
            translate: { part in
                var attempt = translator
                do throws(SQLiteNotComparable) {
                    let sql = try attempt.predicate(part, row, positive: true)
                    translator = attempt
                    return .decided(sql)
                } catch {
                    // Its translatable parts still let SQLite drop rows that cannot match; Quarry
                    // checks the whole conjunct on the rest.
                    return .refused(reason: error.reason, superset: translator.relaxed(part, row, positive: true))
                }
            })
        let (pushed, residual) = (split.pushed, split.residual)
        let filter = pushed.isEmpty ? "1" : pushed.joined(separator: " AND ")
        let from = "FROM \(row.table.name) AS \(row.alias) WHERE \(filter)"
        self.residual = residual
        residualReasons = split.residualReasons
        lenientConjunct = split.supersetOfThrowingIndex
        if residual.isEmpty, query.count {
            sql = "SELECT count(*) \(from)"
            (counts, ordered, paged) = (true, true, true)
            bindings = translator.bindings
            return
        }
        counts = false
        if residual.isEmpty {
            var limit = query.limit ?? query.profile.defaultLimit
            if let l = limit, let cap = query.profile.maxLimit, l > cap { limit = cap }
            var attempt = translator
            if let s = try? attempt.rows(
                query, row, column: "\(row.alias).objectId, \(row.alias).doc", filter: filter,
                limit: limit)
            {
                sql = s
                (ordered, paged) = (true, true)
                bindings = attempt.bindings
                return
            }
        }
        // The note is read after the row's WHERE ran: SQLite computes a row's result columns once
        // it passes, before it steps on, also into the sorter when an index leads the scan
        // (RegexSupersetTests.theNoteFollowsItsRowThroughAnIndex).
        let note = lenientConjunct == nil ? "" : ", quarry_regexp_undecided()"
        sql = "SELECT \(row.alias).objectId, \(row.alias).doc\(note) \(from) ORDER BY \(row.alias).rowid"
        (ordered, paged) = (false, false)
        bindings = translator.bindings
    }
}
