import QuarryCore

/// A query with its scalar literals taken out: the key plans are cached under, and the
/// literals in the order they appear. Two queries of one shape differ only in the values of
/// their scalar literals (each keeping its type), so they validate alike, resolve the same
/// keys and columns, and share everything a plan learns without reading a literal.
///
/// Parameters are the scalar literals of the predicate (numbers, strings, dates, booleans,
/// pointers), also inside IN lists; nulls, arrays, objects, geo conditions, inner queries,
/// order and page stay in the shape as they are.
///
/// `Query` equality goes through Swift's `String`, which compares by canonical equivalence: a
/// key written with `é` precomposed equals one written with `e` + U+0301 although they name
/// different fields, and U+037E equals `;`. So a shape is made only when every string it keeps
/// is ASCII, and literal strings are compared byte by byte.
struct PlanShape: Hashable {
    /// The query with each parameter replaced by a placeholder of its type.
    let skeleton: Query
    private let hash: Int

    /// The shape and the literals of a query; nil when the query may not share plans.
    static func of(_ query: Query) -> (PlanShape, [Value])? {
        var builder = Builder()
        let predicate = builder.predicate(query.predicate)
        guard builder.cacheable, Builder.ascii(query.className), query.order.allSatisfy(Builder.ascii),
            (query.keys ?? []).allSatisfy(Builder.ascii), query.excludeKeys.allSatisfy(Builder.ascii),
            query.includes.allSatisfy(Builder.ascii)
        else { return nil }
        var skeleton = query
        skeleton.predicate = predicate
        return (PlanShape(skeleton: skeleton), builder.literals)
    }

    /// A leaf with its parameters replaced by placeholders; nil when it keeps a non-ASCII string.
    static func skeleton(of leaf: Leaf) -> Leaf? {
        var builder = Builder()
        var l = leaf
        l.condition = builder.condition(leaf.condition)
        return builder.cacheable ? l : nil
    }

    private init(skeleton: Query) {
        self.skeleton = skeleton
        hash = skeleton.hashValue
    }

    func hash(into h: inout Hasher) { h.combine(hash) }
    static func == (a: PlanShape, b: PlanShape) -> Bool { a.hash == b.hash && a.skeleton == b.skeleton }

    /// The same literals, bit for bit (strings by their bytes, doubles by their bits).
    static func sameLiterals(_ a: [Value], _ b: [Value]) -> Bool {
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) {
            switch (x, y) {
            case (.string(let s), .string(let t)): if !s.utf8.elementsEqual(t.utf8) { return false }
            case (.double(let d), .double(let e)): if d.bitPattern != e.bitPattern { return false }
            case (.pointer(let p), .pointer(let q)): if !p.objectId.utf8.elementsEqual(q.objectId.utf8) { return false }
            default: if x != y { return false }
            }
        }
        return true
    }

    /// One pass over the predicate: placeholders in, literals out, every kept string checked.
    private struct Builder {
        var literals: [Value] = []
        var cacheable = true

        static func ascii(_ s: String) -> Bool { s.utf8.allSatisfy { $0 < 0x80 } }
        static func ascii(_ k: FieldPath) -> Bool { k.components.allSatisfy(ascii) }
        static func ascii(_ k: SortKey) -> Bool {
            switch k {
            case .key(let p, _), .distance(let p, _, _): return ascii(p)
            }
        }

        mutating func check(_ ok: Bool) { if !ok { cacheable = false } }
        mutating func check(_ k: FieldPath) { check(Self.ascii(k)) }

        mutating func predicate(_ p: Filter) -> Filter {
            switch p {
            case .constant: return p
            case .and(let ps): return .and(ps.map { predicate($0) })
            case .or(let ps): return .or(ps.map { predicate($0) })
            case .not(let q): return .not(predicate(q))
            case .leaf(var l):
                l.condition = condition(l.condition)
                return .leaf(l)
            }
        }

        mutating func condition(_ c: Condition) -> Condition {
            switch c {
            case .compare(let a, let op, let b, let o): return .compare(expr(a), op, expr(b), o)
            case .between(let e, let lo, let hi): return .between(expr(e), lower: expr(lo), upper: expr(hi))
            case .inCollection(let a, let b, let o): return .inCollection(expr(a), expr(b), o)
            case .isNull(let e): return .isNull(expr(e))
            case .string(let a, let op, let b, let o):
                if case .like(.sql(let escape?)) = op { check(Self.ascii(String(escape))) }
                return .string(expr(a), op, expr(b), o)
            case .containsAll(let a, let b): return .containsAll(expr(a), expr(b))
            case .containedBy(let a, let b): return .containedBy(expr(a), expr(b))
            case .arraySize(let e, let n): return .arraySize(expr(e), n)
            case .quantified(let q, let coll, let v, let p):
                check(Self.ascii(v))
                return .quantified(q, expr(coll), variable: v, predicate(p))
            case .geo(let g):
                check(g.key)
                return c
            case .inQuery(let k, let q):
                check(k)
                check(PlanShape.of(q) != nil)
                return c
            case .select(let k, let q, let inner):
                check(k)
                check(inner)
                check(PlanShape.of(q) != nil)
                return c
            case .relatedTo(let p, let key):
                check(Self.ascii(p.className) && Self.ascii(p.objectId) && Self.ascii(key))
                return c
            case .text(let k, let s):
                check(k)
                check(Self.ascii(s.terms) && Self.ascii(s.language ?? ""))
                return c
            }
        }

        mutating func expr(_ e: Expr) -> Expr {
            switch e {
            case .literal(let v):
                guard let placeholder = Self.placeholder(v) else {
                    check(Self.ascii(v))
                    return e
                }
                literals.append(v)
                return .literal(placeholder)
            case .key(let k):
                check(k)
                return e
            case .variable(let n):
                check(Self.ascii(n))
                return e
            case .evaluatedObject: return e
            case .member(let x, let k):
                check(k)
                return .member(expr(x), k)
            case .list(let items): return .list(items.map { expr($0) })
            case .arithmetic(let op, let l, let r): return .arithmetic(op, expr(l), expr(r))
            case .negate(let x): return .negate(expr(x))
            case .aggregate(let op, let x): return .aggregate(op, expr(x))
            case .cast(let x, let t): return .cast(expr(x), t)
            case .function(let f, let args): return .function(f, args.map { expr($0) })
            case .index(let x, let spec):
                if case .at(let i) = spec { return .index(expr(x), .at(expr(i))) }
                return .index(expr(x), spec)
            case .subquery(let coll, let v, let p):
                check(Self.ascii(v))
                return .subquery(expr(coll), variable: v, predicate(p))
            }
        }

        /// The stand-in for a parameter of this type; nil for values that stay in the shape.
        static func placeholder(_ v: Value) -> Value? {
            switch v {
            case .int: return .int(0)
            // Not 0: `Value ==` equates numbers across int and double, shapes must not.
            case .double: return .double(0.5)
            case .string: return .string("")
            case .date: return .date(0)
            case .bool: return .bool(false)
            case .pointer(let p): return ascii(p.className) ? .pointer(Pointer(className: p.className, objectId: "")) : nil
            default: return nil
            }
        }

        static func ascii(_ v: Value) -> Bool {
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
}
