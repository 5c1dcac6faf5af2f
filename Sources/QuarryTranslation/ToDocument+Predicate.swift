import QuarryCore

// Leaves with `.predicate` semantics restated with `.document` semantics (see ToDocument.swift).

extension SemanticsConverter {
    // MARK: - From .predicate

    /// `.predicate`, not negated: the value as a whole passes.
    func predicateAsDocument(_ l: Leaf, _ scope: Scope) throws(Diagnostic) -> Filter {
        switch l.condition {
        case .compare(let a, let op, let b, let opts):
            guard let (s, o, y) = Self.oriented(a, op, b) else {
                throw inexpressible(l, "Parse compares a field with a value, not two fields")
            }
            if let size = try arraySizeAsDocument(s, o, y, scope) { return size }
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
            if y.isNull {
                return d.multiValued ? leaf(.containsAll(key(k), .list([.literal(.null)]))) : .constant(false)
            }
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
            try checkSelectEquality(l, domain(.key(k), scope), fieldDomain(innerKey, in: q.className))
            return leaf(.select(k, nested(q, scope), innerKey: innerKey))

        case .relatedTo:
            return leaf(l.condition)
        }
    }

    /// NSPredicate equality with any of `values`: the value as a whole equals one (nil equals
    /// null). Parse would also accept an array holding one, and nothing in Parse tells that
    /// array from the single value (`$all` is an AND of equalities, as in MongoDB).
    func wholeEquals(
        _ l: Leaf, _ k: FieldPath, _ d: ValueDomain, _ values: [Value],
        _ opts: StringOptions
    ) throws(Diagnostic) -> Filter {
        let scalars = values.filter { !$0.isNull && ValueKinds(of: $0) != .collection }
        if d.multiValued && scalars.count + (values.contains(where: \.isNull) ? 1 : 0) != values.count {
            throw inexpressible(
                l, "equality with an array value, which Parse also tests against each element", schemaHelps: true)
        }
        var base = [values.contains(where: \.isNull) ? isNull(key(k)) : .constant(false)]
        if !scalars.isEmpty { base.append(try equalsAny(l, k, d, scalars, opts)) }
        guard d.multiValued else { return any(base) }
        let hasStrings = scalars.contains { if case .string = $0 { true } else { false } }
        if hasStrings && !opts.isEmpty {
            throw inexpressible(
                l,
                "on a field that may hold an array, Parse matches its elements, and $all, which tells "
                    + "arrays apart, ignores string options", schemaHelps: true)
        }
        // Parse also matches an array through an element; NSPredicate never matches an array here.
        guard scalars.isEmpty else { throw arrayHoldingTheValue(l) }
        return any(base)
    }

    /// ANY / ALL / NONE over a field, with a one-test body on the element: the element tests
    /// Parse can state for "some element" (the value itself counting as one element).
    func quantifiedAsDocument(
        _ l: Leaf, _ q: Quantifier, _ coll: Expr, _ v: String, _ body: Filter,
        _ scope: Scope
    ) throws(Diagnostic) -> Filter {
        guard case .key(let k) = coll, case .leaf(let test) = body, test.semantics == .predicate,
            let element = ElementTest(test, variable: v)
        else {
            throw inexpressible(
                l, "Parse has no quantifiers; only ANY, ALL or NONE with one comparison of the element translates")
        }
        let d = domain(.key(k), scope)
        switch q {
        case .any: return try someElement(l, k, d, element)
        case .none: return not(try someElement(l, k, d, element))
        case .all: return not(try someElement(l, k, d, element.negatedTest))
        }
    }

    /// Some element of `k` (a single value is the only element, nil has none) passes the test.
    func someElement(_ l: Leaf, _ k: FieldPath, _ d: ValueDomain, _ t: ElementTest) throws(Diagnostic) -> Filter {
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
            return any([
                values.contains(where: \.isNull) ? nullElement : .constant(false),
                nonNull.isEmpty ? .constant(false) : try equalsAny(l, k, d, nonNull, opts),
            ])
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
        inexpressible(
            l,
            "IN is a substring test when the field holds a string and membership when it holds an array, "
                + "and \(targetName) cannot tell the two apart", schemaHelps: true)
    }

    func onArrays(_ l: Leaf) -> Diagnostic {
        inexpressible(l, "NSPredicate tests an array as one value, Parse tests its elements", schemaHelps: true)
    }

    /// `tags[SIZE] == 2` (missing unless an array) is Parse's `$size: 2`; so is `tags.@count == 2`
    /// where no single value (count 1) or nil (count 0) can pass: a size of 2 or more, or 1 on
    /// a field that holds arrays. Nil for any other comparison.
    func arraySizeAsDocument(
        _ s: Expr, _ op: ComparisonOperator, _ y: SQLCoercion.Constant,
        _ scope: Scope
    ) throws(Diagnostic) -> Filter? {
        guard op == .eq, case .value(let v) = y, let n = v.numericValue, n >= 0, n == n.rounded(), n < 1e9 else {
            return nil
        }
        let size = Int(n)
        switch s {
        case .index(.key(let k), .size):
            return leaf(.arraySize(.key(k), size))
        case .aggregate(.count, .key(let k)) where size >= 2 || size == 1 && !domain(.key(k), scope).maybeSingleValue:
            return leaf(.arraySize(.key(k), size))
        default:
            return nil
        }
    }
}
