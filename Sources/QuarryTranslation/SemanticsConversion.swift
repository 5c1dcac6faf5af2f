import QuarryCore

/// Rewrites IR whose leaves have one `LeafSemantics` into IR whose leaves all have another, with
/// the same results on every object: translation between the dialects is parse, convert, print.
///
/// The three semantics differ in what a test sees (docs/SEMANTICS.md#leaf-semantics): `.sql` tests
/// each non-null value a field reaches and is false on nil, even negated; `.predicate` tests the
/// value as a whole, with nil a value for `==`/`!=`; `.document` tests the value and each
/// element of an array, with a missing field equal to null. On top of that, `.sql` reads strings
/// and numbers as dates next to a date, and `.document` equality matches a pointer with its
/// objectId string. Each rule here is derived from the reference evaluator and restates the
/// source leaf exactly, for instance:
///
/// - `.predicate` `a != 5` is true on nil: as `.sql`, `a IS NULL OR a != 5`;
/// - `.sql` `tags = 'x'` tests every element: as `.predicate`, `ANY tags == "x"` (a quantifier
///   treats a single value as a one-element collection, so this is exact on scalars too);
/// - `.sql` `age > 5` also compares dates as milliseconds: as `.predicate`,
///   `ANY age > 5 OR ANY age > CAST("1970-01-01T00:00:00.005Z", "NSDate")`;
/// - `.sql` LIKE `'a%'` (case-insensitive) is `LIKE[c] "a*"`; literal `*`, `?` and `\` are escaped;
/// - `.document` `$ne` matches a missing field: as `.sql`, `a IS NULL OR a != 5`.
///
/// String tests are also written the way the target dialect spells them where that is exact:
/// LIKE in its glob or `%`/`_` syntax, `BEGINSWITH[c]` as SQL's LIKE, `==[c]` as a LIKE without
/// wildcards, and Parse's regex search as a whole-string MATCHES (`RegexText`).
///
/// **Exactness.** Without a schema or `FieldAssumptions` nothing is assumed about a field: it may
/// be missing, null, an array or a relation, and hold values of any type. Some rules can only be exact when that is
/// narrowed (SQL cannot tell an array from a single value; NSPredicate cannot state Parse's
/// pointer-equals-objectId rule for a field that may hold both pointers and objects), so they
/// need a `schema` — for the CLI, the `--data` file — and the result is then exact on data the
/// schema describes. A schema also makes translations shorter: date and objectId alternatives
/// that cannot occur are left out. A construct with no exact restatement is a
/// `translate.inexpressible` diagnostic naming it; nothing is approximated. A source query that
/// fails at run time (an SQL date comparison with a string that is not a date, on a date value)
/// has no results to preserve; its translation simply does not fail.
///
/// `.sql` output holds no `.not`: SQL's NOT only exists pushed into the leaves, so a logical NOT
/// is restated through each leaf (which needs a single-valued field). `.predicate` and
/// `.document` output keep `.not`, which is logical NOT there. Leaves that already have the
/// target semantics are kept; inner queries and quantifier bodies are converted too.
public enum SemanticsConversion {
    /// `predicate`, restated with `target` leaves only.
    ///
    /// - Parameters:
    ///   - className: the class the predicate is evaluated on, for looking up field types.
    ///   - schema: narrows what fields hold (see "Exactness"); nil assumes nothing.
    ///   - assumptions: what fields hold when there is no schema; nil assumes nothing.
    /// - Throws: every `translate.inexpressible` found (and `limit.nesting` for IR nested deeper
    ///   than `limits` allow).
    public static func convert(
        _ predicate: Filter, to target: LeafSemantics, className: String?,
        schema: (any Schema)?, assumptions: FieldAssumptions? = nil,
        limits: Limits = .default
    ) throws(Diagnostic) -> Filter {
        let converter = SemanticsConverter(
            target: target, schema: schema, assumptions: assumptions, limits: limits,
            variablesIn: predicate)
        let scope = SemanticsConverter.Scope(className: className)
        var out = converter.predicate(predicate, scope, negate: false)
        if target == .sql { out = converter.typeCheckedSQL(out, scope) }
        try Diagnostic.throwIfAny(converter.problems)
        return out
    }

    /// The query with its predicate (and those of its inner queries) converted; order, paging and
    /// projection are kept.
    public static func convert(
        _ query: Query, to target: LeafSemantics, schema: (any Schema)?,
        assumptions: FieldAssumptions? = nil, limits: Limits = .default
    ) throws(Diagnostic) -> Query {
        var query = query
        query.predicate = try convert(
            query.predicate, to: target, className: query.className, schema: schema,
            assumptions: assumptions, limits: limits)
        return query
    }
}

/// One conversion run: the target, what is known about the data, the problems found so far and
/// the quantifier variables handed out.
final class SemanticsConverter {
    let target: LeafSemantics
    let schema: (any Schema)?
    let assumptions: FieldAssumptions?
    let limits: Limits
    private(set) var problems: [Diagnostic] = []
    private var taken: Set<String>
    private var counter = 0

    init(
        target: LeafSemantics, schema: (any Schema)?, assumptions: FieldAssumptions?, limits: Limits,
        variablesIn p: Filter
    ) {
        self.target = target
        self.schema = schema
        self.assumptions = assumptions
        self.limits = limits
        // Each predicate level holds a condition and expressions: four walk levels per level.
        taken = p.variableNames(maxDepth: (limits.maxNestingDepth * 2 + 9) * 4)
    }

    /// IR depth allowed, as the evaluator's validator counts it.
    private var maxDepth: Int { limits.maxNestingDepth * 2 + 8 }

    /// A quantifier variable no other part of the predicate uses (`#` names cannot be spelled
    /// in any dialect, so they never meet a user's `$name`).
    func freshVariable() -> String {
        while true {
            let name = "#t\(counter)"
            counter += 1
            if taken.insert(name).inserted { return name }
        }
    }

    /// `p` (negated, when `negate`) with `target` leaves. Only an `.sql` target is ever asked to
    /// negate: other targets keep `.not`.
    func predicate(_ p: Filter, _ scope: Scope, negate: Bool) -> Filter {
        guard scope.depth <= maxDepth else {
            if !problems.contains(where: { $0.diagnosticCode == .limit.nesting }) {
                problems.append(Diagnostic(.limit.nesting, "the query nests deeper than \(maxDepth) levels"))
            }
            return .constant(false)
        }
        switch p {
        case .constant(let b):
            return .constant(b != negate)
        case .and(let ps):
            let cs = ps.map { predicate($0, scope.deeper, negate: negate) }
            return negate ? .or(cs) : .and(cs)
        case .or(let ps):
            let cs = ps.map { predicate($0, scope.deeper, negate: negate) }
            return negate ? .and(cs) : .or(cs)
        case .not(let q):
            if target == .sql { return predicate(q, scope.deeper, negate: !negate) }
            return .not(predicate(q, scope.deeper, negate: false))
        case .leaf(let source):
            let l = plainerString(source)
            if let answer = constantAnswer(l, scope) { return .constant(answer != negate) }
            do throws(Diagnostic) {
                try checkMongoPathRules(l, scope)
                switch target {
                case .predicate: return try toPredicate(l, scope)
                case .document: return try toDocument(l, scope)
                case .sql: return try toSQL(l, scope, negate: negate)
                }
            } catch {
                problems.append(error)
                return .constant(false)
            }
        }
    }

    /// Where a leaf is converted: the class its keys start from, how deep it sits, and what the
    /// quantifier variables around it may hold.
    struct Scope {
        var className: String?
        var depth = 0
        var variables: [String: ValueDomain] = [:]

        var deeper: Scope {
            var s = self
            s.depth += 1
            return s
        }
    }

    /// The body of a quantifier over `collection`, evaluated on the same object with `variable`
    /// bound to each element.
    func nested(_ body: Filter, binding variable: String, to collection: Expr, _ scope: Scope) -> Filter {
        let d = domain(collection, scope)
        var inner = scope.deeper
        // An element that may itself be an array could hold anything.
        inner.variables[variable] =
            d.kinds.contains(.collection) ? .anything : ValueDomain(multiValued: false, kinds: d.kinds)
        return predicate(body, inner, negate: false)
    }

    /// An inner query, converted on its own class.
    func nested(_ q: Query, _ scope: Scope) -> Query {
        var q = q
        q.predicate = predicate(q.predicate, Scope(className: q.className, depth: scope.depth + 1), negate: false)
        return q
    }

    /// A leaf that already has the target semantics, with its inner query or quantifier body
    /// converted (they may hold other leaves).
    func kept(_ l: Leaf, _ scope: Scope) -> Filter {
        var l = l
        switch l.condition {
        case .quantified(let q, let coll, let v, let body):
            l.condition = .quantified(q, coll, variable: v, nested(body, binding: v, to: coll, scope))
        case .inQuery(let k, let q):
            l.condition = .inQuery(k, nested(q, scope))
        case .select(let k, let q, let innerKey):
            l.condition = .select(k, nested(q, scope), innerKey: innerKey)
        default:
            break
        }
        return .leaf(l)
    }
}
