import QuarryCore

/// A dialect-neutral, one-line rendering of the IR for EXPLAIN: close to SQL where SQL has the
/// construct, with each leaf's semantics shown when it is not the query's usual one. It is
/// for people to read, not for parsing back.
enum PredicateText {
    static func render(_ p: Filter) -> String {
        switch p {
        case .constant(let b): return b ? "TRUE" : "FALSE"
        case .and(let ps): return ps.map { group($0) }.joined(separator: " AND ")
        case .or(let ps): return ps.map { group($0) }.joined(separator: " OR ")
        case .not(let q): return "NOT " + group(q)
        case .leaf(let l): return render(l)
        }
    }

    private static func group(_ p: Filter) -> String {
        switch p {
        case .and, .or: return "(" + render(p) + ")"
        default: return render(p)
        }
    }

    static func render(_ l: Leaf) -> String {
        let body = render(l.condition)
        let tag = "[\(l.semantics.rawValue)]"
        return l.negated ? "NOT(\(body)) \(tag)" : "\(body) \(tag)"
    }

    static func render(_ c: Condition) -> String {
        switch c {
        case .compare(let l, let op, let r, let o):
            return "\(render(l)) \(op.rawValue)\(options(o)) \(render(r))"
        case .between(let e, let lo, let hi):
            return "\(render(e)) BETWEEN \(render(lo)) AND \(render(hi))"
        case .inCollection(let e, let coll, let o):
            return "\(render(e)) IN\(options(o)) \(render(coll))"
        case .isNull(let e):
            return "\(render(e)) IS NULL"
        case .string(let e, let op, let pattern, let o):
            return "\(render(e)) \(name(op))\(options(o)) \(render(pattern))"
        case .containsAll(let e, let list):
            return "\(render(e)) CONTAINS ALL \(render(list))"
        case .containedBy(let e, let list):
            return "\(render(e)) CONTAINED BY \(render(list))"
        case .arraySize(let e, let n):
            return "SIZE(\(render(e))) = \(n)"
        case .quantified(let q, let coll, let v, let p):
            return "\(q.rawValue.uppercased()) $\(v) IN \(render(coll)): (\(render(p)))"
        case .geo(let g):
            return render(g)
        case .inQuery(let k, let q):
            return "\(k) IN QUERY \(q.className)"
        case .select(let k, let q, let innerKey):
            return "\(k) IN SELECT \(innerKey) FROM \(q.className)"
        case .relatedTo(let p, let key):
            return "RELATED TO \(p.className)(\(quote(p.objectId))).\(key)"
        case .text(let k, let s):
            return "\(k) TEXT \(quote(s.terms))"
        }
    }

    static func render(_ g: GeoCondition) -> String {
        switch g {
        case .near(let k, let p, let d):
            return "\(k) NEAR \(point(p))" + (d.map { " WITHIN \(distance($0))" } ?? "")
        case .withinBox(let k, let sw, let ne):
            return "\(k) WITHIN BOX \(point(sw)) \(point(ne))"
        case .withinPolygon(let k, let ps):
            return "\(k) WITHIN POLYGON [" + ps.map(point).joined(separator: ", ") + "]"
        case .withinCircle(let k, let c, let r):
            return "\(k) WITHIN CIRCLE \(point(c)) \(distance(r))"
        case .polygonContains(let k, let p):
            return "\(k) CONTAINS POINT \(point(p))"
        case .distance(let k, let from, let op, let d):
            return "distance(\(k), \(point(from))) \(op.rawValue) \(distance(d))"
        }
    }

    static func render(_ e: Expr) -> String {
        switch e {
        case .literal(let v): return render(v)
        case .key(let k): return k.description
        case .variable(let n): return "$" + n
        case .evaluatedObject: return "SELF"
        case .member(let base, let k): return "\(render(base)).\(k)"
        case .list(let items): return "(" + items.map(render).joined(separator: ", ") + ")"
        case .arithmetic(let op, let l, let r): return "(\(render(l)) \(op.rawValue) \(render(r)))"
        case .negate(let x): return "-" + render(x)
        case .function(let f, let args): return f.callName + "(" + args.map(render).joined(separator: ", ") + ")"
        case .aggregate(let op, let x): return "\(render(x)).\(op.rawValue)"
        case .index(let x, let spec):
            switch spec {
            case .first: return render(x) + "[FIRST]"
            case .last: return render(x) + "[LAST]"
            case .size: return render(x) + "[SIZE]"
            case .at(let i): return render(x) + "[" + render(i) + "]"
            }
        case .subquery(let coll, let v, let p): return "SUBQUERY(\(render(coll)), $\(v), \(render(p)))"
        case .cast(let x, let t): return "CAST(\(render(x)), '\(t.rawValue)')"
        }
    }

    static func render(_ v: Value) -> String {
        switch v {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .string(let s): return quote(s)
        case .date(let ms): return "date(\(ISODate.format(ms)))"
        case .bytes(let b): return "bytes(\(b.count))"
        case .geoPoint(let p): return point(p)
        case .polygon(let ps): return "polygon(" + ps.map(point).joined(separator: ", ") + ")"
        case .pointer(let p): return "\(p.className)(\(quote(p.objectId)))"
        case .relation(let c, let ids): return "relation \(c)(\(ids.count))"
        case .file(let f): return "file(\(quote(f.name)))"
        case .array(let items): return "[" + items.map(render).joined(separator: ", ") + "]"
        case .object(let fields):
            return "{" + fields.keys.sorted().map { "\(quote($0)): \(render(fields[$0]!))" }.joined(separator: ", ")
                + "}"
        }
    }

    static func quote(_ s: String) -> String { JSONText.quote(s) }

    private static func point(_ p: GeoPoint) -> String { "(\(p.latitude), \(p.longitude))" }
    private static func distance(_ d: Distance) -> String { "\(d.value)\(d.unit.rawValue)" }

    private static func options(_ o: StringOptions) -> String {
        var s = ""
        if o.contains(.caseInsensitive) { s += "c" }
        if o.contains(.diacriticInsensitive) { s += "d" }
        return s.isEmpty ? "" : "[\(s)]"
    }

    private static func name(_ op: StringOperator) -> String {
        switch op {
        case .beginsWith: return "BEGINSWITH"
        case .endsWith: return "ENDSWITH"
        case .contains: return "CONTAINS"
        case .like(.sql): return "LIKE"
        case .like(.glob): return "LIKE(glob)"
        case .matches(let o):
            return o.wholeString ? "MATCHES" : "REGEX" + (o.flags.letters.isEmpty ? "" : "/\(o.flags.letters)")
        }
    }
}
