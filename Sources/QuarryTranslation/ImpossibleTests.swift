import QuarryCore

// Leaves the schema decides: a test whose operand never holds a value of a kind the test can
// accept (`s > 5` on a string field, `BEGINSWITH` on a date) has the same
// answer on every object. Stating it as that constant keeps the translation exact and lets it
// compile in a target whose front-end rejects the comparison as a type mismatch (SQL's
// `s > 5`), which the source dialect accepted.

extension SemanticsConverter {
    /// The answer every object gives to `l`, when the subject's domain rules out every value
    /// the test accepts; nil when some object may pass.
    func constantAnswer(_ l: Leaf, _ scope: Scope) -> Bool? {
        // An SQL source leaf compiled against the schema already; its type rules are its own.
        guard l.semantics != .sql, let (subject, accepted) = Self.acceptedKinds(l.condition, l.semantics) else {
            return nil
        }
        let d = domain(subject, scope)
        guard d.kinds.isDisjoint(with: accepted), !(accepted.contains(.collection) && d.multiValued) else { return nil }
        // The test fails on every object, so its NOT (and `!=`, which is NOT `==`) holds on
        // every object.
        if case .compare(let a, .ne, let b, _) = l.condition, Self.oriented(a, .ne, b) != nil { return !l.negated }
        return l.negated
    }

    /// The operand a leaf tests and the kinds of value it can pass on; nil when any kind may.
    static func acceptedKinds(_ c: Condition, _ semantics: LeafSemantics) -> (Expr, ValueKinds)? {
        switch c {
        case .compare(let a, let op, let b, _):
            guard let (s, _, y) = oriented(a, op, b) else { return nil }
            return accepted([y], semantics).map { (s, $0) }
        case .between(let e, let lo, let hi):
            guard let lower = constant(lo), let upper = constant(hi) else { return nil }
            return accepted([lower, upper], semantics).map { (e, $0) }
        case .inCollection(let e, let coll, _):
            if case .value(let y)? = constant(e), constant(coll) == nil {
                // `y IN field`: an element equal to y, or in a string a substring.
                return accepted([.value(y)], semantics).map {
                    (coll, ValueKinds(of: y) == .string ? $0.union(.string) : $0)
                }
            }
            guard constant(e) == nil, let items = listValues(coll) else { return nil }
            // An array member equals an array value as a whole: `.collection` stands for it.
            let arrays = items.contains { ValueKinds(of: $0) == .collection }
            let scalars = items.filter { ValueKinds(of: $0) != .collection }
            return accepted(scalars.map(SQLCoercion.Constant.value), semantics).map {
                (e, arrays ? $0.union(.collection) : $0)
            }
        case .string(let e, _, _, _):
            return (e, .string)
        case .geo(let g):
            return (.key(g.key), geoKinds(g))
        case .text(let k, _):
            return (.key(k), .string)
        default:
            return nil
        }
    }

    /// The kinds that equal or compare with one of `constants` under `semantics`; nil when a
    /// constant is null or an array (those have rules of their own).
    private static func accepted(_ constants: [SQLCoercion.Constant], _ semantics: LeafSemantics) -> ValueKinds? {
        var kinds: ValueKinds = []
        for y in constants {
            switch y {
            case .date:
                kinds.formUnion(semantics == .sql ? [.date, .number, .string] : .date)
            case .value(let v):
                let k = ValueKinds(of: v)
                guard !k.isEmpty, k != .collection else { return nil }
                kinds.formUnion(k)
                if semantics == .sql {
                    // SQL reads strings and numbers as dates next to a date, and the reverse.
                    if k == .date { kinds.formUnion([.number, .string]) }
                    if k == .number || k == .string { kinds.formUnion(.date) }
                }
                if semantics == .document {
                    // Parse equality matches a pointer with its objectId string.
                    if k == .string { kinds.formUnion(.identities) }
                    if v.translationIdentity != nil { kinds.formUnion(.string) }
                }
            }
        }
        return kinds
    }
}

// SQL output: a pointer literal, which SQL cannot write, as the pointer's id next to the
// field's (exact when the field holds pointers to that class alone). A comparison the SQL
// front-end would reject against the schema (`n = 'a'` on a
// number column, `d = TRUE` on a date column, LIKE on a non-string column) is decided by the
// column's type under SQL's rules: values of other types are never equal (so `!=` holds on
// every non-null value, `IS NOT NULL`) and never ordered or matched (false, negated or not). It
// is written that way, and an IN list keeps only the members the column can hold.
extension SemanticsConverter {
    func typeCheckedSQL(_ p: Filter, _ scope: Scope) -> Filter {
        switch p {
        case .constant: return p
        case .and(let ps): return all(ps.map { typeCheckedSQL($0, scope) })
        case .or(let ps): return any(ps.map { typeCheckedSQL($0, scope) })
        case .not(let q): return .not(typeCheckedSQL(q, scope))
        case .leaf(var l):
            guard l.semantics == .sql else { return p }
            switch l.condition {
            case .compare(.key(let k), let op, .literal(.pointer(let target)), let o)
            where (op == .eq || op == .ne) && sqlPointers(k, target.className, scope):
                l.condition = .compare(.key(k.appending("objectId")), op, .literal(.string(target.objectId)), o)
                return .leaf(l)
            case .inCollection(.key(let k), .list(let items), let o)
            where !items.isEmpty && items.allSatisfy({ Self.pointerClass(of: $0) != nil })
                && Set(items.compactMap(Self.pointerClass)).count == 1
                && sqlPointers(k, Self.pointerClass(of: items[0])!, scope):
                let ids = items.map { e -> Expr in
                    if case .literal(.pointer(let t)) = e { return .literal(.string(t.objectId)) }
                    return e
                }
                l.condition = .inCollection(.key(k.appending("objectId")), .list(ids), o)
                return .leaf(l)
            case .compare(.key(let k), let op, .literal(let v), _) where !v.isNull,
                .compare(.literal(let v), let op, .key(let k), _) where !v.isNull:
                if sqlAccepts(k, v, scope) { return p }
                let unequal = op == .ne && !l.negated || op == .eq && l.negated
                return unequal ? isNull(.key(k), negated: true) : .constant(false)
            case .between(.key(let k), .literal(let lo), .literal(let hi)):
                return sqlAccepts(k, lo, scope) && sqlAccepts(k, hi, scope) ? p : .constant(false)
            case .inCollection(.key(let k), .list(let items), let o):
                let kept = items.filter {
                    if case .literal(let v) = $0 { v.isNull || sqlAccepts(k, v, scope) } else { true }
                }
                if kept.isEmpty { return l.negated ? isNull(.key(k), negated: true) : .constant(false) }
                l.condition = .inCollection(.key(k), .list(kept), o)
                return .leaf(l)
            case .string(.key(let k), _, _, _):
                return fieldDomain(k, in: scope.className).kinds.contains(.string) ? p : .constant(false)
            case .select(let k, var q, let innerKey):
                q.predicate = typeCheckedSQL(q.predicate, Scope(className: q.className))
                l.condition = .select(k, q, innerKey: innerKey)
                return .leaf(l)
            default:
                return p
            }
        }
    }

    /// Whether `k` holds pointers to `className` only, so that SQL, which has no pointer
    /// literal, can compare their ids instead (`address.objectId = 'a1'`).
    private func sqlPointers(_ k: FieldPath, _ className: String, _ scope: Scope) -> Bool {
        let kinds = fieldDomain(k, in: scope.className).kinds
        return !kinds.isEmpty && kinds.isSubset(of: .pointer) && pointerClass(k, in: scope.className) == className
    }

    private static func pointerClass(of e: Expr) -> String? {
        if case .literal(.pointer(let p)) = e { return p.className }
        return nil
    }

    /// Whether a column that holds what `k` may hold takes `v` in an SQL comparison: numbers
    /// and date strings next to dates, a string next to a pointer (its objectId).
    private func sqlAccepts(_ k: FieldPath, _ v: Value, _ scope: Scope) -> Bool {
        let kinds = fieldDomain(k, in: scope.className).kinds
        var accepted = ValueKinds(of: v)
        // Only scalars are checked; an array's elements are.
        if kinds.contains(.collection) { return true }
        switch v {
        case .int, .double: accepted.formUnion(.date)
        case .string(let s):
            accepted.formUnion(.identities)
            if BackendlessDate.parse(s) != nil { accepted.formUnion(.date) }
        case .date: accepted.formUnion([.number, .string])
        case .bool: break
        default: return true
        }
        return !kinds.isDisjoint(with: accepted)
    }
}
