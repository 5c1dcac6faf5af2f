// Leaves restated with `.sql` semantics.
//
// An SQL test only sees the non-null values a field reaches, one at a time: it cannot tell an
// array from a single value, see a null element, or negate a test logically (its NOT is false on
// nil). So a test on the value as a whole (NSPredicate) needs a field the schema shows to be
// single-valued, and a logical NOT is restated leaf by leaf as "the field is null, or the
// negated test holds", which is exact only when the test can never be undecided (a comparison
// between types that cannot be compared). Comparisons with numbers, strings and dates also need
// the schema to rule out SQL's date coercion.

extension SemanticsConverter {
    func toSQL(_ l: Leaf, _ scope: Scope, negate: Bool) throws(Diagnostic) -> Predicate {
        switch l.semantics {
        case .sql:
            let p = kept(l, scope)
            return negate ? try complement(p, l, scope) : p
        case .predicate:
            let p = try predicateAsSQL(l, scope)
            return l.negated != negate ? try complement(p, l, scope) : p
        case .document:
            let p = try documentAsSQL(l, scope)
            return l.negated != negate ? try complement(p, l, scope) : p
        }
    }

    // MARK: - Logical NOT

    /// The logical negation of `.sql` IR, without `.not`. `source` names the leaf in errors.
    func complement(_ p: Predicate, _ source: Leaf, _ scope: Scope) throws(Diagnostic) -> Predicate {
        switch p {
        case .constant(let b): return .constant(!b)
        case .and(let ps), .or(let ps):
            var out: [Predicate] = []
            for q in ps { out.append(try complement(q, source, scope)) }
            if case .and = p { return any(out) }
            return all(out)
        case .not(let q): return q
        case .leaf(let x): return try complementLeaf(x, source, scope)
        }
    }

    /// NOT of one `.sql` leaf: `IS NULL` and `IS NOT NULL` are each other's negation; any other
    /// test on a single value is "null, or the negated test", when the test decides every value
    /// the field may hold.
    private func complementLeaf(_ x: Leaf, _ source: Leaf, _ scope: Scope) throws(Diagnostic) -> Predicate {
        var flipped = x
        // A failed comparison is the complementary comparison (`a != 5`, not `NOT (a = 5)`).
        if case .compare(let a, let op, let b, let o) = x.condition {
            flipped.condition = .compare(a, op.complement, b, o)
        } else {
            flipped.negated.toggle()
        }
        switch x.condition {
        case .isNull:
            return .leaf(flipped)
        case .containsAll(let e, _), .containedBy(let e, _), .arraySize(let e, _):
            // On a field that never holds an array these fail, negated or not.
            guard !domain(e, scope).multiValued else { throw notWithoutArrays(source) }
            return .constant(true)
        case .relatedTo, .quantified:
            throw inexpressible(source, "SQL has no logical NOT, and this test cannot be negated leaf by leaf")
        case .inCollection(let y, let coll, _) where Self.constant(y) != nil && Self.constant(coll) == nil:
            // `y IN field` fails, negated or not, only when the field is nil, or a string while
            // y is not (no substring test then). SQL's IS NULL also holds on an array without
            // a non-null element, where the negated test holds: fine after a positive test,
            // wrong after a negated one.
            guard case .value(let v)? = Self.constant(y), !v.isNull else { return .constant(true) }
            let d = domain(coll, scope)
            if case .string = v {} else if d.kinds.contains(.string) && d.maybeSingleValue { throw undecided(source) }
            guard !x.negated || !d.multiValued else { throw notWithoutArrays(source) }
            return any([isNull(coll), .leaf(flipped)])
        case .compare(let a, let op, let b, _) where Self.constant(a) == nil && Self.constant(b) == nil:
            let da = domain(a, scope), db = domain(b, scope)
            guard !da.multiValued, !db.multiValued else { throw notWithoutArrays(source) }
            // A date next to a string that is not a date compares as neither equal nor unequal.
            if da.kinds.contains(.date) && db.kinds.contains(.string) || db.kinds.contains(.date) && da.kinds.contains(.string) {
                throw undecided(source)
            }
            if op != .eq && op != .ne {
                let kinds = da.kinds.union(db.kinds)
                let comparable: [ValueKinds] = [[.number, .date], .string, .bool, .bytes]
                guard comparable.contains(where: { kinds.isSubset(of: $0) }) else { throw undecided(source) }
            }
            return any([isNull(a), isNull(b), .leaf(flipped)])
        default:
            guard let subject = Self.subject(x.condition) else { throw notWithoutArrays(source) }
            // A comparison with null (or between null bounds) never holds, negated or not; with
            // an array it holds for some element, which is no single negatable test.
            for y in Self.constants(x.condition) {
                if case .value(.null) = y { return .constant(true) }
                if case .value(let v) = y, ValueKinds(of: v) == .collection { throw undecided(source) }
            }
            let d = domain(subject, scope)
            guard !d.multiValued else { throw notWithoutArrays(source) }
            // A test that can decide none of the field's values never passes: its NOT always holds.
            if d.kinds.isDisjoint(with: Self.decidedKinds(x.condition, atMost: true)) { return .constant(true) }
            guard d.kinds.isSubset(of: Self.decidedKinds(x.condition, atMost: false)) else { throw undecided(source) }
            return any([isNull(subject), .leaf(flipped)])
        }
    }

    /// The operand a `.sql` leaf tests.
    private static func subject(_ c: Condition) -> Expr? {
        switch c {
        case .compare(let a, _, let b, _): return constant(a) == nil ? a : b
        case .between(let e, _, _), .inCollection(let e, _, _), .string(let e, _, _, _), .isNull(let e),
            .containsAll(let e, _), .containedBy(let e, _), .arraySize(let e, _):
            return e
        case .geo(let g): return .key(g.key)
        case .select(let k, _, _), .inQuery(let k, _), .text(let k, _): return .key(k)
        case .quantified, .relatedTo: return nil
        }
    }

    /// The constants a comparison or BETWEEN tests against.
    private static func constants(_ c: Condition) -> [SQLCoercion.Constant] {
        switch c {
        case .compare(let a, _, let b, _): return [constant(b) ?? constant(a)].compactMap { $0 }
        case .between(_, let lo, let hi): return [constant(lo), constant(hi)].compactMap { $0 }
        default: return []
        }
    }

    /// The kinds of value on which a `.sql` test is always decided (a type mismatch makes it
    /// neither pass nor fail, so "NOT passes" is not "fails" there); with `atMost`, the kinds on
    /// which it may be decided (a date constant reads some strings as dates).
    private static func decidedKinds(_ c: Condition, atMost: Bool) -> ValueKinds {
        switch c {
        case .compare(let a, let op, let b, _):
            let y = constant(b) ?? constant(a)
            guard op == .eq || op == .ne else { return orderedKinds(y, atMost: atMost) }
            // Next to a date, a string in the data that is not a date is undecided.
            switch y {
            case .value(.date)?, .date?: return atMost ? .all : ValueKinds.all.subtracting(.string)
            default: return .all
            }
        case .between(_, let lo, let hi):
            return orderedKinds(constant(lo), atMost: atMost).intersection(orderedKinds(constant(hi), atMost: atMost))
        case .inCollection, .select: return .all
        case .string, .text: return .string
        case .geo(let g): return geoKinds(g)
        // A `__type: Object` value counts as the object it names.
        case .inQuery: return atMost ? .identities : .pointer
        default: return atMost ? .all : []
        }
    }

    /// What an ordered `.sql` comparison with `y` can compare (dates with numbers as
    /// milliseconds, with strings when the string constant is a date).
    private static func orderedKinds(_ y: SQLCoercion.Constant?, atMost: Bool) -> ValueKinds {
        switch y {
        case .value(.int)?, .value(.double)?: return [.number, .date]
        case .value(.string(let s))?: return BackendlessDate.parse(s) == nil ? .string : [.string, .date]
        case .value(.date)?, .date?: return atMost ? [.date, .number, .string] : [.date, .number]
        case .value(.bool)?: return .bool
        case .value(.bytes)?: return .bytes
        default: return []
        }
    }

    private func notWithoutArrays(_ l: Leaf) -> Diagnostic {
        inexpressible(l, "SQL's NOT is false on nil and cannot look at an array as a whole, so the negation needs a field that holds single values",
                      schemaHelps: true)
    }

    private func undecided(_ l: Leaf) -> Diagnostic {
        inexpressible(l, "SQL's negated test is false on a value of a type it cannot compare, which the source's NOT accepts",
                      schemaHelps: true)
    }

    private func onArraysInSQL(_ l: Leaf) -> Diagnostic {
        inexpressible(l, "the test looks at the value as a whole (or at null elements), and SQL only sees the non-null elements of an array",
                      schemaHelps: true)
    }

    /// The comparison keeps its meaning as a `.sql` leaf: no date coercion can apply.
    private func requirePlain(_ l: Leaf, _ y: SQLCoercion.Constant, _ d: ValueDomain) throws(Diagnostic) {
        guard SQLCoercion.isPlain(y, kinds: d.kinds) else {
            let why: String
            switch y {
            case .value(.date), .date:
                why = "SQL would also read numbers (as milliseconds) and strings (as dates) in the field as dates"
            default:
                why = "SQL would also compare it with dates in the field (a number as milliseconds, a string read as a date)"
            }
            throw inexpressible(l, why, schemaHelps: true)
        }
    }

    // MARK: - Building blocks

    /// Some non-null value of `e` equals `y` (plain equality; string options as an exact LIKE).
    private func equalsValue(_ e: Expr, _ y: SQLCoercion.Constant, _ opts: StringOptions) -> Predicate {
        if case .value(.string(let s)) = y, !opts.isEmpty {
            let (pattern, escape) = LikeText.sql(s.unicodeScalars.map(LikeText.Token.literal))
            return leaf(.string(e, .like(.sql(escape: escape)), .literal(.string(pattern)), opts))
        }
        if case .value(.string) = y { return compare(e, .eq, y.expr, opts) }
        return compare(e, .eq, y.expr)
    }

    /// Some non-null value of `e` equals one of `values`.
    private func equalsOneOf(_ e: Expr, _ values: [Value], _ opts: StringOptions) -> Predicate {
        var parts: [Predicate] = []
        var plain: [Expr] = []
        for v in values {
            if case .string = v, !opts.isEmpty { parts.append(equalsValue(e, .value(v), opts)) } else { plain.append(.literal(v)) }
        }
        if !plain.isEmpty { parts.insert(equalsOneOf(e, plain, []), at: 0) }
        return any(parts)
    }

    // MARK: - From .predicate

    /// What the `.predicate` leaf's condition says, as `.sql` (its `negated` is applied by the
    /// caller, as a logical NOT).
    private func predicateAsSQL(_ l: Leaf, _ scope: Scope) throws(Diagnostic) -> Predicate {
        switch l.condition {
        case .compare(let a, let op, let b, let opts):
            guard let (s, o, y) = Self.oriented(a, op, b) else { return try predicateFieldsAsSQL(l, a, op, b, opts, scope) }
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
                return any([items.contains(where: \.isNull) ? isNull(k) : .constant(false),
                            members.isEmpty ? .constant(false) : equalsOneOf(k, members, opts)])
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

        case .containsAll, .containedBy, .arraySize, .relatedTo:
            return leaf(l.condition)

        case .quantified(let q, let coll, let v, let body):
            return try quantifiedAsSQL(l, q, coll, v, body, scope)

        case .geo(let g):
            guard !domain(.key(g.key), scope).multiValued else { throw onArraysInSQL(l) }
            return leaf(.geo(g))

        case .text(let k, let search):
            guard !domain(.key(k), scope).multiValued else { throw onArraysInSQL(l) }
            return leaf(.text(k, search))

        case .inQuery(let k, let q):
            return leaf(.inQuery(k, nested(q, scope)))

        case .select(let k, let q, let innerKey):
            let inner = ValueDomain.of(innerKey, in: q.className, schema: schema)
            guard !domain(.key(k), scope).multiValued || !inner.kinds.contains(.collection) else { throw arrayItselfMatches(l) }
            return leaf(.select(k, nested(q, scope), innerKey: innerKey))
        }
    }

    /// `a op b` between two single-valued fields: NSPredicate's `==` also holds on two nils.
    private func predicateFieldsAsSQL(_ l: Leaf, _ a: Expr, _ op: ComparisonOperator, _ b: Expr,
                                      _ opts: StringOptions, _ scope: Scope) throws(Diagnostic) -> Predicate
    {
        let ka = Expr.key(try keyPath(a, l)), kb = Expr.key(try keyPath(b, l))
        let da = domain(ka, scope), db = domain(kb, scope)
        guard !da.multiValued, !db.multiValued else { throw onArraysInSQL(l) }
        let coerced: ValueKinds = [.number, .string]
        if da.kinds.contains(.date) && !db.kinds.isDisjoint(with: coerced)
            || db.kinds.contains(.date) && !da.kinds.isDisjoint(with: coerced)
        {
            throw inexpressible(l, "SQL compares a date with numbers (as milliseconds) and strings (read as dates)",
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
    private func quantifiedAsSQL(_ l: Leaf, _ q: Quantifier, _ coll: Expr, _ v: String, _ body: Predicate,
                                 _ scope: Scope) throws(Diagnostic) -> Predicate
    {
        guard case .key(let k) = coll, case .leaf(let test) = body, test.semantics == .predicate,
              let element = ElementTest(test, variable: v)
        else {
            throw inexpressible(l, "SQL has no quantifiers; only ANY, ALL or NONE with one comparison of the element translates")
        }
        let d = domain(.key(k), scope)
        switch q {
        case .any: return try someElementAsSQL(l, k, d, element, scope)
        case .none: return try complement(someElementAsSQL(l, k, d, element, scope), l, scope)
        case .all: return try complement(someElementAsSQL(l, k, d, element.negatedTest, scope), l, scope)
        }
    }

    /// Some element of `k` (the single value, when it is one; none for nil) passes the test.
    private func someElementAsSQL(_ l: Leaf, _ k: KeyPath, _ d: ValueDomain, _ t: ElementTest,
                                  _ scope: Scope) throws(Diagnostic) -> Predicate
    {
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

    // MARK: - From .document

    /// What the `.document` leaf's condition says, as `.sql` (negation applied by the caller).
    private func documentAsSQL(_ l: Leaf, _ scope: Scope) throws(Diagnostic) -> Predicate {
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

        case .containsAll(let e, let list), .containedBy(let e, let list):
            try checkListEquality(l, domain(e, scope), list)
            return leaf(l.condition)

        case .arraySize, .geo, .text, .relatedTo:
            return leaf(l.condition)

        case .inQuery(let k, let q):
            return leaf(.inQuery(k, nested(q, scope)))

        case .select(let k, let q, let innerKey):
            let d = domain(.key(k), scope)
            let inner = ValueDomain.of(innerKey, in: q.className, schema: schema)
            try checkSelectEquality(l, d, inner)
            guard !d.multiValued || !inner.kinds.contains(.collection) else { throw arrayItselfMatches(l) }
            return leaf(.select(k, nested(q, scope), innerKey: innerKey))

        case .quantified(let q, let coll, let v, let body):
            return try quantifiedAsSQL(l, q, coll, v, body, scope)
        }
    }

    /// Parse equality with any of `values`: the value or an element equals one (a missing field
    /// equals null; a string also equals a pointer with that objectId).
    private func documentEqualsAsSQL(_ l: Leaf, _ k: KeyPath, _ d: ValueDomain, _ values: [Value],
                                     _ opts: StringOptions) throws(Diagnostic) -> Predicate
    {
        var parts: [Predicate] = []
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
                throw inexpressible(l, "Parse equality with a string also matches a pointer or `__type: Object` value whose objectId it is",
                                    schemaHelps: true)
            }
            parts.append(equalsOneOf(.key(k.appending("objectId")), strings, []))
        }
        if scalars.contains(where: { $0.translationIdentity != nil }) && d.kinds.contains(.string) {
            throw inexpressible(l, "Parse equality with a pointer also matches its objectId string", schemaHelps: true)
        }
        return any(parts)
    }
}

extension ElementTest {
    /// The test applied to `e` instead of the element.
    func condition(on e: Expr) -> Condition {
        switch condition {
        case .isNull: return .isNull(e)
        case .compare(let op, let y, let opts): return .compare(e, op, .literal(y), opts)
        case .between(let lo, let hi): return .between(e, lower: .literal(lo), upper: .literal(hi))
        case .member(let values, let opts): return .inCollection(e, .list(values.map(Expr.literal)), opts)
        case .string(let op, let text, let opts): return .string(e, op, .literal(.string(text)), opts)
        }
    }
}
