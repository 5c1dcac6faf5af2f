// The one place that knows which children each IR case holds (as DuckDB's ExpressionIterator
// does for its expressions). Every pass that walks the IR goes through `mapChildren` here, or
// through `forEach` / `contains` / `children` built on it, so a new IR case is added here once.

/// A node of the IR as a traversal hands it over.
package enum IRNode: Hashable, Sendable {
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
package protocol IRChildTransform {
    associatedtype Failure: Error = Never
    /// `binding` is the variable a quantifier or SUBQUERY binds in this body (nil elsewhere).
    mutating func filter(_ child: Filter, binding: String?) throws(Failure) -> Filter
    mutating func leaf(_ child: Leaf) throws(Failure) -> Leaf
    mutating func condition(_ child: Condition) throws(Failure) -> Condition
    mutating func expr(_ child: Expr) throws(Failure) -> Expr
    mutating func query(_ child: Query) throws(Failure) -> Query
}

extension IRChildTransform {
    package mutating func filter(_ child: Filter, binding: String?) throws(Failure) -> Filter {
        try child.mapChildren(&self)
    }
    package mutating func leaf(_ child: Leaf) throws(Failure) -> Leaf { try child.mapChildren(&self) }
    package mutating func condition(_ child: Condition) throws(Failure) -> Condition {
        try child.mapChildren(&self)
    }
    package mutating func expr(_ child: Expr) throws(Failure) -> Expr { try child.mapChildren(&self) }
}

extension Filter {
    package func mapChildren<T: IRChildTransform>(_ t: inout T) throws(T.Failure) -> Filter {
        switch self {
        case .constant: return self
        case .and(let fs): return .and(try Self.map(fs, &t))
        case .or(let fs): return .or(try Self.map(fs, &t))
        case .not(let f): return .not(try t.filter(f, binding: nil))
        case .leaf(let l): return .leaf(try t.leaf(l))
        }
    }

    private static func map<T: IRChildTransform>(_ fs: [Filter], _ t: inout T) throws(T.Failure) -> [Filter] {
        var out: [Filter] = []
        out.reserveCapacity(fs.count)
        for f in fs { out.append(try t.filter(f, binding: nil)) }
        return out
    }
}

extension Leaf {
    package func mapChildren<T: IRChildTransform>(_ t: inout T) throws(T.Failure) -> Leaf {
        var l = self
        l.condition = try t.condition(condition)
        return l
    }
}

extension Condition {
    package func mapChildren<T: IRChildTransform>(_ t: inout T) throws(T.Failure) -> Condition {
        switch self {
        case .compare(let a, let op, let b, let o): return .compare(try t.expr(a), op, try t.expr(b), o)
        case .between(let e, let lo, let hi):
            return .between(try t.expr(e), lower: try t.expr(lo), upper: try t.expr(hi))
        case .inCollection(let e, let c, let o): return .inCollection(try t.expr(e), try t.expr(c), o)
        case .isNull(let e): return .isNull(try t.expr(e))
        case .string(let a, let op, let b, let o): return .string(try t.expr(a), op, try t.expr(b), o)
        case .containsAll(let a, let b): return .containsAll(try t.expr(a), try t.expr(b))
        case .containedBy(let a, let b): return .containedBy(try t.expr(a), try t.expr(b))
        case .arraySize(let e, let n): return .arraySize(try t.expr(e), n)
        case .quantified(let q, let c, let v, let body):
            return .quantified(q, try t.expr(c), variable: v, try t.filter(body, binding: v))
        case .inQuery(let k, let q): return .inQuery(k, try t.query(q))
        case .select(let k, let q, let innerKey): return .select(k, try t.query(q), innerKey: innerKey)
        case .geo, .relatedTo, .text: return self
        }
    }
}

extension Expr {
    package func mapChildren<T: IRChildTransform>(_ t: inout T) throws(T.Failure) -> Expr {
        switch self {
        case .literal, .key, .variable, .evaluatedObject: return self
        case .member(let e, let path): return .member(try t.expr(e), path)
        case .list(let es): return .list(try Self.map(es, &t))
        case .arithmetic(let op, let a, let b): return .arithmetic(op, try t.expr(a), try t.expr(b))
        case .negate(let e): return .negate(try t.expr(e))
        case .function(let f, let args): return .function(f, try Self.map(args, &t))
        case .aggregate(let op, let e): return .aggregate(op, try t.expr(e))
        case .index(let e, let spec):
            let base = try t.expr(e)
            guard case .at(let i) = spec else { return .index(base, spec) }
            return .index(base, .at(try t.expr(i)))
        case .subquery(let c, let v, let body):
            return .subquery(try t.expr(c), variable: v, try t.filter(body, binding: v))
        case .cast(let e, let type): return .cast(try t.expr(e), type)
        }
    }

    private static func map<T: IRChildTransform>(_ es: [Expr], _ t: inout T) throws(T.Failure) -> [Expr] {
        var out: [Expr] = []
        out.reserveCapacity(es.count)
        for e in es { out.append(try t.expr(e)) }
        return out
    }
}

extension Query {
    /// The query with its predicate transformed; order, page and projection hold no IR nodes.
    package func mapChildren<T: IRChildTransform>(_ t: inout T) throws(T.Failure) -> Query {
        var q = self
        q.predicate = try t.filter(predicate, binding: nil)
        return q
    }
}

extension IRNode {
    package func mapChildren<T: IRChildTransform>(_ t: inout T) throws(T.Failure) -> IRNode {
        switch self {
        case .filter(let f): return .filter(try f.mapChildren(&t))
        case .leaf(let l): return .leaf(try l.mapChildren(&t))
        case .condition(let c): return .condition(try c.mapChildren(&t))
        case .expr(let e): return .expr(try e.mapChildren(&t))
        case .query(let q): return .query(try q.mapChildren(&t))
        }
    }
}
