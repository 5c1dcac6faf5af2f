import QuarryCore

// Leaves restated with `.predicate` semantics.
//
// NSPredicate quantifiers make this the most expressive target: `ANY s, $x: T($x)` holds when
// some non-nil element of s passes T, with a single value taken as a one-element collection and
// nil as empty. That is exactly `.sql`'s existential rule, and `.document`'s "the value or an
// element" for every test a whole array fails (comparisons with a single value, string and geo
// tests). On a field the schema shows to be single-valued, the quantifier is left out.

extension SemanticsConverter {
    func toPredicate(_ l: Leaf, _ scope: Scope) throws(Diagnostic) -> Filter {
        switch l.semantics {
        case .predicate: return kept(l, scope)
        case .sql: return try sqlAsPredicate(l, scope)
        case .document:
            let p = try documentAsPredicate(l, scope)
            return l.negated ? not(p) : p
        }
    }

    /// Some non-nil value `s` reaches passes `body` (which must be false on nil). A single-valued
    /// `s` is tested directly.
    func some(_ s: Expr, _ d: ValueDomain, _ body: (Expr) -> Filter) -> Filter {
        d.multiValued ? anyElement(s, body) : body(s)
    }

    /// `ANY s, $x: body($x)`.
    func anyElement(_ s: Expr, _ body: (Expr) -> Filter) -> Filter {
        let v = freshVariable()
        return leaf(.quantified(.any, s, variable: v, body(.variable(v))))
    }

    /// `x` differs from every value (x is not nil).
    func differsFromAll(_ x: Expr, _ values: [Expr], _ opts: StringOptions) -> Filter {
        values.count == 1 ? compare(x, .ne, values[0], opts) : not(leaf(.inCollection(x, .list(values), opts)))
    }

    // MARK: - From .sql

    /// `.sql`: some non-null value passes the test (negated: fails it, both sides comparable).
    private func sqlAsPredicate(_ l: Leaf, _ scope: Scope) throws(Diagnostic) -> Filter {
        let negated = l.negated
        switch l.condition {
        case .compare(let a, let op, let b, let opts):
            // A failed comparison of comparable values is the complementary comparison.
            let op = negated ? op.complement : op
            guard let (s, o, y) = Self.oriented(a, op, b) else {
                return try sqlFieldsAsPredicate(l, a, op, b, opts, scope)
            }
            return try sqlCompareAsPredicate(l, s, o, y, opts, scope)

        case .between(let e, let lo, let hi):
            let (lower, upper) = try sqlBounds(l, lo, hi)
            guard let lower, let upper else { return .constant(false) }
            if negated {
                return any([
                    try sqlCompareAsPredicate(l, e, .lt, .value(lower), [], scope),
                    try sqlCompareAsPredicate(l, e, .gt, .value(upper), [], scope),
                ])
            }
            let d = domain(e, scope)
            let lows = try coerced(l) { () throws(SQLCoercion.Untranslatable) in
                try SQLCoercion.alternatives(.ge, .value(lower), kinds: d.kinds)
            }
            let highs = try coerced(l) { () throws(SQLCoercion.Untranslatable) in
                try SQLCoercion.alternatives(.le, .value(upper), kinds: d.kinds)
            }
            // The bounds' date (or millisecond) twins go together; a string bound that is not a
            // date has none, and SQL fails on date values then.
            let pairs = zip(lows, highs).prefix(lows.count == highs.count ? 2 : 1)
            return any(pairs.map { pair in some(e, d) { leaf(.between($0, lower: pair.0.1, upper: pair.1.1)) } })

        case .inCollection(let e, let coll, let opts):
            guard let items = Self.listValues(coll) else {
                throw inexpressible(l, "IN over \(Self.describe(coll)) rather than a list of values")
            }
            let members = items.filter { !$0.isNull }
            let d = domain(e, scope)
            var values: [Expr] = []
            for m in members {
                values += try coerced(l) { () throws(SQLCoercion.Untranslatable) in
                    try SQLCoercion.equalValues(.value(m), kinds: d.kinds)
                }
            }
            if !negated { return members.isEmpty ? .constant(false) : some(e, d) { equalsOneOf($0, values, opts) } }
            return some(e, d) { x in
                all([compare(x, .ne, .null), values.isEmpty ? .constant(true) : differsFromAll(x, values, opts)])
            }

        case .isNull(let e):
            let d = domain(e, scope)
            if negated { return some(e, d) { compare($0, .ne, .null) } }
            guard d.multiValued else { return compare(e, .eq, .null) }
            let v = freshVariable()
            return leaf(.quantified(.none, e, variable: v, compare(.variable(v), .ne, .null)))

        case .string(let e, let op, let pattern, let opts):
            guard let (op2, text) = try stringTest(l, op, pattern, opts) else { return .constant(false) }
            let test = { (x: Expr) in self.leaf(.string(x, op2, .literal(.string(text)), opts)) }
            let d = domain(e, scope)
            return negated ? some(e, d) { all([isString($0), not(test($0))]) } : some(e, d, test)

        case .geo(let g):
            let k = Expr.key(g.key)
            let d = domain(k, scope)
            guard !d.multiValued else { throw onEachElement(l) }
            if !negated { return leaf(.geo(g)) }
            guard d.kinds.isSubset(of: Self.geoKinds(g)) else {
                throw negatedOnOtherTypes(
                    l, "a value that is not a \(Self.geoKinds(g) == .polygon ? "polygon" : "geo point")")
            }
            return all([not(leaf(.geo(g))), compare(k, .ne, .null)])

        case .select(let k, let q, let innerKey):
            let d = domain(.key(k), scope)
            let inner = fieldDomain(innerKey, in: q.className)
            let p = leaf(.select(k, nested(q, scope), innerKey: innerKey))
            if !negated {
                guard !d.multiValued || !inner.kinds.contains(.collection) else { throw arrayItselfMatches(l) }
                return p
            }
            guard !d.multiValued else { throw negatedOnArrays(l) }
            return all([not(p), compare(.key(k), .ne, .null)])

        case .inQuery(let k, let q):
            let p = leaf(.inQuery(k, nested(q, scope)))
            if !negated { return p }
            let d = domain(.key(k), scope)
            guard !d.multiValued else { throw negatedOnArrays(l) }
            guard d.kinds.isSubset(of: .pointer) else { throw negatedOnOtherTypes(l, "a value that is not a pointer") }
            return all([not(p), compare(.key(k), .ne, .null)])

        case .containsAll(let e, _), .containedBy(let e, _), .arraySize(let e, _):
            let p = leaf(l.condition)
            if !negated { return p }
            // SQL's negation still needs an array; NOT alone would also match everything else.
            guard domain(e, scope).multiValued else { return .constant(false) }
            return all([not(p), compare(.index(e, .size), .ne, .null)])

        case .quantified(let q, let coll, let v, let body):
            // `.sql` adds one rule: a collection without a non-null element fails, negated or not.
            let p = leaf(.quantified(q, coll, variable: v, nested(body, binding: v, to: coll, scope)))
            let nonEmpty = some(coll, domain(coll, scope)) { compare($0, .ne, .null) }
            return all([nonEmpty, negated ? not(p) : p])

        case .relatedTo:
            if !negated { return leaf(l.condition) }
            throw inexpressible(
                l, "negated, it is false when the parent object does not exist, and \(targetName)'s NOT is true then")

        case .text(let k, let search):
            let d = domain(.key(k), scope)
            guard !d.multiValued else { throw onEachElement(l) }
            let p = leaf(.text(k, search))
            return negated ? all([isString(.key(k)), not(p)]) : p
        }
    }

    /// `s op y` under `.sql`, as plain comparisons: the date twins of `y` (`SQLCoercion`), and
    /// each element of an array constant.
    func sqlCompareAsPredicate(
        _ l: Leaf, _ s: Expr, _ op: ComparisonOperator, _ y: SQLCoercion.Constant,
        _ opts: StringOptions, _ scope: Scope
    ) throws(Diagnostic) -> Filter {
        let d = domain(s, scope)
        var ys: [SQLCoercion.Constant] = [y]
        switch y {
        case .value(.null): return .constant(false)
        case .value(.array(let items)): ys = items.filter { !$0.isNull }.map(SQLCoercion.Constant.value)
        case .value(.relation): throw inexpressible(l, "a comparison with a relation value")
        default: break
        }
        var parts: [Filter] = []
        for y in ys {
            if op == .ne {
                let values = try coerced(l) { () throws(SQLCoercion.Untranslatable) in
                    try SQLCoercion.equalValues(y, kinds: d.kinds)
                }
                parts.append(some(s, d) { x in all([compare(x, .ne, .null), differsFromAll(x, values, opts)]) })
            } else {
                let alternatives = try coerced(l) { () throws(SQLCoercion.Untranslatable) in
                    try SQLCoercion.alternatives(op, y, kinds: d.kinds)
                }
                for (o, v) in alternatives { parts.append(some(s, d) { compare($0, o, v, opts) }) }
            }
        }
        return any(parts)
    }

    /// `a op b` between two fields under `.sql`: some pair of their non-null values compares.
    private func sqlFieldsAsPredicate(
        _ l: Leaf, _ a: Expr, _ op: ComparisonOperator, _ b: Expr,
        _ opts: StringOptions, _ scope: Scope
    ) throws(Diagnostic) -> Filter {
        let da = domain(a, scope), db = domain(b, scope)
        let coerced: ValueKinds = [.number, .string]
        if da.kinds.contains(.date) && !db.kinds.isDisjoint(with: coerced)
            || db.kinds.contains(.date) && !da.kinds.isDisjoint(with: coerced)
        {
            throw inexpressible(
                l,
                "SQL compares a date with numbers (as milliseconds) and strings (read as dates), which no other dialect does",
                schemaHelps: true)
        }
        return some(a, da) { x in
            some(b, db) { y in
                // NSPredicate's `==` holds on two nils and `!=` on one: SQL ignores nulls.
                switch op {
                case .eq: return all([compare(x, .ne, .null), compare(x, .eq, y, opts)])
                case .ne: return all([compare(x, .ne, .null), compare(y, .ne, .null), compare(x, .ne, y, opts)])
                default: return compare(x, op, y, opts)
                }
            }
        }
    }
}
