/// Rewrites IR whose leaves have one `LeafSemantics` into IR whose leaves all have another, with
/// the same results on every object: translation between the dialects is parse, convert, print.
///
/// The three semantics differ in what a test sees (IR-SEMANTICS "Leaf semantics"): `.sql` tests
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
/// **Exactness.** Without a schema nothing is assumed about a field: it may be missing, null, an
/// array or a relation, and hold values of any type. Some rules can only be exact when that is
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
    /// - Throws: every `translate.inexpressible` found (and `limit.nesting` for IR nested deeper
    ///   than `limits` allow).
    public static func convert(_ predicate: Predicate, to target: LeafSemantics, className: String?,
                               schema: (any Schema)?, limits: Limits = .default) throws(Diagnostics) -> Predicate
    {
        let converter = SemanticsConverter(target: target, schema: schema, limits: limits, variablesIn: predicate)
        let out = converter.predicate(predicate, SemanticsConverter.Scope(className: className), negate: false)
        guard converter.problems.isEmpty else { throw Diagnostics(converter.problems) }
        return out
    }

    /// The query with its predicate (and those of its inner queries) converted; order, paging and
    /// projection are kept.
    public static func convert(_ query: Query, to target: LeafSemantics, schema: (any Schema)?,
                               limits: Limits = .default) throws(Diagnostics) -> Query
    {
        var query = query
        query.predicate = try convert(query.predicate, to: target, className: query.className, schema: schema,
                                      limits: limits)
        return query
    }
}

/// One conversion run: the target, what is known about the data, the problems found so far and
/// the quantifier variables handed out.
final class SemanticsConverter {
    let target: LeafSemantics
    let schema: (any Schema)?
    let limits: Limits
    private(set) var problems: [Diagnostic] = []
    private var taken: Set<String>
    private var counter = 0

    init(target: LeafSemantics, schema: (any Schema)?, limits: Limits, variablesIn p: Predicate) {
        self.target = target
        self.schema = schema
        self.limits = limits
        var names = Set<String>()
        p.collectVariableNames(into: &names)
        taken = names
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
    func predicate(_ p: Predicate, _ scope: Scope, negate: Bool) -> Predicate {
        guard scope.depth <= maxDepth else {
            if !problems.contains(where: { $0.code == "limit.nesting" }) {
                problems.append(Diagnostic("limit.nesting", "the query nests deeper than \(maxDepth) levels"))
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
        case .leaf(let l):
            do throws(Diagnostic) {
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
    func nested(_ body: Predicate, binding variable: String, to collection: Expr, _ scope: Scope) -> Predicate {
        let d = domain(collection, scope)
        var inner = scope.deeper
        // An element that may itself be an array could hold anything.
        inner.variables[variable] = d.kinds.contains(.collection) ? .anything : ValueDomain(multiValued: false, kinds: d.kinds)
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
    func kept(_ l: Leaf, _ scope: Scope) -> Predicate {
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

    // MARK: - What the operands are

    /// What an operand may evaluate to.
    func domain(_ e: Expr, _ scope: Scope) -> ValueDomain {
        switch e {
        case .key(let path): return ValueDomain.of(path, in: scope.className, schema: schema)
        case .variable(let name): return scope.variables[name] ?? .anything
        case .literal(let v): return ValueDomain(literal: v)
        case .list(let items):
            if let v = Self.constantValue(.list(items)) { return ValueDomain(literal: v) }
            return .anything
        default: return .anything
        }
    }

    /// The value of an operand written in the query, or of a row-independent expression with
    /// a date value; nil for anything read from the data.
    static func constant(_ e: Expr) -> SQLCoercion.Constant? {
        if let v = constantValue(e) { return .value(v) }
        switch e {
        case .function(.now, let args) where args.isEmpty: return .date(e)
        case .function(.relativeTime, let args) where args.count == 1:
            if case .literal = args[0] { return .date(e) }
            return nil
        default: return nil
        }
    }

    static func constantValue(_ e: Expr) -> Value? {
        switch e {
        case .literal(let v): return v
        case .list(let items):
            var values: [Value] = []
            for item in items {
                guard let v = constantValue(item) else { return nil }
                values.append(v)
            }
            return .array(values)
        default: return nil
        }
    }

    /// A comparison read as "subject op constant", swapping a constant on the left to the right.
    /// Nil when neither side is a constant.
    static func oriented(_ l: Expr, _ op: ComparisonOperator, _ r: Expr)
        -> (subject: Expr, op: ComparisonOperator, constant: SQLCoercion.Constant)?
    {
        if let y = constant(r) { return (l, op, y) }
        if let y = constant(l) { return (r, op.swapped, y) }
        return nil
    }

    /// The elements of a constant collection (an IN list), nil for anything else.
    static func listValues(_ e: Expr) -> [Value]? {
        guard case .array(let items)? = constantValue(e) else { return nil }
        return items
    }

    // MARK: - Building target leaves

    func leaf(_ c: Condition, negated: Bool = false) -> Predicate {
        .leaf(Leaf(c, negated: negated, semantics: target))
    }

    func compare(_ e: Expr, _ op: ComparisonOperator, _ v: Value, _ opts: StringOptions = []) -> Predicate {
        leaf(.compare(e, op, .literal(v), opts))
    }

    func compare(_ e: Expr, _ op: ComparisonOperator, _ r: Expr, _ opts: StringOptions = []) -> Predicate {
        leaf(.compare(e, op, r, opts))
    }

    func isNull(_ e: Expr, negated: Bool = false) -> Predicate {
        leaf(.isNull(e), negated: negated)
    }

    /// Logical NOT for `.predicate` and `.document` output, where a leaf's `negated` is NOT.
    func not(_ p: Predicate) -> Predicate {
        switch p {
        case .constant(let b): return .constant(!b)
        case .not(let q): return q
        case .leaf(var l) where l.semantics != .sql:
            l.negated.toggle()
            return .leaf(l)
        default: return .not(p)
        }
    }

    /// AND of the parts, without constant true parts and one-element wrappers.
    func all(_ parts: [Predicate]) -> Predicate {
        var kept: [Predicate] = []
        for p in parts {
            switch p {
            case .constant(true): continue
            case .constant(false): return .constant(false)
            default: kept.append(p)
            }
        }
        return kept.isEmpty ? .constant(true) : kept.count == 1 ? kept[0] : .and(kept)
    }

    /// OR of the parts, without constant false parts and one-element wrappers.
    func any(_ parts: [Predicate]) -> Predicate {
        var kept: [Predicate] = []
        for p in parts {
            switch p {
            case .constant(false): continue
            case .constant(true): return .constant(true)
            default: kept.append(p)
            }
        }
        return kept.isEmpty ? .constant(false) : kept.count == 1 ? kept[0] : .or(kept)
    }

    /// `e.name` written as a key path when `e` is one.
    static func member(_ e: Expr, _ name: String) -> Expr {
        if case .key(let path) = e { return .key(path.appending(name)) }
        return .member(e, KeyPath([name]))
    }

    /// `x == v`, or `x IN {…}` for several values.
    func equalsOneOf(_ x: Expr, _ values: [Expr], _ opts: StringOptions) -> Predicate {
        values.count == 1 ? compare(x, .eq, values[0], opts) : leaf(.inCollection(x, .list(values), opts))
    }

    /// Whether a string test accepts `x`: `BEGINSWITH ""` holds for every string and nothing else.
    func isString(_ x: Expr) -> Predicate {
        leaf(.string(x, .beginsWith, .literal(.string("")), []))
    }
}

extension Value {
    /// The object a pointer or a `__type: Object` value stands for in equality (the engine's
    /// rule), which Parse equality also matches with a plain objectId string.
    var translationIdentity: String? {
        switch self {
        case .pointer(let p): return p.objectId
        case .object(let fields):
            guard case .string("Object")? = fields["__type"], case .string? = fields["className"],
                case .string(let id)? = fields["objectId"]
            else { return nil }
            return id
        default: return nil
        }
    }

    /// Whether ordered comparisons accept this value at all (`Value.compareOrdered`).
    var isOrderable: Bool {
        switch self {
        case .int, .double, .string, .date, .bool, .bytes: return true
        default: return false
        }
    }
}

extension ComparisonOperator {
    /// The operator that holds exactly when this one fails on comparable values.
    var complement: ComparisonOperator {
        switch self {
        case .eq: return .ne
        case .ne: return .eq
        case .lt: return .ge
        case .le: return .gt
        case .gt: return .le
        case .ge: return .lt
        }
    }
}
