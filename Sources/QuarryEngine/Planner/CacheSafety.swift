import QuarryCore

/// Whether a query may share a cached plan with every query that compares equal to it.
///
/// `Query` equality and hashing go through Swift's `String`, which compares by canonical
/// equivalence: a class, key or pattern written with `é` precomposed equals one written with
/// `e` + U+0301, although they name different fields and match different strings. Queries
/// whose strings are all ASCII cannot be confused that way; the others are planned afresh.
enum CacheSafety {
    static func isCacheable(_ q: Query) -> Bool {
        ascii(q.className) && q.order.allSatisfy(ascii) && ascii(q.predicate)
    }

    private static func ascii(_ s: String) -> Bool { s.utf8.allSatisfy { $0 < 0x80 } }
    private static func ascii(_ k: KeyPath) -> Bool { k.components.allSatisfy(ascii) }

    private static func ascii(_ k: SortKey) -> Bool {
        switch k {
        case .key(let p, _), .distance(let p, _, _): return ascii(p)
        }
    }

    private static func ascii(_ p: Predicate) -> Bool {
        switch p {
        case .constant: return true
        case .and(let ps), .or(let ps): return ps.allSatisfy(ascii)
        case .not(let q): return ascii(q)
        case .leaf(let l): return ascii(l.condition)
        }
    }

    private static func ascii(_ c: Condition) -> Bool {
        switch c {
        case .compare(let a, _, let b, _), .inCollection(let a, let b, _), .containsAll(let a, let b),
            .containedBy(let a, let b):
            return ascii(a) && ascii(b)
        case .string(let a, let op, let b, _):
            if case .like(.sql(let escape?)) = op, !ascii(String(escape)) { return false }
            return ascii(a) && ascii(b)
        case .between(let a, let b, let d): return ascii(a) && ascii(b) && ascii(d)
        case .isNull(let e), .arraySize(let e, _): return ascii(e)
        case .quantified(_, let e, let v, let p): return ascii(e) && ascii(v) && ascii(p)
        case .geo(let g): return ascii(g.key)
        case .inQuery(let k, let q): return ascii(k) && isCacheable(q)
        case .select(let k, let q, let inner): return ascii(k) && ascii(inner) && isCacheable(q)
        case .relatedTo(let p, let key): return ascii(p.className) && ascii(p.objectId) && ascii(key)
        case .text(let k, let s): return ascii(k) && ascii(s.terms) && ascii(s.language ?? "")
        }
    }

    private static func ascii(_ e: Expr) -> Bool {
        switch e {
        case .literal(let v): return ascii(v)
        case .key(let k): return ascii(k)
        case .variable(let n): return ascii(n)
        case .evaluatedObject: return true
        case .member(let x, let k): return ascii(x) && ascii(k)
        case .list(let items): return items.allSatisfy(ascii)
        case .arithmetic(_, let l, let r): return ascii(l) && ascii(r)
        case .negate(let x), .aggregate(_, let x), .cast(let x, _): return ascii(x)
        case .function(_, let args): return args.allSatisfy(ascii)
        case .index(let x, let spec):
            if case .at(let i) = spec, !ascii(i) { return false }
            return ascii(x)
        case .subquery(let coll, let v, let p): return ascii(coll) && ascii(v) && ascii(p)
        }
    }

    private static func ascii(_ v: Value) -> Bool {
        switch v {
        case .string(let s): return ascii(s)
        case .pointer(let p): return ascii(p.className) && ascii(p.objectId)
        case .relation(let c, let ids): return ascii(c) && ids.allSatisfy(ascii)
        case .file(let f): return ascii(f.name) && ascii(f.url ?? "")
        case .array(let items): return items.allSatisfy(ascii)
        case .object(let fields): return fields.allSatisfy { ascii($0.key) && ascii($0.value) }
        default: return true
        }
    }
}
