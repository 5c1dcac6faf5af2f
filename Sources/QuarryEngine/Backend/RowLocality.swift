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
            && residual.allSatisfy(readsOnlyTheRow)
    }

    private static func readsOnlyTheRow(_ filter: Filter) -> Bool {
        switch filter {
        case .constant: return true
        case .and(let parts), .or(let parts): return parts.allSatisfy(readsOnlyTheRow)
        case .not(let part): return readsOnlyTheRow(part)
        case .leaf(let leaf): return readsOnlyTheRow(leaf.condition)
        }
    }

    private static func readsOnlyTheRow(_ condition: Condition) -> Bool {
        switch condition {
        case .compare(let a, _, let b, _), .inCollection(let a, let b, _), .containsAll(let a, let b),
            .containedBy(let a, let b), .string(let a, _, let b, _):
            return readsOnlyTheRow(a) && readsOnlyTheRow(b)
        case .between(let e, let lower, let upper):
            return readsOnlyTheRow(e) && readsOnlyTheRow(lower) && readsOnlyTheRow(upper)
        case .isNull(let e), .arraySize(let e, _): return readsOnlyTheRow(e)
        case .geo(let g): return g.key.components.count == 1
        case .text(let path, _): return path.components.count == 1
        case .quantified, .inQuery, .select, .relatedTo: return false
        }
    }

    private static func readsOnlyTheRow(_ e: Expr) -> Bool {
        switch e {
        case .literal, .variable, .evaluatedObject: return true
        case .key(let path): return path.components.count == 1
        case .list(let items): return items.allSatisfy(readsOnlyTheRow)
        case .function(_, let arguments): return arguments.allSatisfy(readsOnlyTheRow)
        case .arithmetic(_, let a, let b): return readsOnlyTheRow(a) && readsOnlyTheRow(b)
        case .negate(let a), .cast(let a, _): return readsOnlyTheRow(a)
        case .member, .aggregate, .index, .subquery: return false
        }
    }
}
