extension Filter {
    /// Every variable name the filter binds (quantifiers, SUBQUERY) or reads, also inside inner
    /// queries, whose variables the same run binds: fresh names chosen outside this set never
    /// shadow or capture one of them.
    ///
    /// The walk goes no deeper than `maxDepth` levels (as `IRContext.depth` counts them), so
    /// that a caller that reports IR nested deeper than its limit does not overflow the stack
    /// first.
    package func variableNames(maxDepth: Int = .max) -> Set<String> {
        var names = Set<String>()
        IRNode.filter(self).forEach(innerQueries: true) { node, context in
            guard context.depth < maxDepth else { return false }
            switch node {
            case .expr(.variable(let name)), .condition(.quantified(_, _, let name, _)),
                .expr(.subquery(_, let name, _)):
                names.insert(name)
            default:
                break
            }
            return true
        }
        return names
    }
}
