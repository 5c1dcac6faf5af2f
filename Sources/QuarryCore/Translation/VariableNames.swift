// Every variable name a predicate binds or reads, so that a conversion's own quantifier
// variables never shadow one of them.

extension Predicate {
    func collectVariableNames(into names: inout Set<String>) {
        switch self {
        case .constant: return
        case .and(let ps), .or(let ps): for p in ps { p.collectVariableNames(into: &names) }
        case .not(let p): p.collectVariableNames(into: &names)
        case .leaf(let l): l.condition.collectVariableNames(into: &names)
        }
    }
}

extension Condition {
    func collectVariableNames(into names: inout Set<String>) {
        switch self {
        case .compare(let l, _, let r, _), .inCollection(let l, let r, _), .string(let l, _, let r, _),
            .containsAll(let l, let r), .containedBy(let l, let r):
            l.collectVariableNames(into: &names)
            r.collectVariableNames(into: &names)
        case .between(let e, let lo, let hi):
            for x in [e, lo, hi] { x.collectVariableNames(into: &names) }
        case .isNull(let e), .arraySize(let e, _):
            e.collectVariableNames(into: &names)
        case .quantified(_, let coll, let v, let body):
            names.insert(v)
            coll.collectVariableNames(into: &names)
            body.collectVariableNames(into: &names)
        case .inQuery(_, let q), .select(_, let q, _):
            q.predicate.collectVariableNames(into: &names)
        case .geo, .relatedTo, .text:
            return
        }
    }
}

extension Expr {
    func collectVariableNames(into names: inout Set<String>) {
        switch self {
        case .literal, .key, .evaluatedObject: return
        case .variable(let v): names.insert(v)
        case .member(let e, _), .negate(let e), .aggregate(_, let e), .cast(let e, _):
            e.collectVariableNames(into: &names)
        case .list(let items), .function(_, let items):
            for i in items { i.collectVariableNames(into: &names) }
        case .arithmetic(_, let l, let r):
            l.collectVariableNames(into: &names)
            r.collectVariableNames(into: &names)
        case .index(let e, let spec):
            e.collectVariableNames(into: &names)
            if case .at(let i) = spec { i.collectVariableNames(into: &names) }
        case .subquery(let coll, let v, let p):
            names.insert(v)
            coll.collectVariableNames(into: &names)
            p.collectVariableNames(into: &names)
        }
    }
}
