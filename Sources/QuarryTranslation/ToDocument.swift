import QuarryCore

// Leaves restated with `.document` semantics.
//
// A Parse test looks at a field's value and at each element of an array, so an SQL test, which
// looks at each non-null value, carries over as is whenever a whole array fails the test. What
// Parse cannot say directly — "some element differs from x", "the value itself (not an element)
// equals x" — is said with `$containedBy` and `$all`, which only arrays pass. Equality with a
// string also matches a pointer with that objectId under Parse's rule; where the field may hold
// pointers, an exact string match is written as a LIKE pattern without wildcards instead.

extension SemanticsConverter {
    func toDocument(_ l: Leaf, _ scope: Scope) throws(Diagnostic) -> Filter {
        switch l.semantics {
        case .document: return kept(l, scope)
        case .sql: return try sqlAsDocument(l, scope)
        case .predicate:
            let p = try predicateAsDocument(l, scope)
            return l.negated ? not(p) : p
        }
    }

    // MARK: - Building blocks

    func key(_ path: FieldPath) -> Expr { .key(path) }

    /// The value or an element of the field equals one of `values` (not null, not arrays), with
    /// plain equality: no pointer matches a string.
    func equalsAny(
        _ l: Leaf, _ k: FieldPath, _ d: ValueDomain, _ values: [Value],
        _ opts: StringOptions
    ) throws(Diagnostic) -> Filter {
        if d.multiValued, values.contains(where: { ValueKinds(of: $0) == .collection }) { throw wholeArrayCompared(l) }
        var parts: [Filter] = []
        var plain: [Expr] = []
        let stringsAsPatterns = !opts.isEmpty || !d.kinds.isDisjoint(with: .identities)
        for v in values {
            if case .string(let s) = v, stringsAsPatterns {
                // A LIKE pattern without wildcards matches exactly that string, and only strings.
                parts.append(leaf(.string(key(k), .like(.glob), .literal(.string(LikeText.exactGlob(s))), opts)))
            } else if v.translationIdentity != nil && d.kinds.contains(.string) {
                throw inexpressible(
                    l, "Parse equality with a pointer also matches its objectId string, which the source does not",
                    schemaHelps: true)
            } else {
                plain.append(.literal(v))
            }
        }
        if !plain.isEmpty { parts.insert(equalsOneOf(key(k), plain, []), at: 0) }
        return any(parts)
    }

    /// Parse compares an array value with the field's value as a whole, not only its elements.
    private func wholeArrayCompared(_ l: Leaf) -> Diagnostic {
        inexpressible(
            l, "Parse would also compare the array value with the field's own array, not only with its elements",
            schemaHelps: true)
    }

    /// Some element of the field (or the value itself) is not one of `values`; an element that
    /// is null counts only when `values` lacks null. Arrays: "not all elements are in the list"
    /// (`$containedBy`); single values: not equal, which Parse cannot tell from an array
    /// holding the value (`$all` is an AND of equalities).
    func someElementNotIn(
        _ l: Leaf, _ k: FieldPath, _ d: ValueDomain, _ values: [Value],
        _ opts: StringOptions
    ) throws(Diagnostic) -> Filter {
        let nonNull = values.filter { !$0.isNull }
        let present = not(isNull(key(k)))
        guard d.multiValued else {
            return all([nonNull.isEmpty ? .constant(true) : not(try equalsAny(l, k, d, nonNull, opts)), present])
        }
        if nonNull.contains(where: { ValueKinds(of: $0) == .collection }) { throw wholeArrayCompared(l) }
        let strings = nonNull.contains { if case .string = $0 { true } else { false } }
        if strings && (!opts.isEmpty || !d.kinds.isDisjoint(with: .identities))
            || nonNull.contains(where: { $0.translationIdentity != nil }) && d.kinds.contains(.string)
        {
            throw inexpressible(
                l,
                "on an array it asks for an element that differs, which Parse can only ask with "
                    + "$containedBy, whose equality ignores string options and matches pointers with their objectId",
                schemaHelps: true)
        }
        throw arrayHoldingTheValue(l)
    }

    // MARK: - From .sql

    func sqlAsDocument(_ l: Leaf, _ scope: Scope) throws(Diagnostic) -> Filter {
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
                return any([
                    try sqlCompareAsDocument(l, k, .lt, .value(lower), [], scope),
                    try sqlCompareAsDocument(l, k, .gt, .value(upper), [], scope),
                ])
            }
            let d = domain(.key(k), scope)
            let lows = try coerced(l) { () throws(SQLCoercion.Untranslatable) in
                try SQLCoercion.alternatives(.ge, .value(lower), kinds: d.kinds)
            }
            let highs = try coerced(l) { () throws(SQLCoercion.Untranslatable) in
                try SQLCoercion.alternatives(.le, .value(upper), kinds: d.kinds)
            }
            let pairs = zip(lows, highs).prefix(lows.count == highs.count ? 2 : 1)
            return any(
                pairs.map { pair in
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
                for e in try coerced(
                    l,
                    { () throws(SQLCoercion.Untranslatable) in
                        try SQLCoercion.equalValues(.value(m), kinds: d.kinds)
                    })
                {
                    if case .literal(let v) = e { values.append(v) }
                }
            }
            return negated
                ? try someElementNotIn(l, k, d, values + [.null], opts) : try equalsAny(l, k, d, values, opts)

        case .isNull(let e):
            let k = try keyPath(e, l)
            let d = domain(.key(k), scope)
            if negated { return try sqlPresent(l, k, d) }
            return d.multiValued
                ? any([isNull(key(k)), leaf(.containedBy(key(k), .list([.literal(.null)])))]) : isNull(key(k))

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
            guard d.kinds.isSubset(of: Self.geoKinds(g)) else {
                throw negatedOnOtherTypes(
                    l, "a value that is not a \(Self.geoKinds(g) == .polygon ? "polygon" : "geo point")")
            }
            return all([not(p), not(isNull(key(g.key)))])

        case .select(let k, let q, let innerKey):
            let d = domain(.key(k), scope)
            let inner = fieldDomain(innerKey, in: q.className)
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
            throw inexpressible(
                l, "negated, it is false when the parent object does not exist, and Parse's $nor is true then")

        case .text(let k, let search):
            let p = leaf(.text(k, search))
            if !negated { return p }
            guard !domain(.key(k), scope).multiValued else { throw negatedOnArrays(l) }
            return all([isString(key(k)), not(p)])
        }
    }

    /// `.sql` `x IS NOT NULL`: some non-null value (an array needs a non-null element).
    func sqlPresent(_ l: Leaf, _ k: FieldPath, _ d: ValueDomain) throws(Diagnostic) -> Filter {
        let present = not(isNull(key(k)))
        return d.multiValued ? all([present, not(leaf(.containedBy(key(k), .list([.literal(.null)]))))]) : present
    }

    /// `containsAll`, `containedBy`, `arraySize` under `.sql`: like Parse's, except that a
    /// negated test still needs an array.
    func sqlArrayTest(_ l: Leaf, _ k: FieldPath, _ scope: Scope) throws(Diagnostic) -> Filter {
        var positive = l
        positive.negated = false
        positive.semantics = .document
        if !l.negated { return .leaf(positive) }
        guard domain(.key(k), scope).multiValued else { return .constant(false) }
        throw inexpressible(l, "negated, it still needs an array, and Parse's $nor also matches everything else")
    }

    /// `k op y` under `.sql`: the date twins of `y`, each element of an array constant; `!=` is
    /// "some element is not one of y's equals".
    func sqlCompareAsDocument(
        _ l: Leaf, _ k: FieldPath, _ op: ComparisonOperator, _ y: SQLCoercion.Constant,
        _ opts: StringOptions, _ scope: Scope
    ) throws(Diagnostic) -> Filter {
        let d = domain(.key(k), scope)
        var ys: [SQLCoercion.Constant] = [y]
        switch y {
        case .value(.null): return .constant(false)
        case .value(.array(let items)): ys = items.filter { !$0.isNull }.map(SQLCoercion.Constant.value)
        case .value(.relation): throw inexpressible(l, "a comparison with a relation value")
        default: break
        }
        var parts: [Filter] = []
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
                    throw inexpressible(
                        l, "Parse cannot say that a value differs from one known only when the query runs")
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
}
