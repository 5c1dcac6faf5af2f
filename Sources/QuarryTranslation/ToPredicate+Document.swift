import QuarryCore

// Leaves with `.document` semantics restated with `.predicate` semantics (see ToPredicate.swift).

extension SemanticsConverter {
    // MARK: - From .document

    /// `.document`, not negated: the value, or one of its elements, passes.
    func documentAsPredicate(_ l: Leaf, _ scope: Scope) throws(Diagnostic) -> Filter {
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

        case .containsAll(let e, let list):
            let d = domain(e, scope)
            try checkListEquality(l, d, list)
            return try containsAllAsPredicate(l, e, list, d)

        case .containedBy(let e, let list):
            let d = domain(e, scope)
            try checkListEquality(l, d, list)
            return try containedByAsPredicate(l, e, list, d)

        case .arraySize(let e, let size):
            return arraySizeAsPredicate(e, size, domain(e, scope))

        case .relatedTo:
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
            try checkSelectEquality(l, domain(.key(k), scope), fieldDomain(innerKey, in: q.className))
            return leaf(.select(k, nested(q, scope), innerKey: innerKey))

        case .quantified(let q, let coll, let v, let body):
            return leaf(.quantified(q, coll, variable: v, nested(body, binding: v, to: coll, scope)))
        }
    }

    /// Parse equality with any of `values`: the value or one of its elements equals one (a
    /// missing field counts as null), where a string also equals a pointer or `__type: Object`
    /// value with that objectId.
    private func documentEquality(
        _ l: Leaf, _ s: Expr, _ d: ValueDomain, _ values: [Value],
        _ opts: StringOptions
    ) throws(Diagnostic) -> Filter {
        var parts: [Filter] = []
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
    private func identityMatch(_ l: Leaf, _ s: Expr, _ d: ValueDomain, _ ids: [String]) throws(Diagnostic) -> Filter {
        let kinds = d.kinds.intersection(.identities)
        if kinds == .identities {
            throw inexpressible(
                l,
                "Parse equality with a string also matches a pointer or `__type: Object` value whose "
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
            return all([
                id, compare(Self.member(x, "__type"), .eq, .string("Object")), isString(Self.member(x, "className")),
            ])
        }
    }

    // MARK: - Array tests

    /// Parse `$all`, an AND of equalities (docs/SEMANTICS.md#containsall-containedby-and-arraysize):
    /// a single value equal to each listed value, or an array with an element equal to each, as
    /// `ANY tags == "a" AND ANY tags == "b"` (ANY takes a single value as a one-element
    /// collection), or `tags == "a" AND …` on a field that never holds an array.
    func containsAllAsPredicate(_ l: Leaf, _ e: Expr, _ list: Expr, _ d: ValueDomain) throws(Diagnostic) -> Filter {
        let values = try listedValues(l, list)
        if values.isEmpty { return .constant(false) }
        // nil is neither a single value nor an element here.
        return all(
            values.map { v in
                d.multiValued
                    ? anyElement(e) { compare($0, .eq, v) } : all([compare(e, .ne, .null), compare(e, .eq, v)])
            })
    }

    /// Parse `$containedBy`: an array (or relation) whose every element is listed, as
    /// `ALL tags IN {"a", "b"}`; ALL holds on nil and a single value too, so `tags != nil`
    /// (or `tags[SIZE] >= 0` where the field may hold a single value) goes with it.
    func containedByAsPredicate(_ l: Leaf, _ e: Expr, _ list: Expr, _ d: ValueDomain) throws(Diagnostic) -> Filter {
        let values = try listedValues(l, list)
        if !d.multiValued { return .constant(false) }
        let isArray = d.maybeSingleValue ? compare(.index(e, .size), .ge, .int(0)) : compare(e, .ne, .null)
        let v = freshVariable()
        let each = leaf(.inCollection(.variable(v), .list(values.map(Expr.literal)), []))
        return all([isArray, leaf(.quantified(.all, e, variable: v, each))])
    }

    /// Parse `$size`: `tags.@count == 2` where the field holds arrays (nil counts 0, so not for
    /// size 0), else `tags[SIZE] == 2`, which is missing for anything but an array.
    func arraySizeAsPredicate(_ e: Expr, _ size: Int, _ d: ValueDomain) -> Filter {
        if !d.multiValued { return .constant(false) }
        let count: Expr = size > 0 && !d.maybeSingleValue ? .aggregate(.count, e) : .index(e, .size)
        return compare(count, .eq, .int(Int64(size)))
    }

    /// The values of a `$all` / `$containedBy` list: scalars and null (an array element that is
    /// itself an array is compared whole, which `==` on an element does not say).
    private func listedValues(_ l: Leaf, _ list: Expr) throws(Diagnostic) -> [Value] {
        guard let values = Self.listValues(list) else {
            throw inexpressible(l, "the list \(Self.describe(list)) is not a list of values")
        }
        if values.contains(where: { ValueKinds(of: $0) == .collection }) {
            throw inexpressible(l, "a listed array is compared with each element as a whole")
        }
        return values
    }
}
