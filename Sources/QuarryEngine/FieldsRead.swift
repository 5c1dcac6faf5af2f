import QuarryCore

/// The fields of the evaluated object a predicate reads: the first step of each key path it
/// holds (quantifiers and SUBQUERY included: their keys start at the object too), plus the
/// objectId. The reference fallback builds a record with only these from the columns. Nil
/// when the predicate reads the whole object (SELF).
enum FieldsRead {
    static func of(_ p: Filter) -> Set<String>? {
        var fields: Set<String> = []
        return visit(p, &fields) ? fields : nil
    }

    /// False when the whole object is read.
    private static func visit(_ p: Filter, _ fields: inout Set<String>) -> Bool {
        switch p {
        case .constant: return true
        case .and(let ps), .or(let ps): return ps.allSatisfy { visit($0, &fields) }
        case .not(let q): return visit(q, &fields)
        case .leaf(let leaf): return visit(leaf.condition, &fields)
        }
    }

    private static func visit(_ c: Condition, _ fields: inout Set<String>) -> Bool {
        switch c {
        case .compare(let l, _, let r, _), .inCollection(let l, let r, _), .string(let l, _, let r, _),
            .containsAll(let l, let r), .containedBy(let l, let r):
            return visit(l, &fields) && visit(r, &fields)
        case .between(let e, let lower, let upper):
            return visit(e, &fields) && visit(lower, &fields) && visit(upper, &fields)
        case .isNull(let e), .arraySize(let e, _):
            return visit(e, &fields)
        case .quantified(_, let collection, _, let p):
            return visit(collection, &fields) && visit(p, &fields)
        case .geo(let g):
            fields.insert(g.key.first)
        case .inQuery(let key, _), .select(let key, _, _), .text(let key, _):
            fields.insert(key.first)
        case .relatedTo:
            break
        }
        return true
    }

    private static func visit(_ e: Expr, _ fields: inout Set<String>) -> Bool {
        switch e {
        case .literal, .variable: return true
        case .evaluatedObject: return false
        case .key(let path):
            fields.insert(path.first)
            return true
        case .member(let base, _), .negate(let base), .aggregate(_, let base), .cast(let base, _):
            return visit(base, &fields)
        case .list(let items), .function(_, let items):
            return items.allSatisfy { visit($0, &fields) }
        case .arithmetic(_, let l, let r):
            return visit(l, &fields) && visit(r, &fields)
        case .index(let base, let spec):
            guard case .at(let position) = spec else { return visit(base, &fields) }
            return visit(base, &fields) && visit(position, &fields)
        case .subquery(let collection, _, let p):
            return visit(collection, &fields) && visit(p, &fields)
        }
    }
}
