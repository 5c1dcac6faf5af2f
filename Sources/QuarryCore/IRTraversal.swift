// Read-only walks over the IR, built on `mapChildren` (IRNode.swift).

/// Where a visited node sits.
package struct IRContext: Sendable {
    /// Levels below the node the walk started from. A leaf and its condition are one level,
    /// as the front-ends' nesting limits count them; every other step is one level down.
    package var depth = 0
    /// The variables the quantifiers and SUBQUERYs around the node bind. An inner query sees
    /// none of those around it: it runs once per run, not once per object or element.
    package var bound: Set<String> = []
}

extension IRNode {
    /// The direct children, in source order; inner queries only with `innerQueries`.
    package func children(innerQueries: Bool) -> [IRNode] {
        var collector = ChildCollector(innerQueries: innerQueries)
        _ = mapChildren(&collector)
        return collector.children
    }

    /// Visits this node and every node below it, each node before its children and children in
    /// source order. `visit` returns whether to go on below the node it was given. Inner
    /// queries are visited only with `innerQueries`.
    package func forEach(innerQueries: Bool, _ visit: (IRNode, IRContext) -> Bool) {
        walk(innerQueries: innerQueries, visit)
    }

    /// `forEach` with a visit that may fail: the walk stops at the first error, which it throws.
    /// Not generic over the error: planning walks every query, and a generic walk instantiated
    /// its metadata at run time on each call.
    package func forEach(
        innerQueries: Bool, _ visit: (IRNode, IRContext) throws(Diagnostic) -> Bool
    ) throws(Diagnostic) {
        var failure: Diagnostic?
        walk(innerQueries: innerQueries) { node, context in
            guard failure == nil else { return false }
            do throws(Diagnostic) {
                return try visit(node, context)
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
    }

    /// The walk itself, not generic, so that it is specialized here with `mapChildren`: each
    /// level down then takes little stack.
    private func walk(innerQueries: Bool, _ visit: (IRNode, IRContext) -> Bool) {
        withoutActuallyEscaping(visit) { visit in
            var walker = Walker(innerQueries: innerQueries, visit: visit)
            walker.walk(self)
        }
    }

    /// Whether some node at or below this one passes `test` (inner queries only with
    /// `innerQueries`); the walk stops going down once one does.
    package func contains(innerQueries: Bool, where test: (IRNode, IRContext) -> Bool) -> Bool {
        var found = false
        forEach(innerQueries: innerQueries) { node, context in
            if !found { found = test(node, context) }
            return !found
        }
        return found
    }
}

/// Lists the children `mapChildren` hands over, leaving them as they are.
private struct ChildCollector: IRChildTransform {
    static var readsOnly: Bool { true }
    let innerQueries: Bool
    var children: [IRNode] = []

    mutating func filter(_ child: Filter, binding: String?) -> Filter {
        children.append(.filter(child))
        return child
    }

    mutating func leaf(_ child: Leaf) -> Leaf {
        children.append(.leaf(child))
        return child
    }

    mutating func condition(_ child: Condition) -> Condition {
        children.append(.condition(child))
        return child
    }

    mutating func expr(_ child: Expr) -> Expr {
        children.append(.expr(child))
        return child
    }

    mutating func query(_ child: Query) -> Query {
        if innerQueries { children.append(.query(child)) }
        return child
    }
}

/// Walks by asking `mapChildren` for each node's children and discarding the rebuilt node.
private struct Walker: IRChildTransform {
    static var readsOnly: Bool { true }
    let innerQueries: Bool
    let visit: (IRNode, IRContext) -> Bool
    var context = IRContext()

    mutating func walk(_ node: IRNode) {
        guard visit(node, context) else { return }
        _ = node.mapChildren(&self)
    }

    private mutating func enter(_ node: IRNode, levels: Int = 1, binding: String? = nil) {
        context.depth += levels
        defer { context.depth -= levels }
        guard let binding, context.bound.insert(binding).inserted else { return walk(node) }
        defer { context.bound.remove(binding) }
        walk(node)
    }

    mutating func filter(_ child: Filter, binding: String?) -> Filter {
        enter(.filter(child), binding: binding)
        return child
    }

    mutating func leaf(_ child: Leaf) -> Leaf {
        enter(.leaf(child))
        return child
    }

    mutating func condition(_ child: Condition) -> Condition {
        enter(.condition(child), levels: 0)
        return child
    }

    mutating func expr(_ child: Expr) -> Expr {
        enter(.expr(child))
        return child
    }

    mutating func query(_ child: Query) -> Query {
        guard innerQueries else { return child }
        let saved = context.bound
        context.bound = []
        defer { context.bound = saved }
        enter(.query(child))
        return child
    }
}
