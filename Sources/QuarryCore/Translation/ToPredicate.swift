// Leaves restated with `.predicate` semantics.
//
// NSPredicate quantifiers make this the most expressive target: `ANY s, $x: T($x)` holds when
// some non-nil element of s passes T, with a single value taken as a one-element collection and
// nil as empty. That is exactly `.sql`'s existential rule, and `.document`'s "the value or an
// element" for every test a whole array fails (comparisons with a single value, string and geo
// tests). On a field the schema shows to be single-valued, the quantifier is left out.

extension SemanticsConverter {
    func toPredicate(_ l: Leaf, _ scope: Scope) throws(Diagnostic) -> Predicate {
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
    func some(_ s: Expr, _ d: ValueDomain, _ body: (Expr) -> Predicate) -> Predicate {
        d.multiValued ? anyElement(s, body) : body(s)
    }

    /// `ANY s, $x: body($x)`.
    func anyElement(_ s: Expr, _ body: (Expr) -> Predicate) -> Predicate {
        let v = freshVariable()
        return leaf(.quantified(.any, s, variable: v, body(.variable(v))))
    }

    /// `x` differs from every value (x is not nil).
    func differsFromAll(_ x: Expr, _ values: [Expr], _ opts: StringOptions) -> Predicate {
        values.count == 1 ? compare(x, .ne, values[0], opts) : not(leaf(.inCollection(x, .list(values), opts)))
    }

    // MARK: - From .sql

    /// `.sql`: some non-null value passes the test (negated: fails it, both sides comparable).
    private func sqlAsPredicate(_ l: Leaf, _ scope: Scope) throws(Diagnostic) -> Predicate {
        let negated = l.negated
        switch l.condition {
        case .compare(let a, let op, let b, let opts):
            // A failed comparison of comparable values is the complementary comparison.
            let op = negated ? op.complement : op
            guard let (s, o, y) = Self.oriented(a, op, b) else { return try sqlFieldsAsPredicate(l, a, op, b, opts, scope) }
            return try sqlCompareAsPredicate(l, s, o, y, opts, scope)

        case .between(let e, let lo, let hi):
            let (lower, upper) = try sqlBounds(l, lo, hi)
            guard let lower, let upper else { return .constant(false) }
            if negated {
                return any([try sqlCompareAsPredicate(l, e, .lt, .value(lower), [], scope),
                            try sqlCompareAsPredicate(l, e, .gt, .value(upper), [], scope)])
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
            guard d.kinds.isSubset(of: Self.geoKinds(g)) else { throw negatedOnOtherTypes(l, "a value that is not a \(Self.geoKinds(g) == .polygon ? "polygon" : "geo point")") }
            return all([not(leaf(.geo(g))), compare(k, .ne, .null)])

        case .select(let k, let q, let innerKey):
            let d = domain(.key(k), scope)
            let inner = ValueDomain.of(innerKey, in: q.className, schema: schema)
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
            throw inexpressible(l, "negated, it is false when the parent object does not exist, and \(targetName)'s NOT is true then")

        case .text(let k, let search):
            let d = domain(.key(k), scope)
            guard !d.multiValued else { throw onEachElement(l) }
            let p = leaf(.text(k, search))
            return negated ? all([isString(.key(k)), not(p)]) : p
        }
    }

    /// `s op y` under `.sql`, as plain comparisons: the date twins of `y` (`SQLCoercion`), and
    /// each element of an array constant.
    func sqlCompareAsPredicate(_ l: Leaf, _ s: Expr, _ op: ComparisonOperator, _ y: SQLCoercion.Constant,
                               _ opts: StringOptions, _ scope: Scope) throws(Diagnostic) -> Predicate
    {
        let d = domain(s, scope)
        var ys: [SQLCoercion.Constant] = [y]
        switch y {
        case .value(.null): return .constant(false)
        case .value(.array(let items)): ys = items.filter { !$0.isNull }.map(SQLCoercion.Constant.value)
        case .value(.relation): throw inexpressible(l, "a comparison with a relation value")
        default: break
        }
        var parts: [Predicate] = []
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
    private func sqlFieldsAsPredicate(_ l: Leaf, _ a: Expr, _ op: ComparisonOperator, _ b: Expr,
                                      _ opts: StringOptions, _ scope: Scope) throws(Diagnostic) -> Predicate
    {
        let da = domain(a, scope), db = domain(b, scope)
        let coerced: ValueKinds = [.number, .string]
        if da.kinds.contains(.date) && !db.kinds.isDisjoint(with: coerced)
            || db.kinds.contains(.date) && !da.kinds.isDisjoint(with: coerced)
        {
            throw inexpressible(l, "SQL compares a date with numbers (as milliseconds) and strings (read as dates), which no other dialect does",
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

    /// The bounds of an `.sql` BETWEEN; nil bounds when one is null (the test is then false).
    func sqlBounds(_ l: Leaf, _ lo: Expr, _ hi: Expr) throws(Diagnostic) -> (Value?, Value?) {
        guard case .value(let lower)? = Self.constant(lo), case .value(let upper)? = Self.constant(hi) else {
            throw inexpressible(l, "the bounds are not both values")
        }
        if lower.isNull || upper.isNull { return (nil, nil) }
        guard Self.family(lower) == Self.family(upper), Self.family(lower) != nil else {
            throw inexpressible(l, "the bounds are not two numbers, strings or dates")
        }
        return (lower, upper)
    }

    /// Numbers, strings and dates compare within their own kind (and SQL's date coercion joins
    /// dates with the other two).
    static func family(_ v: Value) -> String? {
        switch v {
        case .int, .double: return "number"
        case .string: return "string"
        case .date: return "date"
        default: return nil
        }
    }

    // MARK: - From .document

    /// `.document`, not negated: the value, or one of its elements, passes.
    private func documentAsPredicate(_ l: Leaf, _ scope: Scope) throws(Diagnostic) -> Predicate {
        switch l.condition {
        case .compare(let a, let op, let b, let opts):
            guard let (s, o, y) = Self.oriented(a, op, b), Self.constant(s) == nil else {
                throw inexpressible(l, "Parse compares a field with a value, not two fields or two values")
            }
            let d = domain(s, scope)
            switch (o, y) {
            case (.eq, .value(let v)), (.ne, .value(let v)):
                let p = try documentEquality(l, s, d, [v], opts)
                return o == .eq ? p : not(p)
            case (.eq, _), (.ne, _):
                throw inexpressible(l, "an equality with a value known only when the query runs")
            default:
                if case .value(let v) = y, !v.isOrderable { return .constant(false) }
                return some(s, d) { compare($0, o, y.expr, opts) }
            }

        case .between(let e, let lo, let hi):
            guard case .value(let lower)? = Self.constant(lo), case .value(let upper)? = Self.constant(hi) else {
                throw inexpressible(l, "the bounds are not both values")
            }
            guard lower.isOrderable, upper.isOrderable else { return .constant(false) }
            return some(e, domain(e, scope)) { leaf(.between($0, lower: .literal(lower), upper: .literal(upper))) }

        case .inCollection(let e, let coll, let opts):
            guard let items = Self.listValues(coll), Self.constant(e) == nil else {
                throw inexpressible(l, "Parse's $in compares a field with a list of values")
            }
            return try documentEquality(l, e, domain(e, scope), items, opts)

        case .isNull(let e):
            return leaf(.isNull(e))

        case .string(let e, let op, let pattern, let opts):
            guard let (op2, text) = try stringTest(l, op, pattern, opts) else { return .constant(false) }
            return some(e, domain(e, scope)) { leaf(.string($0, op2, .literal(.string(text)), opts)) }

        case .containsAll(let e, let list), .containedBy(let e, let list):
            try checkListEquality(l, domain(e, scope), list)
            return leaf(l.condition)

        case .arraySize, .relatedTo:
            return leaf(l.condition)

        case .geo(let g):
            guard !domain(.key(g.key), scope).multiValued else { throw onEachElement(l) }
            return leaf(.geo(g))

        case .text(let k, let search):
            guard !domain(.key(k), scope).multiValued else { throw onEachElement(l) }
            return leaf(.text(k, search))

        case .inQuery(let k, let q):
            return leaf(.inQuery(k, nested(q, scope)))

        case .select(let k, let q, let innerKey):
            try checkSelectEquality(l, domain(.key(k), scope), ValueDomain.of(innerKey, in: q.className, schema: schema))
            return leaf(.select(k, nested(q, scope), innerKey: innerKey))

        case .quantified(let q, let coll, let v, let body):
            return leaf(.quantified(q, coll, variable: v, nested(body, binding: v, to: coll, scope)))
        }
    }

    /// Parse equality with any of `values`: the value or one of its elements equals one (a
    /// missing field counts as null), where a string also equals a pointer or `__type: Object`
    /// value with that objectId.
    private func documentEquality(_ l: Leaf, _ s: Expr, _ d: ValueDomain, _ values: [Value],
                                  _ opts: StringOptions) throws(Diagnostic) -> Predicate
    {
        var parts: [Predicate] = []
        if values.contains(where: \.isNull) {
            parts.append(compare(s, .eq, .null))
            if d.multiValued { parts.append(anyElement(s) { compare($0, .eq, .null) }) }
        }
        // An array value is compared whole, with the field and with its elements.
        let collections = values.filter { ValueKinds(of: $0) == .collection }.map(Expr.literal)
        if !collections.isEmpty {
            parts.append(equalsOneOf(s, collections, opts))
            if d.multiValued { parts.append(anyElement(s) { equalsOneOf($0, collections, opts) }) }
        }
        let scalars = values.filter { !$0.isNull && ValueKinds(of: $0) != .collection }
        if !scalars.isEmpty {
            parts.append(some(s, d) { equalsOneOf($0, scalars.map(Expr.literal), opts) })
            let strings = scalars.compactMap { v -> String? in if case .string(let t) = v { t } else { nil } }
            if !strings.isEmpty && !d.kinds.isDisjoint(with: .identities) {
                parts.append(try identityMatch(l, s, d, strings))
            }
            let ids = scalars.compactMap(\.translationIdentity)
            if !ids.isEmpty && d.kinds.contains(.string) {
                parts.append(some(s, d) { equalsOneOf($0, ids.map { .literal(.string($0)) }, []) })
            }
        }
        return any(parts)
    }

    /// A pointer or `__type: Object` value (or element) of `s` whose objectId is one of `ids`.
    private func identityMatch(_ l: Leaf, _ s: Expr, _ d: ValueDomain, _ ids: [String]) throws(Diagnostic) -> Predicate {
        let kinds = d.kinds.intersection(.identities)
        if kinds == .identities {
            throw inexpressible(l, "Parse equality with a string also matches a pointer or `__type: Object` value whose "
                                + "objectId it is; NSPredicate can say that for pointers or for objects, not for a field that may hold both",
                                schemaHelps: true)
        }
        let literals = ids.map { Expr.literal(.string($0)) }
        if kinds == .pointer, case .key(let path) = s, !d.kinds.contains(.collection) {
            return some(.key(path.appending("objectId")), d) { equalsOneOf($0, literals, []) }
        }
        return some(s, d) { x in
            let id = equalsOneOf(Self.member(x, "objectId"), literals, [])
            guard kinds == .object else { return id }
            return all([id, compare(Self.member(x, "__type"), .eq, .string("Object")), isString(Self.member(x, "className"))])
        }
    }

    // MARK: - Shared checks

    /// A string test's operator and pattern in the target's LIKE syntax; nil when the pattern
    /// is a value other than a string (the test is then false).
    func stringTest(_ l: Leaf, _ op: StringOperator, _ pattern: Expr, _ opts: StringOptions) throws(Diagnostic)
        -> (StringOperator, String)?
    {
        guard case .literal(let v) = pattern else {
            throw inexpressible(l, "the pattern \(Self.describe(pattern)) is not a constant")
        }
        guard case .string(let text) = v else { return nil }
        return restated(op, text, opts)
    }

    /// The string test in the target dialect's own spelling where one exists: NSPredicate writes
    /// LIKE as a glob, SQL as `%`/`_` and has no case-insensitive prefix test but LIKE.
    func restated(_ op: StringOperator, _ text: String, _ opts: StringOptions) -> (StringOperator, String) {
        switch (target, op) {
        case (.predicate, .like(.sql)):
            return (.like(.glob), LikeText.glob(LikeText.tokens(text, op.likeSyntax)))
        case (.predicate, .matches(let r)) where !r.wholeString:
            return RegexText.wholeString(text, r).map { (.matches($0.options), $0.pattern) } ?? (op, text)
        case (.sql, .like(.glob)):
            let (pattern, escape) = LikeText.sql(LikeText.tokens(text, .glob))
            return (.like(.sql(escape: escape)), pattern)
        case (.sql, .beginsWith), (.sql, .endsWith), (.sql, .contains):
            guard opts == .caseInsensitive, let tokens = LikeText.tokens(for: op, text) else { return (op, text) }
            let (pattern, escape) = LikeText.sql(tokens)
            return (.like(.sql(escape: escape)), pattern)
        default:
            return (op, text)
        }
    }

    /// `containsAll` / `containedBy` compare elements with Parse equality under `.document`
    /// (a string equals a pointer with that objectId) and plain equality otherwise.
    func checkListEquality(_ l: Leaf, _ d: ValueDomain, _ list: Expr) throws(Diagnostic) {
        guard let values = Self.listValues(list) else {
            throw inexpressible(l, "the list \(Self.describe(list)) is not a list of values")
        }
        let strings = values.contains { if case .string = $0 { true } else { false } }
        if strings && !d.kinds.isDisjoint(with: .identities) || values.contains(where: { $0.translationIdentity != nil }) && d.kinds.contains(.string) {
            throw inexpressible(l, "Parse equality matches a pointer with its objectId string, which the other dialects do not",
                                schemaHelps: true)
        }
    }

    /// `$select` looks its values up with Parse equality under `.document`.
    func checkSelectEquality(_ l: Leaf, _ d: ValueDomain, _ inner: ValueDomain) throws(Diagnostic) {
        if !d.kinds.isDisjoint(with: .identities) && inner.kinds.contains(.string)
            || d.kinds.contains(.string) && !inner.kinds.isDisjoint(with: .identities)
        {
            throw inexpressible(l, "Parse equality matches a pointer with its objectId string, which the other dialects do not",
                                schemaHelps: true)
        }
    }

    static func geoKinds(_ g: GeoCondition) -> ValueKinds {
        if case .polygonContains = g { return .polygon }
        return .geoPoint
    }

    func onEachElement(_ l: Leaf) -> Diagnostic {
        inexpressible(l, "it would have to be applied to each element of an array, which \(targetName) cannot do for this test",
                      schemaHelps: true)
    }

    func negatedOnArrays(_ l: Leaf) -> Diagnostic {
        inexpressible(l, "negated, it asks for an element that fails the test, which \(targetName) cannot ask of an array",
                      schemaHelps: true)
    }

    func negatedOnOtherTypes(_ l: Leaf, _ what: String) -> Diagnostic {
        inexpressible(l, "negated, SQL's rule is false on \(what), and \(targetName)'s NOT is true there", schemaHelps: true)
    }

    func arrayItselfMatches(_ l: Leaf) -> Diagnostic {
        inexpressible(l, "one rule compares an array as a whole with the inner query's values, the other only its elements",
                      schemaHelps: true)
    }
}

extension StringOperator {
    /// The LIKE syntax of a `.like` operator (glob for any other).
    var likeSyntax: LikeSyntax {
        if case .like(let s) = self { return s }
        return .glob
    }
}
