import QuarryCore

// Leaves with `.predicate` semantics restated with `.sql` semantics (see ToSQL.swift).

extension SemanticsConverter {
    // MARK: - From .predicate

    /// What the `.predicate` leaf's condition says, as `.sql` (its `negated` is applied by the
    /// caller, as a logical NOT).
    func predicateAsSQL(_ l: Leaf, _ scope: Scope) throws(Diagnostic) -> Filter {
        switch l.condition {
        case .compare(let a, let op, let b, let opts):
            guard let (s, o, y) = Self.oriented(a, op, b) else {
                return try predicateFieldsAsSQL(l, a, op, b, opts, scope)
            }
            let k = Expr.key(try keyPath(s, l))
            let d = domain(k, scope)
            guard !d.multiValued else { throw onArraysInSQL(l) }
            if case .value(.null) = y {
                switch o {
                case .eq: return isNull(k)
                case .ne: return isNull(k, negated: true)
                default: return .constant(false)
                }
            }
            if case .value(let v) = y, ValueKinds(of: v) == .collection { return .constant(o == .ne ? true : false) }
            try requirePlain(l, y, d)
            switch o {
            case .eq: return equalsValue(k, y, opts)
            case .ne: return try complement(equalsValue(k, y, opts), l, scope)
            default:
                if case .value(let v) = y, !v.isOrderable { return .constant(false) }
                return compare(k, o, y.expr, opts)
            }

        case .between(let e, let lo, let hi):
            let k = Expr.key(try keyPath(e, l))
            let d = domain(k, scope)
            guard !d.multiValued else { throw onArraysInSQL(l) }
            guard let lower = Self.constant(lo), let upper = Self.constant(hi) else {
                throw inexpressible(l, "the bounds are not both values")
            }
            for bound in [lower, upper] {
                if case .value(let v) = bound, !v.isOrderable { return .constant(false) }
                try requirePlain(l, bound, d)
            }
            return leaf(.between(k, lower: lower.expr, upper: upper.expr))

        case .inCollection(let e, let coll, let opts):
            if let items = Self.listValues(coll), Self.constant(e) == nil {
                let k = Expr.key(try keyPath(e, l))
                let d = domain(k, scope)
                guard !d.multiValued else { throw onArraysInSQL(l) }
                // A single value never equals an array.
                let members = items.filter { !$0.isNull && ValueKinds(of: $0) != .collection }
                for m in members { try requirePlain(l, .value(m), d) }
                return any([
                    items.contains(where: \.isNull) ? isNull(k) : .constant(false),
                    members.isEmpty ? .constant(false) : equalsOneOf(k, members, opts),
                ])
            }
            // `'x' IN tags`: some value of the field equals x, SQL's own rule.
            guard case .value(let y)? = Self.constant(e), case .key(let path) = coll else {
                throw inexpressible(l, "SQL's IN compares a field with a list of values")
            }
            let d = domain(.key(path), scope)
            if y.isNull {
                guard !d.multiValued else { throw onArraysInSQL(l) }
                return .constant(false)
            }
            guard ValueKinds(of: y) != .collection else { throw inexpressible(l, "membership of an array value") }
            try requirePlain(l, .value(y), d)
            let member = equalsValue(.key(path), .value(y), opts)
            // In a string, IN is a substring test.
            guard case .string(let text) = y, d.kinds.contains(.string), d.maybeSingleValue else { return member }
            guard !d.multiValued else { throw substringOrElement(l) }
            let (op, pattern) = restated(.contains, text, opts)
            return any([member, leaf(.string(.key(path), op, .literal(.string(pattern)), opts))])

        case .isNull(let e):
            let k = Expr.key(try keyPath(e, l))
            guard !domain(k, scope).multiValued else { throw onArraysInSQL(l) }
            return isNull(k)

        case .string(let e, let op, let pattern, let opts):
            let k = Expr.key(try keyPath(e, l))
            guard !domain(k, scope).multiValued else { throw onArraysInSQL(l) }
            guard let (op2, text) = try stringTest(l, op, pattern, opts) else { return .constant(false) }
            return leaf(.string(k, op2, .literal(.string(text)), opts))

        case .containsAll, .containedBy, .arraySize:
            return leaf(l.condition)

        case .relatedTo(let parent, let key):
            return try relatedToAsSQL(l, parent, key, scope)

        case .quantified(let q, let coll, let v, let body):
            return try quantifiedAsSQL(l, q, coll, v, body, scope)

        case .geo(let g):
            guard !domain(.key(g.key), scope).multiValued else { throw onArraysInSQL(l) }
            return leaf(.geo(Self.sqlGeo(g)))

        case .text(let k, let search):
            guard !domain(.key(k), scope).multiValued else { throw onArraysInSQL(l) }
            return leaf(.text(k, search))

        case .inQuery(let k, let q):
            return try inQueryAsSQL(l, k, q, scope)

        case .select(let k, let q, let innerKey):
            let inner = fieldDomain(innerKey, in: q.className)
            guard !domain(.key(k), scope).multiValued || !inner.kinds.contains(.collection) else {
                throw arrayItselfMatches(l)
            }
            return leaf(.select(k, nested(q, scope), innerKey: innerKey))
        }
    }

    /// `a op b` between two single-valued fields: NSPredicate's `==` also holds on two nils.
    func predicateFieldsAsSQL(
        _ l: Leaf, _ a: Expr, _ op: ComparisonOperator, _ b: Expr,
        _ opts: StringOptions, _ scope: Scope
    ) throws(Diagnostic) -> Filter {
        let ka = Expr.key(try keyPath(a, l)), kb = Expr.key(try keyPath(b, l))
        let da = domain(ka, scope), db = domain(kb, scope)
        guard !da.multiValued, !db.multiValued else { throw onArraysInSQL(l) }
        let coerced: ValueKinds = [.number, .string]
        if da.kinds.contains(.date) && !db.kinds.isDisjoint(with: coerced)
            || db.kinds.contains(.date) && !da.kinds.isDisjoint(with: coerced)
        {
            throw inexpressible(
                l, "SQL compares a date with numbers (as milliseconds) and strings (read as dates)",
                schemaHelps: true)
        }
        let equal = any([compare(ka, .eq, kb, opts), all([isNull(ka), isNull(kb)])])
        switch op {
        case .eq: return equal
        case .ne: return try complement(equal, l, scope)
        default: return compare(ka, op, kb, opts)
        }
    }

    /// ANY / ALL / NONE over a field with a one-test body on the element.
    func quantifiedAsSQL(
        _ l: Leaf, _ q: Quantifier, _ coll: Expr, _ v: String, _ body: Filter,
        _ scope: Scope
    ) throws(Diagnostic) -> Filter {
        guard case .key(let k) = coll, case .leaf(let test) = body, test.semantics == .predicate,
            let element = ElementTest(test, variable: v)
        else {
            throw inexpressible(
                l, "SQL has no quantifiers; only ANY, ALL or NONE with one comparison of the element translates")
        }
        let d = domain(.key(k), scope)
        switch q {
        case .any: return try someElementAsSQL(l, k, d, element, scope)
        case .none: return try complement(someElementAsSQL(l, k, d, element, scope), l, scope)
        case .all: return try complement(someElementAsSQL(l, k, d, element.negatedTest, scope), l, scope)
        }
    }

    /// Some element of `k` (the single value, when it is one; none for nil) passes the test.
    func someElementAsSQL(
        _ l: Leaf, _ k: FieldPath, _ d: ValueDomain, _ t: ElementTest,
        _ scope: Scope
    ) throws(Diagnostic) -> Filter {
        let key = Expr.key(k)
        if !d.multiValued {
            let onValue = Leaf(t.condition(on: key), negated: t.negated, semantics: .predicate)
            return all([isNull(key, negated: true), try toSQL(onValue, scope, negate: false)])
        }
        switch (t.condition, t.negated) {
        case (.isNull, true):
            return isNull(key, negated: true)
        case (.compare(.eq, let y, _), true) where y.isNull:
            return isNull(key, negated: true)
        case (.compare(let op, let y, let opts), false) where !y.isNull && ValueKinds(of: y) != .collection:
            if op != .eq && !y.isOrderable { return .constant(false) }
            try requirePlain(l, .value(y), d)
            return op == .eq ? equalsValue(key, .value(y), opts) : compare(key, op, y, opts)
        case (.between(let lower, let upper), false):
            guard lower.isOrderable, upper.isOrderable else { return .constant(false) }
            try requirePlain(l, .value(lower), d)
            try requirePlain(l, .value(upper), d)
            return leaf(.between(key, lower: .literal(lower), upper: .literal(upper)))
        case (.member(let values, let opts), false)
        where !values.contains(where: { $0.isNull || ValueKinds(of: $0) == .collection }):
            for v in values { try requirePlain(l, .value(v), d) }
            return values.isEmpty ? .constant(false) : equalsOneOf(key, values, opts)
        case (.string(let op, let text, let opts), false):
            let (op2, pattern) = restated(op, text, opts)
            return leaf(.string(key, op2, .literal(.string(pattern)), opts))
        default:
            throw onArraysInSQL(l)
        }
    }
}
