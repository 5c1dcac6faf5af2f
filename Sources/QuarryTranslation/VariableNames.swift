import QuarryCore

// Every variable name a predicate binds or reads, so that a conversion's own quantifier
// variables never shadow one of them. The walk stops `depth` levels down: the conversion itself
// reports IR nested deeper than its limit, and must not overflow the stack first.

extension Filter {
    func collectVariableNames(into names: inout Set<String>, depth: Int) {
        guard depth > 0 else { return }
        switch self {
        case .constant: return
        case .and(let ps), .or(let ps): for p in ps { p.collectVariableNames(into: &names, depth: depth - 1) }
        case .not(let p): p.collectVariableNames(into: &names, depth: depth - 1)
        case .leaf(let l): l.condition.collectVariableNames(into: &names, depth: depth - 1)
        }
    }
}

extension Condition {
    func collectVariableNames(into names: inout Set<String>, depth: Int) {
        guard depth > 0 else { return }
        switch self {
        case .compare(let l, _, let r, _), .inCollection(let l, let r, _), .string(let l, _, let r, _),
            .containsAll(let l, let r), .containedBy(let l, let r):
            l.collectVariableNames(into: &names, depth: depth - 1)
            r.collectVariableNames(into: &names, depth: depth - 1)
        case .between(let e, let lo, let hi):
            for x in [e, lo, hi] { x.collectVariableNames(into: &names, depth: depth - 1) }
        case .isNull(let e), .arraySize(let e, _):
            e.collectVariableNames(into: &names, depth: depth - 1)
        case .quantified(_, let coll, let v, let body):
            names.insert(v)
            coll.collectVariableNames(into: &names, depth: depth - 1)
            body.collectVariableNames(into: &names, depth: depth - 1)
        case .inQuery(_, let q), .select(_, let q, _):
            q.predicate.collectVariableNames(into: &names, depth: depth - 1)
        case .geo, .relatedTo, .text:
            return
        }
    }
}

extension Expr {
    func collectVariableNames(into names: inout Set<String>, depth: Int) {
        guard depth > 0 else { return }
        switch self {
        case .literal, .key, .evaluatedObject: return
        case .variable(let v): names.insert(v)
        case .member(let e, _), .negate(let e), .aggregate(_, let e), .cast(let e, _):
            e.collectVariableNames(into: &names, depth: depth - 1)
        case .list(let items), .function(_, let items):
            for i in items { i.collectVariableNames(into: &names, depth: depth - 1) }
        case .arithmetic(_, let l, let r):
            l.collectVariableNames(into: &names, depth: depth - 1)
            r.collectVariableNames(into: &names, depth: depth - 1)
        case .index(let e, let spec):
            e.collectVariableNames(into: &names, depth: depth - 1)
            if case .at(let i) = spec { i.collectVariableNames(into: &names, depth: depth - 1) }
        case .subquery(let coll, let v, let p):
            names.insert(v)
            coll.collectVariableNames(into: &names, depth: depth - 1)
            p.collectVariableNames(into: &names, depth: depth - 1)
        }
    }
}
