import QuarryCore

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
    func toSQL(_ l: Leaf, _ scope: Scope, negate: Bool) throws(Diagnostic) -> Filter {
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
    func complement(_ p: Filter, _ source: Leaf, _ scope: Scope) throws(Diagnostic) -> Filter {
        switch p {
        case .constant(let b): return .constant(!b)
        case .and(let ps), .or(let ps):
            var out: [Filter] = []
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
    func complementLeaf(_ x: Leaf, _ source: Leaf, _ scope: Scope) throws(Diagnostic) -> Filter {
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
            // An array on the left is tested element by element: "some element" has no NOT here.
            guard ValueKinds(of: v) != .collection else { throw undecided(source) }
            let d = domain(coll, scope)
            if case .string = v {} else if d.kinds.contains(.string) && d.maybeSingleValue { throw undecided(source) }
            guard !x.negated || !d.multiValued else { throw notWithoutArrays(source) }
            return any([isNull(coll), .leaf(flipped)])
        case .compare(let a, let op, let b, _) where Self.constant(a) == nil && Self.constant(b) == nil:
            let da = domain(a, scope), db = domain(b, scope)
            guard !da.multiValued, !db.multiValued else { throw notWithoutArrays(source) }
            // A date next to a string that is not a date compares as neither equal nor unequal.
            if da.kinds.contains(.date) && db.kinds.contains(.string)
                || db.kinds.contains(.date) && da.kinds.contains(.string)
            {
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
    static func subject(_ c: Condition) -> Expr? {
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
    static func constants(_ c: Condition) -> [SQLCoercion.Constant] {
        switch c {
        case .compare(let a, _, let b, _): return [constant(b) ?? constant(a)].compactMap { $0 }
        case .between(_, let lo, let hi): return [constant(lo), constant(hi)].compactMap { $0 }
        default: return []
        }
    }

    /// The kinds of value on which a `.sql` test is always decided (a type mismatch makes it
    /// neither pass nor fail, so "NOT passes" is not "fails" there); with `atMost`, the kinds on
    /// which it may be decided (a date constant reads some strings as dates).
    static func decidedKinds(_ c: Condition, atMost: Bool) -> ValueKinds {
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
    static func orderedKinds(_ y: SQLCoercion.Constant?, atMost: Bool) -> ValueKinds {
        switch y {
        case .value(.int)?, .value(.double)?: return [.number, .date]
        case .value(.string(let s))?: return BackendlessDate.parse(s) == nil ? .string : [.string, .date]
        case .value(.date)?, .date?: return atMost ? [.date, .number, .string] : [.date, .number]
        case .value(.bool)?: return .bool
        case .value(.bytes)?: return .bytes
        default: return []
        }
    }

    func notWithoutArrays(_ l: Leaf) -> Diagnostic {
        inexpressible(
            l,
            "SQL's NOT is false on nil and cannot look at an array as a whole, so the negation needs a field that holds single values",
            schemaHelps: true)
    }

    func undecided(_ l: Leaf) -> Diagnostic {
        inexpressible(
            l, "SQL's negated test is false on a value of a type it cannot compare, which the source's NOT accepts",
            schemaHelps: true)
    }

    func onArraysInSQL(_ l: Leaf) -> Diagnostic {
        inexpressible(
            l,
            "the test looks at the value as a whole (or at null elements), and SQL only sees the non-null elements of an array",
            schemaHelps: true)
    }

    /// The comparison keeps its meaning as a `.sql` leaf: no date coercion can apply.
    func requirePlain(_ l: Leaf, _ y: SQLCoercion.Constant, _ d: ValueDomain) throws(Diagnostic) {
        guard SQLCoercion.isPlain(y, kinds: d.kinds) else {
            let why: String
            switch y {
            case .value(.date), .date:
                why = "SQL would also read numbers (as milliseconds) and strings (as dates) in the field as dates"
            default:
                why =
                    "SQL would also compare it with dates in the field (a number as milliseconds, a string read as a date)"
            }
            throw inexpressible(l, why, schemaHelps: true)
        }
    }

    // MARK: - Inner queries

    /// Parse `$inQuery` (NSPredicate `key IN %@` with a query) as the Backendless subquery
    /// `address.objectId IN (Address[city = 'Tokyo'].objectId)`: the pointers' ids among the
    /// ids of the inner results. That compares ids only, so the field must hold pointers to the
    /// inner query's class and nothing else (a schema or the assumptions say so).
    func inQueryAsSQL(_ l: Leaf, _ k: FieldPath, _ q: Query, _ scope: Scope) throws(Diagnostic) -> Filter {
        let d = domain(.key(k), scope)
        let target = pointerClass(k, in: scope.className)
        // Pointers to another class are never among the inner results.
        if let target, target != q.className, d.kinds.isSubset(of: .pointer) { return .constant(false) }
        guard !d.kinds.isEmpty, d.kinds.isSubset(of: .pointer), target == q.className else {
            throw inexpressible(
                l,
                "SQL can only compare objectIds (`\(k).objectId IN (\(q.className)[…].objectId)`), "
                    + "which says the same only when the field holds pointers to \(q.className) alone",
                schemaHelps: true)
        }
        return leaf(.select(k.appending("objectId"), nested(q, scope), innerKey: FieldPath("objectId")))
    }

    /// Parse `$relatedTo` (the object is in relation `key` of `parent`) as Backendless's
    /// subquery `objectId IN (T[objectId = 't1'].refs.objectId)`, which compares ids only: the
    /// relation must hold objects of the class queried (the schema or the assumptions say so).
    func relatedToAsSQL(_ l: Leaf, _ parent: Pointer, _ key: String, _ scope: Scope) throws(Diagnostic) -> Filter {
        let relation = FieldPath([key])
        let target =
            schema == nil ? (assumptions == nil ? nil : scope.className) : pointerClass(relation, in: parent.className)
        guard let target, target == scope.className else {
            throw inexpressible(
                l,
                "SQL can only compare objectIds (`objectId IN (\(parent.className)[…].\(key).objectId)`), "
                    + "which says the same only when the relation holds objects of the class queried",
                schemaHelps: true)
        }
        let isParent = Filter.leaf(.compare(.key("objectId"), .eq, .literal(.string(parent.objectId)), []), .sql)
        return leaf(
            .select(
                "objectId", Query(className: parent.className, predicate: isParent),
                innerKey: relation.appending("objectId")))
    }

    /// Parse's circle and sphere tests as the distance test SQL spells
    /// (`distance(…) <= km(300)`), a radian distance in meters (without a maximum, any point
    /// is at a distance of at least 0), and a box as the polygon of its corners.
    static func sqlGeo(_ g: GeoCondition) -> GeoCondition {
        func sqlUnit(_ d: Distance) -> Distance { d.unit == .radians ? Distance(d.meters, .meters) : d }
        switch g {
        case .withinCircle(let k, let center, let radius): return .distance(k, from: center, .le, sqlUnit(radius))
        case .near(let k, let center, let max?): return .distance(k, from: center, .le, sqlUnit(max))
        case .near(let k, let center, nil): return .distance(k, from: center, .ge, Distance(0, .meters))
        case .withinBox(let k, let sw, let ne) where sw.latitude < ne.latitude && sw.longitude < ne.longitude:
            // Both read latitude and longitude as plane coordinates, edges included.
            let corners = [
                sw, GeoPoint(latitude: sw.latitude, longitude: ne.longitude), ne,
                GeoPoint(latitude: ne.latitude, longitude: sw.longitude),
            ]
            return .withinPolygon(k, corners)
        default: return g
        }
    }

    /// The class the pointers at `k` point to, when the schema (or the assumptions) tell.
    func pointerClass(_ k: FieldPath, in className: String?) -> String? {
        guard let schema else { return assumptions?.pointerTarget(k, in: className) }
        guard var current = className else { return nil }
        for (i, name) in k.components.enumerated() {
            switch schema.fieldType(name, in: current) {
            case .pointer(let target)?, .relation(let target)?, .array(of: .pointer(let target)?)?:
                if i == k.count - 1 { return target }
                current = target
            default:
                return nil
            }
        }
        return nil
    }

    // MARK: - Building blocks

    /// Some non-null value of `e` equals `y` (plain equality; string options as an exact LIKE).
    func equalsValue(_ e: Expr, _ y: SQLCoercion.Constant, _ opts: StringOptions) -> Filter {
        if case .value(.string(let s)) = y, !opts.isEmpty {
            let (pattern, escape) = LikeText.sql(s.unicodeScalars.map(LikeText.Token.literal))
            return leaf(.string(e, .like(.sql(escape: escape)), .literal(.string(pattern)), opts))
        }
        if case .value(.string) = y { return compare(e, .eq, y.expr, opts) }
        return compare(e, .eq, y.expr)
    }

    /// Some non-null value of `e` equals one of `values`.
    func equalsOneOf(_ e: Expr, _ values: [Value], _ opts: StringOptions) -> Filter {
        var parts: [Filter] = []
        var plain: [Expr] = []
        for v in values {
            if case .string = v, !opts.isEmpty {
                parts.append(equalsValue(e, .value(v), opts))
            } else {
                plain.append(.literal(v))
            }
        }
        if !plain.isEmpty { parts.insert(equalsOneOf(e, plain, []), at: 0) }
        return any(parts)
    }
}
