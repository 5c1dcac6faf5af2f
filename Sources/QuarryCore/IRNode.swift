// The one place that knows which children each IR case holds (as DuckDB's ExpressionIterator
// does for its expressions). Every pass that walks the IR goes through `mapChildren` here, or
// through `forEach` / `contains` / `children` built on it, so a new IR case is added here once.
// Inlinable, so that a transform in another module is specialized as a hand-written walk is.

/// A node of the IR as a traversal hands it over.
@usableFromInline package enum IRNode: Hashable, Sendable {
    case filter(Filter)
    /// A leaf of a filter: its condition with its negation and semantics.
    case leaf(Leaf)
    case condition(Condition)
    case expr(Expr)
    /// An inner query (`inQuery`, `select`): a whole query of its own, run once per run.
    case query(Query)
}

/// Rewrites the direct children of one node, one method per kind of child; `mapChildren`
/// calls them in source order and rebuilds the node from what they return.
///
/// The defaults go on down the tree unchanged; `query` has none, so that every transform says
/// whether it enters inner queries.
@usableFromInline package protocol IRChildTransform {
    associatedtype Failure: Error = Never
    /// A transform that only looks returns every child unchanged: the node is then not rebuilt.
    static var readsOnly: Bool { get }
    /// `binding` is the variable a quantifier or SUBQUERY binds in this body (nil elsewhere).
    mutating func filter(_ child: Filter, binding: String?) throws(Failure) -> Filter
    mutating func leaf(_ child: Leaf) throws(Failure) -> Leaf
    mutating func condition(_ child: Condition) throws(Failure) -> Condition
    mutating func expr(_ child: Expr) throws(Failure) -> Expr
    mutating func query(_ child: Query) throws(Failure) -> Query
}

extension IRChildTransform {
    @inlinable package static var readsOnly: Bool { false }
    @inlinable package mutating func filter(_ child: Filter, binding: String?) throws(Failure) -> Filter {
        try child.mapChildren(&self)
    }
    @inlinable package mutating func leaf(_ child: Leaf) throws(Failure) -> Leaf { try child.mapChildren(&self) }
    @inlinable package mutating func condition(_ child: Condition) throws(Failure) -> Condition {
        try child.mapChildren(&self)
    }
    @inlinable package mutating func expr(_ child: Expr) throws(Failure) -> Expr { try child.mapChildren(&self) }

    /// The rebuilt node, or the node as it was when the transform only reads.
    @inlinable static func node<N>(_ original: N, _ rebuilt: @autoclosure () -> N) -> N {
        readsOnly ? original : rebuilt()
    }

    @inlinable mutating func map(_ fs: [Filter]) throws(Failure) -> [Filter] {
        guard !Self.readsOnly else {
            for f in fs { _ = try filter(f, binding: nil) }
            return fs
        }
        var out: [Filter] = []
        out.reserveCapacity(fs.count)
        for f in fs { out.append(try filter(f, binding: nil)) }
        return out
    }

    @inlinable mutating func map(_ es: [Expr]) throws(Failure) -> [Expr] {
        guard !Self.readsOnly else {
            for e in es { _ = try expr(e) }
            return es
        }
        var out: [Expr] = []
        out.reserveCapacity(es.count)
        for e in es { out.append(try expr(e)) }
        return out
    }
}

extension Filter {
    @inlinable package func mapChildren<T: IRChildTransform>(_ t: inout T) throws(T.Failure) -> Filter {
        switch self {
        case .constant: return self
        case .and(let fs):
            let m = try t.map(fs)
            return T.node(self, .and(m))
        case .or(let fs):
            let m = try t.map(fs)
            return T.node(self, .or(m))
        case .not(let f):
            let m = try t.filter(f, binding: nil)
            return T.node(self, .not(m))
        case .leaf(let l):
            let m = try t.leaf(l)
            return T.node(self, .leaf(m))
        }
    }
}

extension Leaf {
    @inlinable package func mapChildren<T: IRChildTransform>(_ t: inout T) throws(T.Failure) -> Leaf {
        var l = self
        l.condition = try t.condition(condition)
        return l
    }
}

extension Condition {
    @inlinable package func mapChildren<T: IRChildTransform>(_ t: inout T) throws(T.Failure) -> Condition {
        switch self {
        case .compare(let a, let op, let b, let o):
            let (x, y) = (try t.expr(a), try t.expr(b))
            return T.node(self, .compare(x, op, y, o))
        case .between(let e, let lo, let hi):
            let (x, l, h) = (try t.expr(e), try t.expr(lo), try t.expr(hi))
            return T.node(self, .between(x, lower: l, upper: h))
        case .inCollection(let e, let c, let o):
            let (x, y) = (try t.expr(e), try t.expr(c))
            return T.node(self, .inCollection(x, y, o))
        case .isNull(let e):
            let x = try t.expr(e)
            return T.node(self, .isNull(x))
        case .string(let a, let op, let b, let o):
            let (x, y) = (try t.expr(a), try t.expr(b))
            return T.node(self, .string(x, op, y, o))
        case .containsAll(let a, let b):
            let (x, y) = (try t.expr(a), try t.expr(b))
            return T.node(self, .containsAll(x, y))
        case .containedBy(let a, let b):
            let (x, y) = (try t.expr(a), try t.expr(b))
            return T.node(self, .containedBy(x, y))
        case .arraySize(let e, let n):
            let x = try t.expr(e)
            return T.node(self, .arraySize(x, n))
        case .quantified(let q, let c, let v, let body):
            let (x, p) = (try t.expr(c), try t.filter(body, binding: v))
            return T.node(self, .quantified(q, x, variable: v, p))
        case .inQuery(let k, let q):
            let m = try t.query(q)
            return T.node(self, .inQuery(k, m))
        case .select(let k, let q, let innerKey):
            let m = try t.query(q)
            return T.node(self, .select(k, m, innerKey: innerKey))
        case .geo, .relatedTo, .text: return self
        }
    }
}

extension Expr {
    /// The values of a `.list` of literals or of an array literal; nil if any element is
    /// computed (what the engine's and the stores' IN tests take as a constant list).
    package var literalValues: [Value]? {
        switch self {
        case .literal(.array(let items)): return items
        case .list(let items):
            var out: [Value] = []
            for item in items {
                guard case .literal(let v) = item else { return nil }
                out.append(v)
            }
            return out
        default: return nil
        }
    }
}

extension Expr {
    @inlinable package func mapChildren<T: IRChildTransform>(_ t: inout T) throws(T.Failure) -> Expr {
        switch self {
        case .literal, .key, .variable, .evaluatedObject: return self
        case .member(let e, let path):
            let x = try t.expr(e)
            return T.node(self, .member(x, path))
        case .list(let es):
            let m = try t.map(es)
            return T.node(self, .list(m))
        case .arithmetic(let op, let a, let b):
            let (x, y) = (try t.expr(a), try t.expr(b))
            return T.node(self, .arithmetic(op, x, y))
        case .negate(let e):
            let x = try t.expr(e)
            return T.node(self, .negate(x))
        case .function(let f, let args):
            let m = try t.map(args)
            return T.node(self, .function(f, m))
        case .aggregate(let op, let e):
            let x = try t.expr(e)
            return T.node(self, .aggregate(op, x))
        case .index(let e, let spec):
            let base = try t.expr(e)
            guard case .at(let i) = spec else { return T.node(self, .index(base, spec)) }
            let position = try t.expr(i)
            return T.node(self, .index(base, .at(position)))
        case .subquery(let c, let v, let body):
            let (x, p) = (try t.expr(c), try t.filter(body, binding: v))
            return T.node(self, .subquery(x, variable: v, p))
        case .cast(let e, let type):
            let x = try t.expr(e)
            return T.node(self, .cast(x, type))
        }
    }
}

extension Query {
    /// The query with its predicate transformed; order, page and projection hold no IR nodes.
    @inlinable package func mapChildren<T: IRChildTransform>(_ t: inout T) throws(T.Failure) -> Query {
        var q = self
        q.predicate = try t.filter(predicate, binding: nil)
        return q
    }
}

extension IRNode {
    @inlinable package func mapChildren<T: IRChildTransform>(_ t: inout T) throws(T.Failure) -> IRNode {
        switch self {
        case .filter(let f): return .filter(try f.mapChildren(&t))
        case .leaf(let l): return .leaf(try l.mapChildren(&t))
        case .condition(let c): return .condition(try c.mapChildren(&t))
        case .expr(let e): return .expr(try e.mapChildren(&t))
        case .query(let q): return .query(try q.mapChildren(&t))
        }
    }
}
