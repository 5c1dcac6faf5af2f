// Leaves restated with `.document` semantics.
//
// A Parse test looks at a field's value and at each element of an array, so an SQL test, which
// looks at each non-null value, carries over as is whenever a whole array fails the test. What
// Parse cannot say directly — "some element differs from x", "the value itself (not an element)
// equals x" — is said with `$containedBy` and `$all`, which only arrays pass. Equality with a
// string also matches a pointer with that objectId under Parse's rule; where the field may hold
// pointers, an exact string match is written as a LIKE pattern without wildcards instead.

extension SemanticsConverter {
    func toDocument(_ l: Leaf, _ scope: Scope) throws(Diagnostic) -> Predicate {
        switch l.semantics {
        case .document: return kept(l, scope)
        case .sql: return try sqlAsDocument(l, scope)
        case .predicate:
            let p = try predicateAsDocument(l, scope)
            return l.negated ? not(p) : p
        }
    }

    // MARK: - Building blocks

    private func key(_ path: KeyPath) -> Expr { .key(path) }

    /// The value or an element of the field equals one of `values` (not null, not arrays), with
    /// plain equality: no pointer matches a string.
    private func equalsAny(_ l: Leaf, _ k: KeyPath, _ d: ValueDomain, _ values: [Value],
                           _ opts: StringOptions) throws(Diagnostic) -> Predicate
    {
        var parts: [Predicate] = []
        var plain: [Expr] = []
        let stringsAsPatterns = !opts.isEmpty || !d.kinds.isDisjoint(with: .identities)
        for v in values {
            if case .string(let s) = v, stringsAsPatterns {
                // A LIKE pattern without wildcards matches exactly that string, and only strings.
                parts.append(leaf(.string(key(k), .like(.glob), .literal(.string(LikeText.exactGlob(s))), opts)))
            } else if v.translationIdentity != nil && d.kinds.contains(.string) {
                throw inexpressible(l, "Parse equality with a pointer also matches its objectId string, which the source does not",
                                    schemaHelps: true)
            } else {
                plain.append(.literal(v))
            }
        }
        if !plain.isEmpty { parts.insert(equalsOneOf(key(k), plain, []), at: 0) }
        return any(parts)
    }

    /// Some element of the field (or the value itself) is not one of `values`; an element that
    /// is null counts only when `values` lacks null. Arrays: "not all elements are in the list"
    /// (`$containedBy`); single values: not equal, told from arrays by `$all`, which needs an
    /// array holding the value.
    private func someElementNotIn(_ l: Leaf, _ k: KeyPath, _ d: ValueDomain, _ values: [Value],
                                  _ opts: StringOptions) throws(Diagnostic) -> Predicate
    {
        let nonNull = values.filter { !$0.isNull }
        let present = not(isNull(key(k)))
        guard d.multiValued else {
            return all([nonNull.isEmpty ? .constant(true) : not(try equalsAny(l, k, d, nonNull, opts)), present])
        }
        let strings = nonNull.contains { if case .string = $0 { true } else { false } }
        if strings && (!opts.isEmpty || !d.kinds.isDisjoint(with: .identities))
            || nonNull.contains(where: { $0.translationIdentity != nil }) && d.kinds.contains(.string)
        {
            throw inexpressible(l, "on an array it asks for an element that differs, which Parse can only ask with "
                                + "$containedBy, whose equality ignores string options and matches pointers with their objectId",
                                schemaHelps: true)
        }
        let list = Expr.list(values.map(Expr.literal))
        let member = values.count == 1 ? compare(key(k), .eq, values[0]) : leaf(.inCollection(key(k), list, []))
        return all([present, not(leaf(.containedBy(key(k), list))),
                    any([not(member)] + values.map { leaf(.containsAll(key(k), .list([.literal($0)]))) })])
    }

    // MARK: - From .sql

    private func sqlAsDocument(_ l: Leaf, _ scope: Scope) throws(Diagnostic) -> Predicate {
        let negated = l.negated
        switch l.condition {
        case .compare(let a, let op, let b, let opts):
            guard let (s, o, y) = Self.oriented(a, negated ? op.complement : op, b) else {
                throw inexpressible(l, "Parse compares a field with a value, not two fields")
            }
            return try sqlCompareAsDocument(l, try keyPath(s, l), o, y, opts, scope)

        case .between(let e, let lo, let hi):
            let k = try keyPath(e, l)
            let (lower, upper) = try sqlBounds(l, lo, hi)
            guard let lower, let upper else { return .constant(false) }
            if negated {
                return any([try sqlCompareAsDocument(l, k, .lt, .value(lower), [], scope),
                            try sqlCompareAsDocument(l, k, .gt, .value(upper), [], scope)])
            }
            let d = domain(.key(k), scope)
            let lows = try coerced(l) { () throws(SQLCoercion.Untranslatable) in
                try SQLCoercion.alternatives(.ge, .value(lower), kinds: d.kinds)
            }
            let highs = try coerced(l) { () throws(SQLCoercion.Untranslatable) in
                try SQLCoercion.alternatives(.le, .value(upper), kinds: d.kinds)
            }
            let pairs = zip(lows, highs).prefix(lows.count == highs.count ? 2 : 1)
            return any(pairs.map { pair in
                // Both bounds must hold for the same element: one BETWEEN on arrays.
                d.multiValued
                    ? leaf(.between(key(k), lower: pair.0.1, upper: pair.1.1))
                    : all([compare(key(k), .ge, pair.0.1), compare(key(k), .le, pair.1.1)])
            })

        case .inCollection(let e, let coll, let opts):
            guard let items = Self.listValues(coll) else {
                throw inexpressible(l, "IN over \(Self.describe(coll)) rather than a list of values")
            }
            let k = try keyPath(e, l)
            let members = items.filter { !$0.isNull }
            let d = domain(.key(k), scope)
            if members.isEmpty { return negated ? try sqlPresent(l, k, d) : .constant(false) }
            var values: [Value] = []
            for m in members {
                for e in try coerced(l, { () throws(SQLCoercion.Untranslatable) in
                    try SQLCoercion.equalValues(.value(m), kinds: d.kinds)
                }) {
                    if case .literal(let v) = e { values.append(v) }
                }
            }
            return negated ? try someElementNotIn(l, k, d, values + [.null], opts) : try equalsAny(l, k, d, values, opts)

        case .isNull(let e):
            let k = try keyPath(e, l)
            let d = domain(.key(k), scope)
            if negated { return try sqlPresent(l, k, d) }
            return d.multiValued ? any([isNull(key(k)), leaf(.containedBy(key(k), .list([.literal(.null)])))]) : isNull(key(k))

        case .string(let e, let op, let pattern, let opts):
            let k = try keyPath(e, l)
            guard let (op2, text) = try stringTest(l, op, pattern, opts) else { return .constant(false) }
            let p = leaf(.string(key(k), op2, .literal(.string(text)), opts))
            if !negated { return p }
            guard !domain(.key(k), scope).multiValued else { throw negatedOnArrays(l) }
            return all([isString(key(k)), not(p)])

        case .geo(let g):
            let p = leaf(.geo(g))
            if !negated { return p }
            let d = domain(.key(g.key), scope)
            guard !d.multiValued else { throw negatedOnArrays(l) }
            guard d.kinds.isSubset(of: Self.geoKinds(g)) else { throw negatedOnOtherTypes(l, "a value that is not a \(Self.geoKinds(g) == .polygon ? "polygon" : "geo point")") }
            return all([not(p), not(isNull(key(g.key)))])

        case .select(let k, let q, let innerKey):
            let d = domain(.key(k), scope)
            let inner = ValueDomain.of(innerKey, in: q.className, schema: schema)
            try checkSelectEquality(l, d, inner)
            let p = leaf(.select(k, nested(q, scope), innerKey: innerKey))
            if !negated {
                guard !d.multiValued || !inner.kinds.contains(.collection) else { throw arrayItselfMatches(l) }
                return p
            }
            guard !d.multiValued else { throw negatedOnArrays(l) }
            return all([not(p), not(isNull(key(k)))])

        case .inQuery(let k, let q):
            let p = leaf(.inQuery(k, nested(q, scope)))
            if !negated { return p }
            let d = domain(.key(k), scope)
            guard !d.multiValued else { throw negatedOnArrays(l) }
            guard d.kinds.isSubset(of: .pointer) else { throw negatedOnOtherTypes(l, "a value that is not a pointer") }
            return all([not(p), not(isNull(key(k)))])

        case .containsAll(let e, let list), .containedBy(let e, let list):
            let k = try keyPath(e, l)
            try checkListEquality(l, domain(.key(k), scope), list)
            return try sqlArrayTest(l, k, scope)

        case .arraySize(let e, _):
            return try sqlArrayTest(l, try keyPath(e, l), scope)

        case .quantified:
            throw inexpressible(l, "Parse has no quantifiers")

        case .relatedTo:
            if !negated { return leaf(l.condition) }
            throw inexpressible(l, "negated, it is false when the parent object does not exist, and Parse's $nor is true then")

        case .text(let k, let search):
            let p = leaf(.text(k, search))
            if !negated { return p }
            guard !domain(.key(k), scope).multiValued else { throw negatedOnArrays(l) }
            return all([isString(key(k)), not(p)])
        }
    }

    /// `.sql` `x IS NOT NULL`: some non-null value (an array needs a non-null element).
    private func sqlPresent(_ l: Leaf, _ k: KeyPath, _ d: ValueDomain) throws(Diagnostic) -> Predicate {
        let present = not(isNull(key(k)))
        return d.multiValued ? all([present, not(leaf(.containedBy(key(k), .list([.literal(.null)]))))]) : present
    }

    /// `containsAll`, `containedBy`, `arraySize` under `.sql`: like Parse's, except that a
    /// negated test still needs an array.
    private func sqlArrayTest(_ l: Leaf, _ k: KeyPath, _ scope: Scope) throws(Diagnostic) -> Predicate {
        var positive = l
        positive.negated = false
        positive.semantics = .document
        if !l.negated { return .leaf(positive) }
        guard domain(.key(k), scope).multiValued else { return .constant(false) }
        throw inexpressible(l, "negated, it still needs an array, and Parse's $nor also matches everything else")
    }

    /// `k op y` under `.sql`: the date twins of `y`, each element of an array constant; `!=` is
    /// "some element is not one of y's equals".
    private func sqlCompareAsDocument(_ l: Leaf, _ k: KeyPath, _ op: ComparisonOperator, _ y: SQLCoercion.Constant,
                                      _ opts: StringOptions, _ scope: Scope) throws(Diagnostic) -> Predicate
    {
        let d = domain(.key(k), scope)
        var ys: [SQLCoercion.Constant] = [y]
        switch y {
        case .value(.null): return .constant(false)
        case .value(.array(let items)): ys = items.filter { !$0.isNull }.map(SQLCoercion.Constant.value)
        case .value(.relation): throw inexpressible(l, "a comparison with a relation value")
        default: break
        }
        var parts: [Predicate] = []
        for y in ys {
            if case .value(let v) = y, ValueKinds(of: v) == .collection {
                throw inexpressible(l, "a comparison with a nested array")
            }
            if op == .ne {
                let equals = try coerced(l) { () throws(SQLCoercion.Untranslatable) in
                    try SQLCoercion.equalValues(y, kinds: d.kinds)
                }
                let values = equals.compactMap { e -> Value? in if case .literal(let v) = e { v } else { nil } }
                guard values.count == equals.count else {
                    throw inexpressible(l, "Parse cannot say that a value differs from one known only when the query runs")
                }
                parts.append(try someElementNotIn(l, k, d, values + [.null], opts))
                continue
            }
            let alternatives = try coerced(l) { () throws(SQLCoercion.Untranslatable) in
                try SQLCoercion.alternatives(op, y, kinds: d.kinds)
            }
            for (o, e) in alternatives {
                if o == .eq, case .literal(let v) = e {
                    parts.append(try equalsAny(l, k, d, [v], opts))
                } else {
                    parts.append(compare(key(k), o, e, opts))
                }
            }
        }
        return any(parts)
    }

    // MARK: - From .predicate

    /// `.predicate`, not negated: the value as a whole passes.
    private func predicateAsDocument(_ l: Leaf, _ scope: Scope) throws(Diagnostic) -> Predicate {
        switch l.condition {
        case .compare(let a, let op, let b, let opts):
            guard let (s, o, y) = Self.oriented(a, op, b) else {
                throw inexpressible(l, "Parse compares a field with a value, not two fields")
            }
            let k = try keyPath(s, l)
            let d = domain(.key(k), scope)
            switch (o, y) {
            case (.eq, .value(let v)), (.ne, .value(let v)):
                let p = try wholeEquals(l, k, d, [v], opts)
                return o == .eq ? p : not(p)
            case (.eq, .date), (.ne, .date):
                guard !d.multiValued else { throw onArrays(l) }
                let p = compare(key(k), .eq, y.expr, opts)
                return o == .eq ? p : not(p)
            default:
                if case .value(let v) = y, !v.isOrderable { return .constant(false) }
                guard !d.multiValued else { throw onArrays(l) }
                return compare(key(k), o, y.expr, opts)
            }

        case .between(let e, let lo, let hi):
            let k = try keyPath(e, l)
            guard case .value(let lower)? = Self.constant(lo), case .value(let upper)? = Self.constant(hi) else {
                throw inexpressible(l, "the bounds are not both values")
            }
            guard lower.isOrderable, upper.isOrderable else { return .constant(false) }
            guard !domain(.key(k), scope).multiValued else { throw onArrays(l) }
            return all([compare(key(k), .ge, lower), compare(key(k), .le, upper)])

        case .inCollection(let e, let coll, let opts):
            if let items = Self.listValues(coll), Self.constant(e) == nil {
                let k = try keyPath(e, l)
                return try wholeEquals(l, k, domain(.key(k), scope), items, opts)
            }
            // `'x' IN tags`: an element (or the single value) of the field equals x.
            guard case .value(let y)? = Self.constant(e), case .key(let k) = coll else {
                throw inexpressible(l, "Parse's $in compares a field with a list of values")
            }
            let d = domain(.key(k), scope)
            if y.isNull { return d.multiValued ? leaf(.containsAll(key(k), .list([.literal(.null)]))) : .constant(false) }
            guard ValueKinds(of: y) != .collection else { throw inexpressible(l, "membership of an array value") }
            let member = try equalsAny(l, k, d, [y], opts)
            // In a string, IN is a substring test.
            guard case .string = y, d.kinds.contains(.string), d.maybeSingleValue else { return member }
            guard !d.multiValued else { throw substringOrElement(l) }
            return any([member, leaf(.string(key(k), .contains, .literal(y), opts))])

        case .isNull(let e):
            return isNull(.key(try keyPath(e, l)))

        case .string(let e, let op, let pattern, let opts):
            let k = try keyPath(e, l)
            guard let (op2, text) = try stringTest(l, op, pattern, opts) else { return .constant(false) }
            guard !domain(.key(k), scope).multiValued else { throw onArrays(l) }
            return leaf(.string(key(k), op2, .literal(.string(text)), opts))

        case .containsAll(let e, let list), .containedBy(let e, let list):
            try checkListEquality(l, domain(.key(try keyPath(e, l)), scope), list)
            return leaf(l.condition)

        case .arraySize(let e, _):
            _ = try keyPath(e, l)
            return leaf(l.condition)

        case .quantified(let q, let coll, let v, let body):
            return try quantifiedAsDocument(l, q, coll, v, body, scope)

        case .geo(let g):
            guard !domain(.key(g.key), scope).multiValued else { throw onArrays(l) }
            return leaf(.geo(g))

        case .text(let k, let search):
            guard !domain(.key(k), scope).multiValued else { throw onArrays(l) }
            return leaf(.text(k, search))

        case .inQuery(let k, let q):
            return leaf(.inQuery(k, nested(q, scope)))

        case .select(let k, let q, let innerKey):
            try checkSelectEquality(l, domain(.key(k), scope), ValueDomain.of(innerKey, in: q.className, schema: schema))
            return leaf(.select(k, nested(q, scope), innerKey: innerKey))

        case .relatedTo:
            return leaf(l.condition)
        }
    }

    /// NSPredicate equality with any of `values`: the value as a whole equals one (nil equals
    /// null). Parse would also accept an array holding one, which `$all` tells apart.
    private func wholeEquals(_ l: Leaf, _ k: KeyPath, _ d: ValueDomain, _ values: [Value],
                             _ opts: StringOptions) throws(Diagnostic) -> Predicate
    {
        let scalars = values.filter { !$0.isNull && ValueKinds(of: $0) != .collection }
        if d.multiValued && scalars.count + (values.contains(where: \.isNull) ? 1 : 0) != values.count {
            throw inexpressible(l, "equality with an array value, which Parse also tests against each element", schemaHelps: true)
        }
        var base = [values.contains(where: \.isNull) ? isNull(key(k)) : .constant(false)]
        if !scalars.isEmpty { base.append(try equalsAny(l, k, d, scalars, opts)) }
        guard d.multiValued else { return any(base) }
        let hasStrings = scalars.contains { if case .string = $0 { true } else { false } }
        if hasStrings && !opts.isEmpty {
            throw inexpressible(l, "on a field that may hold an array, Parse matches its elements, and $all, which tells "
                                + "arrays apart, ignores string options", schemaHelps: true)
        }
        // Parse also matches an array through an element; NSPredicate never matches an array here.
        let arrays = values.map { not(leaf(.containsAll(key(k), .list([.literal($0)])))) }
        return all([any(base)] + arrays)
    }

    /// ANY / ALL / NONE over a field, with a one-test body on the element: the element tests
    /// Parse can state for "some element" (the value itself counting as one element).
    private func quantifiedAsDocument(_ l: Leaf, _ q: Quantifier, _ coll: Expr, _ v: String, _ body: Predicate,
                                      _ scope: Scope) throws(Diagnostic) -> Predicate
    {
        guard case .key(let k) = coll, case .leaf(let test) = body, test.semantics == .predicate,
              let element = ElementTest(test, variable: v)
        else {
            throw inexpressible(l, "Parse has no quantifiers; only ANY, ALL or NONE with one comparison of the element translates")
        }
        let d = domain(.key(k), scope)
        switch q {
        case .any: return try someElement(l, k, d, element)
        case .none: return not(try someElement(l, k, d, element))
        case .all: return not(try someElement(l, k, d, element.negatedTest))
        }
    }

    /// Some element of `k` (a single value is the only element, nil has none) passes the test.
    private func someElement(_ l: Leaf, _ k: KeyPath, _ d: ValueDomain, _ t: ElementTest) throws(Diagnostic) -> Predicate {
        let nullElement = d.multiValued ? leaf(.containsAll(key(k), .list([.literal(.null)]))) : .constant(false)
        switch (t.condition, t.negated) {
        case (.isNull, false):
            return nullElement
        case (.isNull, true):
            return try sqlPresent(l, k, d)
        case (.compare(.eq, let y, let opts), false):
            return y.isNull ? nullElement : try equalsAny(l, k, d, [y], opts)
        case (.compare(.eq, let y, let opts), true):
            if y.isNull { return try sqlPresent(l, k, d) }
            return try someElementNotIn(l, k, d, [y], opts)
        case (.compare(let op, let y, let opts), false):
            return y.isOrderable ? compare(key(k), op, y, opts) : .constant(false)
        case (.between(let lower, let upper), false):
            guard lower.isOrderable, upper.isOrderable else { return .constant(false) }
            return d.multiValued
                ? leaf(.between(key(k), lower: .literal(lower), upper: .literal(upper)))
                : all([compare(key(k), .ge, lower), compare(key(k), .le, upper)])
        case (.member(let values, let opts), false):
            let nonNull = values.filter { !$0.isNull }
            if nonNull.contains(where: { ValueKinds(of: $0) == .collection }) {
                throw inexpressible(l, "membership in a list holding arrays")
            }
            return any([values.contains(where: \.isNull) ? nullElement : .constant(false),
                        nonNull.isEmpty ? .constant(false) : try equalsAny(l, k, d, nonNull, opts)])
        case (.member(let values, let opts), true):
            return try someElementNotIn(l, k, d, values, opts)
        case (.string(let op, let text, let opts), false):
            let (op2, pattern) = restated(op, text, opts)
            return leaf(.string(key(k), op2, .literal(.string(pattern)), opts))
        case (.string(let op, let text, let opts), true):
            guard !d.multiValued else { throw negatedOnArrays(l) }
            let (op2, pattern) = restated(op, text, opts)
            return all([not(isNull(key(k))), not(leaf(.string(key(k), op2, .literal(.string(pattern)), opts)))])
        default:
            throw inexpressible(l, "Parse cannot ask for an element that fails this test")
        }
    }

    /// `'x' IN field`: a substring test on a string, membership in an array.
    func substringOrElement(_ l: Leaf) -> Diagnostic {
        inexpressible(l, "IN is a substring test when the field holds a string and membership when it holds an array, "
                      + "and \(targetName) cannot tell the two apart", schemaHelps: true)
    }

    private func onArrays(_ l: Leaf) -> Diagnostic {
        inexpressible(l, "NSPredicate tests an array as one value, Parse tests its elements", schemaHelps: true)
    }
}

/// A quantifier body that tests only the element, with constants: what Parse can say per element.
struct ElementTest {
    enum Kind {
        case isNull
        case compare(ComparisonOperator, Value, StringOptions)
        case between(Value, Value)
        case member([Value], StringOptions)
        case string(StringOperator, String, StringOptions)
    }

    var condition: Kind
    /// NSPredicate's NOT (`!=` is a negated `==`).
    var negated: Bool

    var negatedTest: ElementTest { ElementTest(condition: condition, negated: !negated) }

    init(condition: Kind, negated: Bool) {
        self.condition = condition
        self.negated = negated
    }

    init?(_ leaf: Leaf, variable v: String) {
        let element = Expr.variable(v)
        negated = leaf.negated
        switch leaf.condition {
        case .isNull(element):
            condition = .isNull
        case .compare(let a, let op, let b, let opts):
            guard let (s, o, y) = SemanticsConverter.oriented(a, op, b), s == element,
                  case .value(let value) = y
            else { return nil }
            if o == .ne {
                condition = .compare(.eq, value, opts)
                negated.toggle()
            } else {
                condition = .compare(o, value, opts)
            }
        case .between(element, let lo, let hi):
            guard let lower = SemanticsConverter.constantValue(lo), let upper = SemanticsConverter.constantValue(hi)
            else { return nil }
            condition = .between(lower, upper)
        case .inCollection(element, let coll, let opts):
            guard let values = SemanticsConverter.listValues(coll) else { return nil }
            condition = .member(values, opts)
        case .string(element, let op, .literal(.string(let text)), let opts):
            condition = .string(op, text, opts)
        default:
            return nil
        }
    }
}
