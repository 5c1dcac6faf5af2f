import QuarryCore

extension Filter {
    /// Binds free `$NAME` variables, like NSPredicate's `withSubstitutionVariables`.
    ///
    /// Arrays become literal aggregates, as if written `{…}`. Variables bound by a quantifier
    /// or SUBQUERY are never replaced. A variable without a value is an error
    /// (`variable.unbound`) unless `leavingUnbound` is set, in which case it stays a variable.
    /// `x BETWEEN $r` needs `$r` bound to a two-element array (`predicate.between-bounds`).
    public func substituting(_ variables: [String: Value], leavingUnbound: Bool = false) throws(Diagnostic) -> Filter {
        var s = Substitution(values: variables, leavingUnbound: leavingUnbound)
        let result = s.filter(self, binding: nil)
        try Diagnostic.throwIfAny(s.diagnostics)
        return result
    }
}

/// Substitution as a rewrite of each node's children. Inner queries are left as they are:
/// they are whole queries of their own.
private struct Substitution: IRChildTransform {
    let values: [String: Value]
    let leavingUnbound: Bool
    var diagnostics: [Diagnostic] = []
    private var reported = Set<String>()
    /// Variables a quantifier or SUBQUERY around the current node binds.
    private var bound = Set<String>()

    init(values: [String: Value], leavingUnbound: Bool) {
        self.values = values
        self.leavingUnbound = leavingUnbound
    }

    mutating func filter(_ f: Filter, binding: String?) -> Filter {
        guard let binding, bound.insert(binding).inserted else { return f.mapChildren(&self) }
        defer { bound.remove(binding) }
        return f.mapChildren(&self)
    }

    mutating func condition(_ c: Condition) -> Condition {
        if case .between(let e, let lo, let hi) = c, let (a, b) = betweenVariable(lo, hi) {
            return .between(expr(e), lower: a, upper: b)
        }
        return c.mapChildren(&self)
    }

    mutating func query(_ q: Query) -> Query { q }

    /// The lowering of `x BETWEEN $r` (`$r[0]`, `$r[1]`): `$r` must hold two elements.
    private mutating func betweenVariable(_ lo: Expr, _ hi: Expr) -> (Expr, Expr)? {
        guard case .index(.variable(let a), .at(.literal(.int(0)))) = lo,
            case .index(.variable(let b), .at(.literal(.int(1)))) = hi, a == b, !bound.contains(a),
            let v = values[a]
        else { return nil }
        guard case .array(let items) = v, items.count == 2 else {
            diagnostics.append(
                Diagnostic(
                    .predicate.betweenBounds,
                    "BETWEEN $\(a) needs $\(a) bound to a two-element array, not \(v.article)"))
            return (lo, hi)
        }
        return (expression(for: items[0]), expression(for: items[1]))
    }

    mutating func expr(_ e: Expr) -> Expr {
        guard case .variable(let name) = e else { return e.mapChildren(&self) }
        if bound.contains(name) { return e }
        if let v = values[name] { return expression(for: v) }
        if !leavingUnbound && reported.insert(name).inserted {
            diagnostics.append(Diagnostic(.variable.unbound, "no value was given for the variable $\(name)"))
        }
        return e
    }
}
