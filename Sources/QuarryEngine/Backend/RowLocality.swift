import QuarryCore

extension PushdownEvaluator {
    /// Whether `finish` reads nothing but the candidate rows for `query` and its `residual`: no
    /// pointer followed, no inner query scanned, no include embedded. A store may then answer
    /// the query from one statement's rows with no transaction kept open for later reads
    /// (docs/STORAGE.md#fixed-cost-per-query). Conservative: a key path of more than one step
    /// may cross a pointer, and a quantifier's element may be one, so either counts as a read.
    public static func finishReadsOnlyTheRows(_ query: Query, residual: [Filter]) -> Bool {
        query.includes.isEmpty
            && query.order.allSatisfy { key in
                switch key {
                case .key(let path, _), .distance(let path, _, _): return path.components.count == 1
                }
            }
            && !residual.contains { part in
                IRNode.filter(part).contains(innerQueries: false) { node, _ in Self.readsOtherObjects(node) }
            }
    }

    /// Whether evaluating this node may read an object other than the row: a path of more than
    /// one step (it may cross a pointer), a member, aggregate, index or SUBQUERY of a value
    /// (it may be one), a quantifier, an inner query or a relation.
    private static func readsOtherObjects(_ node: IRNode) -> Bool {
        switch node {
        case .condition(.quantified), .condition(.inQuery), .condition(.select), .condition(.relatedTo): return true
        case .condition(.geo(let g)): return g.key.components.count > 1
        case .condition(.text(let path, _)), .expr(.key(let path)): return path.components.count > 1
        case .expr(.member), .expr(.aggregate), .expr(.index), .expr(.subquery): return true
        default: return false
        }
    }
}
