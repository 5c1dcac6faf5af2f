import QuarryCore

// Leaves with `.document` semantics restated with `.sql` semantics (see ToSQL.swift).

extension SemanticsConverter {
    // MARK: - From .document

    /// What the `.document` leaf's condition says, as `.sql` (negation applied by the caller).
    func documentAsSQL(_ l: Leaf, _ scope: Scope) throws(Diagnostic) -> Filter {
        switch l.condition {
        case .compare(let a, let op, let b, let opts):
            guard let (s, o, y) = Self.oriented(a, op, b) else {
                throw inexpressible(l, "Parse compares a field with a value, not two fields")
            }
            let k = try keyPath(s, l)
            let d = domain(.key(k), scope)
            switch (o, y) {
            case (.eq, .value(let v)), (.ne, .value(let v)):
                let p = try documentEqualsAsSQL(l, k, d, [v], opts)
                return o == .eq ? p : try complement(p, l, scope)
            case (.eq, _), (.ne, _):
                throw inexpressible(l, "an equality with a value known only when the query runs")
            default:
                if case .value(let v) = y, !v.isOrderable { return .constant(false) }
                try requirePlain(l, y, d)
                return compare(.key(k), o, y.expr, opts)
            }

        case .between(let e, let lo, let hi):
            let k = Expr.key(try keyPath(e, l))
            guard case .value(let lower)? = Self.constant(lo), case .value(let upper)? = Self.constant(hi) else {
                throw inexpressible(l, "the bounds are not both values")
            }
            guard lower.isOrderable, upper.isOrderable else { return .constant(false) }
            let d = domain(k, scope)
            try requirePlain(l, .value(lower), d)
            try requirePlain(l, .value(upper), d)
            return leaf(.between(k, lower: .literal(lower), upper: .literal(upper)))

        case .inCollection(let e, let coll, let opts):
            guard let items = Self.listValues(coll), Self.constant(e) == nil else {
                throw inexpressible(l, "Parse's $in compares a field with a list of values")
            }
            let k = try keyPath(e, l)
            return try documentEqualsAsSQL(l, k, domain(.key(k), scope), items, opts)

        case .isNull(let e):
            let k = Expr.key(try keyPath(e, l))
            guard !domain(k, scope).multiValued else { throw onArraysInSQL(l) }
            return isNull(k)

        case .string(let e, let op, let pattern, let opts):
            let k = Expr.key(try keyPath(e, l))
            guard let (op2, text) = try stringTest(l, op, pattern, opts) else { return .constant(false) }
            return leaf(.string(k, op2, .literal(.string(text)), opts))

        case .containsAll(let e, let list):
            let k = try keyPath(e, l)
            let d = domain(.key(k), scope)
            try checkListEquality(l, d, list)
            return try containsAllAsSQL(l, k, list, d)

        case .containedBy(let e, let list):
            try checkListEquality(l, domain(e, scope), list)
            return leaf(l.condition)

        case .arraySize, .text:
            return leaf(l.condition)

        case .geo(let g):
            return leaf(.geo(Self.sqlGeo(g)))

        case .relatedTo(let parent, let key):
            return try relatedToAsSQL(l, parent, key, scope)

        case .inQuery(let k, let q):
            return try inQueryAsSQL(l, k, q, scope)

        case .select(let k, let q, let innerKey):
            let d = domain(.key(k), scope)
            let inner = fieldDomain(innerKey, in: q.className)
            try checkSelectEquality(l, d, inner)
            guard !d.multiValued || !inner.kinds.contains(.collection) else { throw arrayItselfMatches(l) }
            return leaf(.select(k, nested(q, scope), innerKey: innerKey))

        case .quantified(let q, let coll, let v, let body):
            return try quantifiedAsSQL(l, q, coll, v, body, scope)
        }
    }

    /// Parse equality with any of `values`: the value or an element equals one (a missing field
    /// equals null; a string also equals a pointer with that objectId).
    func documentEqualsAsSQL(
        _ l: Leaf, _ k: FieldPath, _ d: ValueDomain, _ values: [Value],
        _ opts: StringOptions
    ) throws(Diagnostic) -> Filter {
        var parts: [Filter] = []
        if values.contains(where: \.isNull) {
            guard !d.multiValued else { throw onArraysInSQL(l) }
            parts.append(isNull(.key(k)))
        }
        if values.contains(where: { ValueKinds(of: $0) == .collection }) && d.multiValued {
            throw inexpressible(l, "equality with an array value, which Parse also compares with the array as a whole")
        }
        let scalars = values.filter { !$0.isNull && ValueKinds(of: $0) != .collection }
        for v in scalars { try requirePlain(l, .value(v), d) }
        if !scalars.isEmpty { parts.append(equalsOneOf(.key(k), scalars, opts)) }
        let strings = scalars.filter { if case .string = $0 { true } else { false } }
        if !strings.isEmpty && !d.kinds.isDisjoint(with: .identities) {
            // `k.objectId` reaches the ids of the pointers; objects and nested arrays would
            // bring their own objectId fields along.
            guard d.kinds.isDisjoint(with: [.object, .collection]) else {
                throw inexpressible(
                    l,
                    "Parse equality with a string also matches a pointer or `__type: Object` value whose objectId it is",
                    schemaHelps: true)
            }
            parts.append(equalsOneOf(.key(k.appending("objectId")), strings, []))
        }
        if scalars.contains(where: { $0.translationIdentity != nil }) && d.kinds.contains(.string) {
            throw inexpressible(l, "Parse equality with a pointer also matches its objectId string", schemaHelps: true)
        }
        return any(parts)
    }

    /// Parse `$all`, an AND of equalities with a single value or with some element of an
    /// array: SQL's `tags = 'a'` tests the value or each element, so `tags = 'a' AND tags = 'b'`
    /// (SQL never sees a null element).
    func containsAllAsSQL(_ l: Leaf, _ k: FieldPath, _ list: Expr, _ d: ValueDomain) throws(Diagnostic) -> Filter {
        guard let values = Self.listValues(list) else {
            throw inexpressible(l, "the list \(Self.describe(list)) is not a list of values")
        }
        if values.isEmpty { return .constant(false) }
        if values.contains(where: { $0.isNull || ValueKinds(of: $0) == .collection }) {
            throw inexpressible(l, "SQL never sees a null element, or an element that is itself an array")
        }
        for v in values { try requirePlain(l, .value(v), d) }
        return all(values.map { equalsValue(.key(k), .value($0), []) })
    }
}
