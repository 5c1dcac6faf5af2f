import Quarry
import QuarryStoreSupport

/// How one query runs on the PostgreSQL store (docs/STORAGE.md#postgresql-pushdown): the
/// conjuncts `PostgresTranslator` decides go into the SQL, the rest stay residual
/// (`ConjunctSplit`; a geo distance is both). Order, skip and limit go into the SQL only when
/// nothing is residual.
struct PostgresPushdown {
    /// `SELECT objectid, raw, version …` (and `passedConjunct`'s undecided test), or `SELECT
    /// count(*), version …` when `counts`: every answer carries the catalog version of the
    /// snapshot it was read in (a one-row subquery PostgreSQL runs once), so a read answered by
    /// this one statement knows which catalog it was translated on
    /// (docs/STORAGE.md#fixed-cost-per-query).
    let sql: String
    let bindings: [String]
    let residual: [Filter]
    let residualReasons: [String]
    let counts: Bool
    let ordered: Bool
    let paged: Bool
    /// The residual conjunct the statement's fourth column, TRUE where the conjunct's narrowed
    /// SQL may differ from it, tells Quarry to test on those rows only (`PassedConjunct`).
    let passedConjunct: Int?

    init(_ query: Query, catalog: PostgresCatalog, limits: Limits, mayThrow: (Filter) -> Bool) throws(Diagnostic) {
        var translator = PostgresTranslator(catalog: catalog)
        guard let row = translator.newRow(query.className) else {
            throw Diagnostic(.query.unknownClass, "there is no class named '\(query.className)'")
        }
        let split = ConjunctSplit(
            query, limits: limits, mayThrow: mayThrow,
            // When only its regular expressions may throw, the rows none of them can match are
            // dropped: each regex is the LIKE its matches pass (docs/STORAGE.md#postgresql-residuals).
            supersetOfThrowing: { part in
                mayThrow(part.withoutRegularExpressions) ? nil : translator.regexSuperset(part, row)
            },
            supersetReason: Self.regexSupersetReason
        ) { part in
            var attempt = translator
            (attempt.narrowing, attempt.undecided, attempt.undecidedEverywhere) = (nil, [], false)
            do throws(PostgresNotComparable) {
                let sql = try attempt.predicate(part, row, positive: true)
                translator = attempt
                guard let narrowing = attempt.narrowing else { return .decided(sql) }
                // A NULL test (a NULL field) leaves the leaf's value NULL either way.
                let undecided =
                    attempt.undecidedEverywhere || attempt.undecided.isEmpty
                    ? nil : "COALESCE(\(attempt.undecided.joined(separator: " OR ")), FALSE)"
                return .narrowed(sql, reason: narrowing.rawValue, undecided: undecided)
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
            (sql, bindings) = Self.referencedParameters(
                "SELECT count(*)::text, \(Self.version) \(from)", translator.bindings)
            (counts, ordered, paged, passedConjunct) = (true, true, true, nil)
            return
        }
        counts = false
        let columns = "\(row.alias).objectid, \(row.alias).raw, \(Self.version)"
        let select = "SELECT \(columns) \(from) ORDER BY "
        if residual.isEmpty, (query.skip ?? 0) >= 0, (query.limit ?? 0) >= 0 {
            var attempt = translator
            if let terms = try? attempt.orderTerms(query, row) {
                var limit = query.limit ?? query.profile.defaultLimit
                if let l = limit, let cap = query.profile.maxLimit, l > cap { limit = cap }
                var page = ""
                if let limit { page += " LIMIT " + attempt.parameter(String(limit), "bigint") }
                if let skip = query.skip, skip > 0 { page += " OFFSET " + attempt.parameter(String(skip), "bigint") }
                (sql, bindings) = Self.referencedParameters(
                    select + terms.joined(separator: ", ") + page, attempt.bindings)
                (ordered, paged, passedConjunct) = (true, true, nil)
                return
            }
        }
        (ordered, paged) = (false, false)
        // A narrowed conjunct is tested by Quarry only on the rows its undecided column marks.
        passedConjunct = split.narrowedWithUndecided?.index
        let marks = split.narrowedWithUndecided.map { ", " + $0.undecided } ?? ""
        (sql, bindings) = Self.referencedParameters(
            "SELECT \(columns)\(marks) \(from) ORDER BY \(row.alias).seq", translator.bindings)
    }

    /// EXPLAIN's reason for a conjunct narrowed by its regular expressions' `LIKE` supersets.
    static let regexSupersetReason =
        "may throw on some row (a regex), so narrowed by PostgreSQL to the rows its regular expressions' LIKE supersets let through and decided by Quarry"

    /// The statement with only the parameters it reads, numbered in their order in it. A
    /// fragment the translator wrote and then left out (a branch it decided) leaves its bound
    /// values behind; a prepared statement's parameter that its text never reads has no type
    /// the server can find, and the same text would be bound with different counts
    /// (docs/STORAGE.md#prepared-statements). Every parameter is written `$n::text`.
    static func referencedParameters(_ sql: String, _ bindings: [String]) -> (String, [String]) {
        var out: [UInt8] = []
        out.reserveCapacity(sql.utf8.count)
        var kept: [String] = []
        var renumbered: [Int: Int] = [:]
        let bytes = Array(sql.utf8)
        let suffix = Array("::text".utf8)
        var i = 0
        while i < bytes.count {
            var j = i + 1
            if bytes[i] == UInt8(ascii: "$") {
                while j < bytes.count, bytes[j] &- UInt8(ascii: "0") < 10 { j += 1 }
            }
            guard j > i + 1, bytes[j...].starts(with: suffix),
                let n = Int(String(decoding: bytes[(i + 1)..<j], as: UTF8.self)), n >= 1, n <= bindings.count
            else {
                out.append(bytes[i])
                i += 1
                continue
            }
            let number =
                renumbered[n]
                ?? {
                    kept.append(bindings[n - 1])
                    renumbered[n] = kept.count
                    return kept.count
                }()
            out.append(contentsOf: "$\(number)".utf8)
            i = j
        }
        return (String(decoding: out, as: UTF8.self), kept)
    }

    private static let version = "(SELECT version::text FROM quarry_catalog_version)"
}
