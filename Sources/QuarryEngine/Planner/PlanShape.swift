import QuarryCore

/// A query with its scalar literals taken out: the key plans are cached under, and the
/// literals in the order they appear. Two queries of one shape differ only in the values of
/// their scalar literals (each keeping its type), so they validate alike, resolve the same
/// keys and columns, and share everything a plan learns without reading a literal.
///
/// Parameters are the scalar literals of the predicate (numbers, strings, dates, booleans,
/// pointers), also inside IN lists, and the coordinates, distances and rings of geo conditions,
/// then the center of each distance in the order; nulls, arrays, objects, inner queries, the
/// order's keys and the page stay in the shape as they are.
///
/// `Query` equality goes through Swift's `String`, which compares by canonical equivalence: a
/// key written with `é` precomposed equals one written with `e` + U+0301 although they name
/// different fields, and U+037E equals `;`. So a shape is made only when every string it keeps
/// is ASCII, and literal strings are compared byte by byte.
struct PlanShape: Hashable {
    /// The skeleton behind one reference: a shape is copied into and out of the cache on every
    /// lookup, and a `Query` copies field by field.
    private final class Box: Sendable {
        let skeleton: Query
        let hash: Int
        init(_ skeleton: Query) {
            self.skeleton = skeleton
            hash = skeleton.hashValue
        }
    }
    private let box: Box

    /// The query with each parameter replaced by a placeholder of its type.
    var skeleton: Query { box.skeleton }

    /// The shape and the literals of a query; nil when the query may not share plans.
    static func of(_ query: Query) -> (PlanShape, [Value])? {
        var builder = Builder()
        // Room for a few literals at once: grown one by one, four reallocated three times.
        builder.literals.reserveCapacity(8)
        let predicate = builder.filter(query.predicate, binding: nil)
        guard builder.cacheable, Builder.ascii(query.className), query.order.allSatisfy(Builder.ascii),
            (query.keys ?? []).allSatisfy(Builder.ascii), query.excludeKeys.allSatisfy(Builder.ascii),
            query.includes.allSatisfy(Builder.ascii)
        else { return nil }
        var skeleton = query
        skeleton.predicate = predicate
        var literals = builder.literals
        // A distance order's center is a parameter too: a run sorts by its own query's order.
        if query.order.contains(where: Self.isDistance) {
            skeleton.order = query.order.map { key in
                guard case .distance(let path, let center, let direction) = key else { return key }
                literals += [.double(center.latitude), .double(center.longitude)]
                return .distance(path, from: GeoPoint(latitude: 0, longitude: 0), direction)
            }
        }
        return (PlanShape(skeleton: skeleton), literals)
    }

    /// How many of a query's literals in `of` order are its order's (they come last).
    static func orderLiteralCount(_ order: [SortKey]) -> Int {
        order.reduce(0) { $0 + (isDistance($1) ? 2 : 0) }
    }

    private static func isDistance(_ key: SortKey) -> Bool {
        if case .distance = key { return true }
        return false
    }

    /// The parameters of a predicate, in the order `of` lists a query's (read without
    /// rebuilding the predicate).
    static func literals(of predicate: Filter) -> [Value] {
        var collector = LiteralCollector(collects: true)
        collector.literals.reserveCapacity(8)
        _ = collector.filter(predicate, binding: nil)
        return collector.literals
    }

    private init(skeleton: Query) { box = Box(skeleton) }

    func hash(into h: inout Hasher) { h.combine(box.hash) }
    /// The same shape object (which `==` finds without comparing skeletons).
    static func identical(_ a: PlanShape, _ b: PlanShape) -> Bool { a.box === b.box }

    /// The same shape: the same box (a cached entry's own key), or equal skeletons.
    static func == (a: PlanShape, b: PlanShape) -> Bool {
        a.box === b.box || (a.box.hash == b.box.hash && a.box.skeleton == b.box.skeleton)
    }

    /// The same literals, bit for bit (strings by their bytes, doubles by their bits).
    static func sameLiterals(_ a: [Value], _ b: [Value]) -> Bool {
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) where !sameLiteral(x, y) { return false }
        return true
    }

    static func sameLiteral(_ x: Value, _ y: Value) -> Bool {
        switch (x, y) {
        case (.string(let s), .string(let t)): return String.sameUTF8(s, t)
        case (.double(let d), .double(let e)): return d.bitPattern == e.bitPattern
        case (.pointer(let p), .pointer(let q)): return String.sameUTF8(p.objectId, q.objectId)
        case (.polygon(let p), .polygon(let q)):
            return p.count == q.count
                && zip(p, q).allSatisfy {
                    $0.latitude.bitPattern == $1.latitude.bitPattern
                        && $0.longitude.bitPattern == $1.longitude.bitPattern
                }
        default: return x == y
        }
    }

    /// How many literals `Builder` takes out of a leaf (its parameters), counted without
    /// rebuilding the leaf.
    static func literalCount(of l: Leaf) -> Int {
        var counter = LiteralCollector(collects: false)
        _ = counter.leaf(l)
        return counter.count
    }

    /// The literals `Builder` takes out, counted (and with `collects`, listed) in its order.
    private struct LiteralCollector: IRChildTransform {
        static var readsOnly: Bool { true }
        let collects: Bool
        var count = 0
        var literals: [Value] = []

        mutating func expr(_ e: Expr) -> Expr {
            guard case .literal(let v) = e else { return e.mapChildren(&self) }
            if Builder.placeholder(v) != nil {
                count += 1
                if collects { literals.append(v) }
            }
            return e
        }

        mutating func condition(_ c: Condition) -> Condition {
            if case .geo(let g) = c {
                count += g.parameterCount
                if collects { literals += g.parameters }
            }
            return c.mapChildren(&self)
        }

        /// Inner queries stay in the shape as they are (`Builder.query`).
        mutating func query(_ q: Query) -> Query { q }
    }

    /// One pass over the predicate: placeholders in, literals out, every kept string checked.
    struct Builder: IRChildTransform {
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

        mutating func filter(_ f: Filter, binding: String?) -> Filter {
            if let binding { check(Self.ascii(binding)) }
            return f.mapChildren(&self)
        }

        mutating func condition(_ c: Condition) -> Condition {
            switch c {
            case .string(_, .like(.sql(let escape?)), _, _): check(Self.ascii(String(escape)))
            case .geo(let g):
                // Its coordinates, distance and ring are parameters too (docs/ARCHITECTURE.md#plan-parameters).
                check(g.key)
                literals += g.parameters
                return .geo(g.withPlaceholders)
            case .inQuery(let k, _): check(k)
            case .select(let k, _, let inner):
                check(k)
                check(inner)
            case .relatedTo(let p, let key): check(Self.ascii(p.className) && Self.ascii(p.objectId) && Self.ascii(key))
            case .text(let k, let s):
                check(k)
                check(Self.ascii(s.terms) && Self.ascii(s.language ?? ""))
            default: break
            }
            return c.mapChildren(&self)
        }

        /// An inner query stays in the shape as it is: it must be one that may share plans.
        mutating func query(_ q: Query) -> Query {
            check(PlanShape.of(q) != nil)
            return q
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
            case .key(let k), .member(_, let k): check(k)
            case .variable(let n): check(Self.ascii(n))
            default: break
            }
            return e.mapChildren(&self)
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
            case .pointer(let p):
                return ascii(p.className) ? .pointer(Pointer(className: p.className, objectId: "")) : nil
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
