import QuarryCore

// Variable bookkeeping over the IR: which names occur, and whether one occurs free.
// A quantifier or SUBQUERY binding the same name hides it in its body.

extension Filter {
    func collectVariables(into names: inout Set<String>) {
        switch self {
        case .constant: break
        case .and(let ps), .or(let ps): for p in ps { p.collectVariables(into: &names) }
        case .not(let p): p.collectVariables(into: &names)
        case .leaf(let l): l.condition.collectVariables(into: &names)
        }
    }

    func mentions(_ v: String) -> Bool {
        switch self {
        case .constant: return false
        case .and(let ps), .or(let ps): return ps.contains { $0.mentions(v) }
        case .not(let p): return p.mentions(v)
        case .leaf(let l): return l.condition.mentions(v)
        }
    }
}

extension Condition {
    /// The expressions the condition reads, and the predicate a quantifier binds over.
    var operands: (exprs: [Expr], bound: (String, Filter)?) {
        switch self {
        case .compare(let l, _, let r, _): return ([l, r], nil)
        case .between(let e, let lo, let hi): return ([e, lo, hi], nil)
        case .inCollection(let v, let c, _): return ([v, c], nil)
        case .isNull(let e): return ([e], nil)
        case .string(let l, _, let r, _): return ([l, r], nil)
        case .containsAll(let a, let b), .containedBy(let a, let b): return ([a, b], nil)
        case .arraySize(let a, _): return ([a], nil)
        case .quantified(_, let c, let v, let p): return ([c], (v, p))
        case .geo, .inQuery, .select, .relatedTo, .text: return ([], nil)
        }
    }

    func collectVariables(into names: inout Set<String>) {
        let (exprs, bound) = operands
        for e in exprs { e.collectVariables(into: &names) }
        if let (v, p) = bound {
            names.insert(v)
            p.collectVariables(into: &names)
        }
    }

    func mentions(_ v: String) -> Bool {
        let (exprs, bound) = operands
        if exprs.contains(where: { $0.mentions(v) }) { return true }
        if let (name, p) = bound, name != v { return p.mentions(v) }
        return false
    }
}

extension Expr {
    /// Direct sub-expressions, and the predicate a SUBQUERY binds over.
    var children: (exprs: [Expr], bound: (String, Filter)?) {
        switch self {
        case .literal, .key, .variable, .evaluatedObject: return ([], nil)
        case .member(let e, _), .negate(let e), .aggregate(_, let e), .cast(let e, _): return ([e], nil)
        case .list(let es), .function(_, let es): return (es, nil)
        case .arithmetic(_, let l, let r): return ([l, r], nil)
        case .index(let e, let spec):
            if case .at(let i) = spec { return ([e, i], nil) }
            return ([e], nil)
        case .subquery(let c, let v, let p): return ([c], (v, p))
        }
    }

    func collectVariables(into names: inout Set<String>) {
        if case .variable(let name) = self { names.insert(name) }
        let (exprs, bound) = children
        for e in exprs { e.collectVariables(into: &names) }
        if let (v, p) = bound {
            names.insert(v)
            p.collectVariables(into: &names)
        }
    }

    /// Whether `$v` occurs free.
    func mentions(_ v: String) -> Bool {
        if case .variable(let name) = self { return name == v }
        let (exprs, bound) = children
        if exprs.contains(where: { $0.mentions(v) }) { return true }
        if let (name, p) = bound, name != v { return p.mentions(v) }
        return false
    }
}

/// A bound value as an expression: arrays become literal aggregates, as if written `{…}`.
func expression(for v: Value) -> Expr {
    if case .array(let items) = v { return .list(items.map(expression(for:))) }
    return .literal(v)
}
