import Quarry
import QuarryStoreSupport

/// Why a conjunct has no PostgreSQL form with exactly Quarry's semantics: it stays residual.
struct PostgresNotComparable: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

/// Translates normalized IR into a PostgreSQL WHERE clause over the class tables of the store
/// (docs/STORAGE.md#postgresql-pushdown), leaf by leaf with each leaf's rules for null,
/// missing and array operands (`LeafSemantics`), as the SQLite translator does:
/// a translated leaf is SQL that is TRUE exactly when the leaf holds (FALSE or NULL
/// otherwise), so AND and OR carry over, and a NOT above a leaf becomes `IS NOT TRUE` for a
/// `.sql` leaf and the leaf's own negation for the others. Every literal is a `$n` parameter
/// bound as text and cast in the SQL; tables and fields are written by catalog number only.
struct PostgresTranslator {
    let catalog: PostgresCatalog
    private(set) var bindings: [String] = []
    private var aliases = 0
    /// Why a translated leaf is only a superset filter (a geo distance with its margin, a folded
    /// string test), when one is: the pushdown then keeps the conjunct residual as well.
    var narrowing: Narrowing?
    /// Where the narrowed leaves translated so far may differ from Quarry's answer (`x LIKE
    /// '%ǰ%'` beside a folded `ILIKE`): on a returned row where none is TRUE, the narrowed SQL
    /// was each leaf's exact value (docs/STORAGE.md#postgresql-residuals).
    var undecided: [String] = []
    /// Whether a leaf was narrowed with no such test (a geo superset, a folded test on an
    /// array's elements): Quarry must then decide every returned row.
    var undecidedEverywhere = false
    /// Whether a regular expression becomes the `LIKE` every string it matches passes (its
    /// GLOB superset), for a superset of a conjunct that may throw; otherwise regexes are not
    /// translated.
    var regexSupersets = false

    enum Narrowing: String {
        case distance = "a geo distance is narrowed by PostgreSQL with a 1 m margin and decided by Quarry"
        case polygon = "a polygon test is narrowed by PostgreSQL to the polygon's bounding box and decided by Quarry"
        case folding =
            "a case- or diacritic-insensitive test is narrowed by PostgreSQL over ASCII and decided by Quarry"

        /// Why the negation of such a leaf is not translated.
        var negated: String {
            switch self {
            case .distance: return "a negated distance test is evaluated by Quarry"
            case .polygon: return "a negated polygon test is evaluated by Quarry"
            case .folding: return PostgresTranslator.unfoldable
            }
        }
    }

    static let unfoldable =
        "a case- or diacritic-insensitive test that is negated or has a non-ASCII pattern is evaluated by Quarry"

    init(catalog: PostgresCatalog) { self.catalog = catalog }

    /// One class's table under an alias of its own.
    struct Row {
        let table: PostgresCatalog.Class
        let alias: String
    }

    mutating func newRow(_ className: String) -> Row? {
        guard let table = catalog.classes[className] else { return nil }
        defer { aliases += 1 }
        return Row(table: table, alias: "t\(aliases)")
    }

    /// `$n` with the text bound, and a cast. The parameter is typed `text` in the SQL itself
    /// (`$1::text::jsonb`): a prepared statement's parameter types are the server's reading of
    /// its text, and the value is always sent as text (docs/STORAGE.md#prepared-statements).
    mutating func parameter(_ text: String, _ cast: String) -> String {
        bindings.append(text)
        return cast == "text" ? "$\(bindings.count)::text" : "$\(bindings.count)::text::\(cast)"
    }

    /// SQL that is TRUE exactly when the predicate holds (`positive`) or fails (not `positive`).
    mutating func predicate(_ p: Filter, _ row: Row, positive: Bool) throws(PostgresNotComparable) -> String {
        switch p {
        case .constant(let b): return b == positive ? "TRUE" : "FALSE"
        case .and(let ps), .or(let ps):
            var isAnd = false
            if case .and = p { isAnd = true }
            // De Morgan: each operand is two-valued (TRUE, or not), so NOT distributes.
            let joiner = (isAnd == positive) ? " AND " : " OR "
            if ps.isEmpty { return (isAnd == positive) ? "TRUE" : "FALSE" }
            var parts: [String] = []
            for q in ps { parts.append(try predicate(q, row, positive: positive)) }
            return "(" + parts.joined(separator: joiner) + ")"
        case .not(let q):
            return try predicate(q, row, positive: !positive)
        case .leaf(var leaf):
            if positive { return try self.leaf(leaf, row) }
            // The negation of a superset filter is no filter of the negation.
            let wasNarrowing = narrowing
            defer { narrowing = wasNarrowing }
            narrowing = nil
            let negated = try negatedLeaf(&leaf, row)
            if let narrowing { throw PostgresNotComparable(narrowing.negated) }
            return negated
        }
    }

    private mutating func negatedLeaf(_ leaf: inout Leaf, _ row: Row) throws(PostgresNotComparable) -> String {
        if leaf.semantics == .sql {
            // A NOT above a strict leaf is logical NOT, not the leaf's own negation. A regex's
            // superset under it would be a subset of the NOT: the regex is not translated.
            let supersets = regexSupersets
            regexSupersets = false
            defer { regexSupersets = supersets }
            return "((\(try self.leaf(leaf, row))) IS NOT TRUE)"
        }
        leaf.negated.toggle()
        return try self.leaf(leaf, row)
    }

    /// SQL that is TRUE on every row where `p` holds or may throw: `p` translated with each
    /// regular expression as the `LIKE` of its GLOB superset (`regexSupersets`). The conjunct
    /// stays residual; Quarry evaluates it, charging and throwing as the reference does, on
    /// every row this keeps (docs/STORAGE.md#postgresql-residuals). Nil when it does not
    /// translate.
    mutating func regexSuperset(_ p: Filter, _ row: Row) -> String? {
        var attempt = self
        attempt.regexSupersets = true
        guard let sql = try? attempt.predicate(p, row, positive: true) else { return nil }
        attempt.regexSupersets = false
        self = attempt
        return sql
    }

    private mutating func leaf(_ leaf: Leaf, _ row: Row) throws(PostgresNotComparable) -> String {
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
        case .quantified: throw PostgresNotComparable("ANY/ALL/NONE quantifiers are evaluated by Quarry")
        case .geo(let condition): return try geo(condition, rule, row)
        case .inQuery(let key, let inner): return try inQuery(key, inner, rule, row)
        case .select(let key, let inner, let innerKey): return try select(key, inner, innerKey, rule, row)
        case .relatedTo(let parent, let key): return try relatedTo(parent, key, rule, row)
        case .text:
            throw PostgresNotComparable("text search ($text) has no PostgreSQL equivalent with the same tokenizing")
        }
    }

    /// ORDER BY terms for the query's keys (ties in insertion order).
    mutating func orderTerms(_ query: Query, _ row: Row) throws(PostgresNotComparable) -> [String] {
        var terms: [String] = []
        for key in query.order {
            guard case .key(let path, let direction) = key else {
                throw PostgresNotComparable("sorting by distance is done by Quarry")
            }
            guard case .scalar(let sql, let kind) = try operand(path, row), kind?.sortsAsQuarry ?? true else {
                throw PostgresNotComparable("sorting by \(path) (not one comparable type) is done by Quarry")
            }
            // A field no object has: every row ties.
            if sql == "NULL" { continue }
            // Missing and null first ascending, last descending, as Quarry orders them.
            terms.append(direction == .ascending ? "\(sql) ASC NULLS FIRST" : "\(sql) DESC NULLS LAST")
        }
        terms.append("\(row.alias).seq")
        return terms
    }
}
