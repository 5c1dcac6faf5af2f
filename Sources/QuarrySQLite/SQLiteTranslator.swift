import Quarry
import QuarryStoreSupport

/// Why a query has no SQLite equivalent with exactly Quarry's semantics.
public struct SQLiteNotComparable: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// A value bound to a `?NNN` parameter. Literals are bound rather than written into the SQL so
/// that doubles reach SQLite bit for bit.
package enum SQLiteBinding: Equatable, Sendable {
    case int(Int64)
    case double(Double)
    case text(String)
}

/// Translates a `Query` into one SQLite SELECT over the tables of `SQLitePeer`, leaf by leaf
/// with each leaf's own rules for null, missing and array operands (`LeafSemantics`), so that
/// SQLite returns exactly the objects the reference evaluator returns, in the same order.
///
/// How the rules map: a translated leaf is SQL that is TRUE exactly when the leaf holds (FALSE
/// or NULL otherwise), so AND and OR carry over unchanged, and a NOT above a leaf becomes
/// `IS NOT 1` for a `.sql` leaf and the leaf's own negation for the others (where negation is
/// logical NOT). Arrays are JSON text read with `json_each`; a path through a pointer is a
/// correlated lookup by objectId; inner queries are IN-subqueries with the inner query's order
/// and limit.
struct SQLiteTranslator {
    let tables: [String: SQLiteTable]
    private(set) var bindings: [SQLiteBinding] = []
    private var aliases = 0
    /// Set while translating a superset of a conjunct whose regular expressions may throw
    /// (`lenientSuperset`): each regex test answers what lets its row through where its cheap
    /// first try does not decide the match, instead of failing the statement.
    private(set) var lenientRegex = false
    /// Whether the leaf being translated sits under `IS NOT 1` (a NOT above a `.sql` leaf), which
    /// turns its outcome around.
    private(set) var underIsNot = false

    init(tables: [String: SQLiteTable]) { self.tables = tables }

    /// `SELECT objectId …` (or `SELECT count(*) …` for a count query).
    mutating func select(_ query: Query) throws(SQLiteNotComparable) -> String {
        let row = try newRow(query.className)
        let filter = try predicate(query.predicate, row, positive: true)
        if query.count {
            return "SELECT count(*) FROM \(row.table.name) AS \(row.alias) WHERE \(filter)"
        }
        var limit = query.limit ?? query.profile.defaultLimit
        if let l = limit, let cap = query.profile.maxLimit, l > cap { limit = cap }
        return try rows(query, row, column: "\(row.alias).objectId", filter: filter, limit: limit)
    }

    /// The SELECT of one query's rows: filter, order (ties in insertion order), skip, limit.
    mutating func rows(_ query: Query, _ row: Row, column: String, filter: String, limit: Int?)
        throws(SQLiteNotComparable) -> String
    {
        var sql = "SELECT \(column) FROM \(row.table.name) AS \(row.alias) WHERE \(filter)"
        var terms: [String] = []
        for key in query.order { terms.append(contentsOf: try orderTerms(key, row)) }
        // Quarry answers in insertion order (ties too); without this SQLite would answer in
        // the order of whatever index it reads.
        terms.append("\(row.alias).rowid")
        sql += " ORDER BY " + terms.joined(separator: ", ")
        if let skip = query.skip, skip < 0 { throw SQLiteNotComparable("a negative skip is an error in Quarry") }
        if let limit, limit < 0 { throw SQLiteNotComparable("a negative limit is an error in Quarry") }
        if let limit {
            sql += " LIMIT \(limit)"
        } else if query.skip != nil {
            sql += " LIMIT -1"
        }
        if let skip = query.skip, skip > 0 { sql += " OFFSET \(skip)" }
        return sql
    }

    // MARK: - Rows and parameters

    /// One class's table under an alias of its own (`t0`, `t1` for inner queries…).
    struct Row {
        let table: SQLiteTable
        let alias: String
    }

    mutating func newRow(_ className: String) throws(SQLiteNotComparable) -> Row {
        guard let table = tables[className] else {
            throw SQLiteNotComparable("the class \(className) is not in the data")
        }
        defer { aliases += 1 }
        return Row(table: table, alias: "t\(aliases)")
    }

    /// A parameter for the value.
    mutating func parameter(_ b: SQLiteBinding) -> String {
        bindings.append(b)
        return "?\(bindings.count)"
    }

    /// `(?1, ?2, …)` for the values.
    mutating func parameterList(_ bs: [SQLiteBinding]) -> String {
        "(" + bs.map { parameter($0) }.joined(separator: ", ") + ")"
    }

    // MARK: - Predicates

    /// SQL that is TRUE exactly when the predicate holds (`positive`) or fails (not `positive`).
    mutating func predicate(_ p: Filter, _ row: Row, positive: Bool) throws(SQLiteNotComparable) -> String {
        switch p {
        case .constant(let b): return b == positive ? "1" : "0"
        case .and(let ps), .or(let ps):
            var isAnd = false
            if case .and = p { isAnd = true }
            // De Morgan: each operand is two-valued (TRUE, or not), so NOT distributes.
            let joiner = (isAnd == positive) ? " AND " : " OR "
            if ps.isEmpty { return (isAnd == positive) ? "1" : "0" }
            var parts: [String] = []
            for q in ps { parts.append(try predicate(q, row, positive: positive)) }
            return "(" + parts.joined(separator: joiner) + ")"
        case .not(let q):
            return try predicate(q, row, positive: !positive)
        case .leaf(var leaf):
            if positive { return try self.leaf(leaf, row) }
            if leaf.semantics == .sql {
                // A NOT above a strict leaf is logical NOT, not the leaf's own negation. The leaf
                // is parenthesized: `NOT x IS NOT 1` would read as `NOT (x IS NOT 1)`.
                underIsNot = true
                defer { underIsNot = false }
                return "((\(try self.leaf(leaf, row))) IS NOT 1)"
            }
            leaf.negated.toggle()
            return try self.leaf(leaf, row)
        }
    }

    /// SQL that is TRUE on every row where the conjunct holds, may throw or charges the regex
    /// budget, for a conjunct whose only way to throw is a regular expression (the caller
    /// checks): the conjunct translated with each regex test answering, where the budget's
    /// first, uncharged limit does not decide the match, the value that lets the row through —
    /// 1 where the row's result rises with the match, 0 where it falls. The conjunct stays
    /// residual; Quarry evaluates it, charging and throwing as the reference does, on every row
    /// this keeps (docs/STORAGE.md#regular-expressions). Nil when it does not translate.
    mutating func lenientSuperset(_ p: Filter, _ row: Row) -> String? {
        var attempt = self
        attempt.lenientRegex = true
        guard let sql = try? attempt.predicate(p, row, positive: true) else { return nil }
        attempt.lenientRegex = false
        self = attempt
        return sql
    }

    private mutating func leaf(_ leaf: Leaf, _ row: Row) throws(SQLiteNotComparable) -> String {
        let rule = LeafRule(semantics: leaf.semantics, negated: leaf.negated)
        switch leaf.condition {
        case .compare(let l, let op, let r, let options): return try compare(l, op, r, options, rule, row)
        case .between(let e, let lower, let upper): return try between(e, lower, upper, rule, row)
        case .inCollection(let e, let c, let options): return try inCollection(e, c, options, rule, row)
        case .isNull(let e): return try isNull(e, rule, row)
        case .string(let e, let op, let pattern, let options): return try string(e, op, pattern, options, rule, row)
        case .containsAll(let e, let list): return try containsAll(e, list, rule, row)
        case .containedBy(let e, let list): return try containedBy(e, list, rule, row)
        case .arraySize(let e, let n): return try arraySize(e, n, rule, row)
        case .geo(let condition): return try geo(condition, rule, row)
        case .inQuery(let key, let inner): return try inQuery(key, inner, rule, row)
        case .select(let key, let inner, let innerKey): return try select(key, inner, innerKey, rule, row)
        case .relatedTo(let parent, let key): return try relatedTo(parent, key, rule, row)
        case .quantified:
            throw SQLiteNotComparable("ANY/ALL/NONE quantifiers are not translated to SQLite")
        case .text:
            throw SQLiteNotComparable("text search ($text) has no SQLite equivalent with the same tokenizing")
        }
    }

    // MARK: - Order

    private mutating func orderTerms(_ key: SortKey, _ row: Row) throws(SQLiteNotComparable) -> [String] {
        switch key {
        case .key(let path, let direction):
            guard case .scalar(let sql, let kind) = try operand(path, row) else {
                throw SQLiteNotComparable("sorting by \(path) (a geo point or an array) is not translated")
            }
            if let kind, !kind.isScalarForSorting {
                throw SQLiteNotComparable("sorting by \(path) (\(kind.name) values) is not translated")
            }
            // NULL sorts first ascending and last descending in both; ties keep insertion order.
            return [direction == .ascending ? sql : sql + " DESC"]
        case .distance(let path, let from, let direction):
            guard case .geo(let lat, let lon) = try operand(path, row) else {
                throw SQLiteNotComparable("sorting by distance needs a geo point field; \(path) is not one")
            }
            let d =
                "quarry_distance(\(parameter(.double(from.latitude))), \(parameter(.double(from.longitude))), \(lat), \(lon))"
            // Quarry puts objects without a point after every distance, whichever the direction.
            return direction == .ascending
                ? ["(\(lat) IS NULL)", d]
                : ["(\(lat) IS NULL) DESC", d + " DESC"]
        }
    }
}

extension SQLiteColumnKind {
    /// Kinds whose SQLite order is Quarry's order.
    var isScalarForSorting: Bool {
        switch self {
        case .integer, .real, .text, .date, .bool, .pointer: return true
        default: return false
        }
    }
}
