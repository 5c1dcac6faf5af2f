import QuarryCore

extension Expr {
    /// Whether `$v` occurs free: not in the body of a quantifier or SUBQUERY binding the same
    /// name, nor in an inner query (which sees only the run's variables).
    func mentions(_ v: String) -> Bool {
        IRNode.expr(self).contains(innerQueries: false) { node, context in
            guard case .expr(.variable(let name)) = node else { return false }
            return name == v && !context.bound.contains(v)
        }
    }
}

/// A bound value as an expression: arrays become literal aggregates, as if written `{…}`.
func expression(for v: Value) -> Expr {
    if case .array(let items) = v { return .list(items.map(expression(for:))) }
    return .literal(v)
}
