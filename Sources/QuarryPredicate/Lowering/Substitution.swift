import QuarryCore

extension Filter {
    /// Binds free `$NAME` variables, like NSPredicate's `withSubstitutionVariables`.
    ///
    /// Arrays become literal aggregates, as if written `{…}`. Variables bound by a quantifier
    /// or SUBQUERY are never replaced. A variable without a value is an error
    /// (`variable.unbound`) unless `leavingUnbound` is set, in which case it stays a variable.
    /// `x BETWEEN $r` needs `$r` bound to a two-element array (`predicate.between-bounds`).
    public func substituting(_ variables: [String: Value], leavingUnbound: Bool = false) throws(Diagnostics) -> Filter {
        var s = Substitution(values: variables, leavingUnbound: leavingUnbound)
        let result = s.predicate(self, bound: [])
        guard s.diagnostics.isEmpty else { throw Diagnostics(s.diagnostics) }
        return result
    }
}

private struct Substitution {
    let values: [String: Value]
    let leavingUnbound: Bool
    var diagnostics: [Diagnostic] = []
    private var reported = Set<String>()

    init(values: [String: Value], leavingUnbound: Bool) {
        self.values = values
        self.leavingUnbound = leavingUnbound
    }

    mutating func predicate(_ p: Filter, bound: Set<String>) -> Filter {
        switch p {
        case .constant: return p
        case .and(let ps): return .and(ps.map { predicate($0, bound: bound) })
        case .or(let ps): return .or(ps.map { predicate($0, bound: bound) })
        case .not(let q): return .not(predicate(q, bound: bound))
        case .leaf(var l):
            l.condition = condition(l.condition, bound: bound)
            return .leaf(l)
        }
    }

    private mutating func condition(_ c: Condition, bound: Set<String>) -> Condition {
        switch c {
        case .compare(let l, let op, let r, let o):
            return .compare(expr(l, bound), op, expr(r, bound), o)
        case .between(let e, let lo, let hi):
            if let (a, b) = betweenVariable(lo, hi, bound) { return .between(expr(e, bound), lower: a, upper: b) }
            return .between(expr(e, bound), lower: expr(lo, bound), upper: expr(hi, bound))
        case .inCollection(let v, let coll, let o): return .inCollection(expr(v, bound), expr(coll, bound), o)
        case .isNull(let e): return .isNull(expr(e, bound))
        case .string(let l, let op, let r, let o): return .string(expr(l, bound), op, expr(r, bound), o)
        case .containsAll(let a, let b): return .containsAll(expr(a, bound), expr(b, bound))
        case .containedBy(let a, let b): return .containedBy(expr(a, bound), expr(b, bound))
        case .arraySize(let a, let n): return .arraySize(expr(a, bound), n)
        case .quantified(let q, let coll, let v, let body):
            return .quantified(q, expr(coll, bound), variable: v, predicate(body, bound: bound.union([v])))
        case .geo, .inQuery, .select, .relatedTo, .text:
            return c
        }
    }

    /// The lowering of `x BETWEEN $r` (`$r[0]`, `$r[1]`): `$r` must hold two elements.
    private mutating func betweenVariable(_ lo: Expr, _ hi: Expr, _ bound: Set<String>) -> (Expr, Expr)? {
        guard case .index(.variable(let a), .at(.literal(.int(0)))) = lo,
            case .index(.variable(let b), .at(.literal(.int(1)))) = hi, a == b, !bound.contains(a),
            let v = values[a]
        else { return nil }
        guard case .array(let items) = v, items.count == 2 else {
            diagnostics.append(Diagnostic("predicate.between-bounds",
                                          "BETWEEN $\(a) needs $\(a) bound to a two-element array, not \(v.article)"))
            return (lo, hi)
        }
        return (expression(for: items[0]), expression(for: items[1]))
    }

    private mutating func expr(_ e: Expr, _ bound: Set<String>) -> Expr {
        switch e {
        case .variable(let name):
            if bound.contains(name) { return e }
            if let v = values[name] { return expression(for: v) }
            if !leavingUnbound && reported.insert(name).inserted {
                diagnostics.append(Diagnostic("variable.unbound", "no value was given for the variable $\(name)"))
            }
            return e
        case .literal, .key, .evaluatedObject: return e
        case .member(let b, let p): return .member(expr(b, bound), p)
        case .list(let es): return .list(es.map { expr($0, bound) })
        case .arithmetic(let op, let l, let r): return .arithmetic(op, expr(l, bound), expr(r, bound))
        case .negate(let x): return .negate(expr(x, bound))
        case .function(let f, let args): return .function(f, args.map { expr($0, bound) })
        case .aggregate(let op, let x): return .aggregate(op, expr(x, bound))
        case .index(let b, let spec):
            if case .at(let i) = spec { return .index(expr(b, bound), .at(expr(i, bound))) }
            return .index(expr(b, bound), spec)
        case .subquery(let c, let v, let p):
            return .subquery(expr(c, bound), variable: v, predicate(p, bound: bound.union([v])))
        case .cast(let x, let t): return .cast(expr(x, bound), t)
        }
    }
}
