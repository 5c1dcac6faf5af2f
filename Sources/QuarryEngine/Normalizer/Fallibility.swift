import QuarryCore

/// Which parts of a predicate may throw while rows are evaluated (a regex over its budget, a
/// date string that does not parse once it meets a date, a relative time that does not parse,
/// an inner query that fails). The reference evaluates AND and OR left to right and stops
/// early, so such an error surfaces only on the rows that reach it. Rewrites and plans keep
/// that set of rows the same by never moving work across a fallible part: they reorder,
/// merge and index only within the runs of infallible parts between them.
struct Fallibility {
    let facts: KeyFacts
    /// Whether an inner query is known to materialize without error.
    var innerSucceeds: (Query) -> Bool = { _ in false }

    func mayThrow(_ p: Filter) -> Bool {
        if case .leaf(let l) = p { return mayThrow(l) }
        return mayThrow(IRNode.filter(p))
    }

    func mayThrow(_ l: Leaf) -> Bool {
        // Most leaves test keys against constants: nothing below such a leaf may throw, so its
        // own test is all there is to judge, without walking its operands as tree nodes (the
        // walk was a tenth of planning a three-condition range).
        if l.operandsAreKeysOrConstants { return mayThrowItself(l) }
        return mayThrow(IRNode.leaf(l))
    }

    /// Whether some node at or below `node` may throw on its own. Inner queries count as one
    /// node each: they run before the rows are tested.
    private func mayThrow(_ node: IRNode) -> Bool {
        node.contains(innerQueries: false) { node, _ in
            switch node {
            case .leaf(let l): return mayThrowItself(l)
            case .expr(.function(.relativeTime, let args)):
                guard args.count == 1, case .literal(.string(let phrase)) = args[0],
                    case .success = RelativeTime.parse(phrase)
                else { return true }
                return false
            default: return false
            }
        }
    }

    /// What the leaf's own test may throw, apart from its operands.
    private func mayThrowItself(_ l: Leaf) -> Bool {
        let sql = l.semantics == .sql
        switch l.condition {
        case .compare(let a, _, let b, _):
            return sql && (dateParseMayFail(a, against: b) || dateParseMayFail(b, against: a))
        case .between(let e, let lo, let hi):
            return sql
                && (dateParseMayFail(lo, against: e) || dateParseMayFail(hi, against: e)
                    || dateParseMayFail(e, against: lo) || dateParseMayFail(e, against: hi))
        case .inCollection(let e, let coll, _):
            return sql && dateParseMayFail(coll, against: e)
        case .string(_, .matches, _, _):
            return true
        case .inQuery(_, let q), .select(_, let q, _):
            return !innerSucceeds(q)
        case .string, .isNull, .arraySize, .containsAll, .containedBy, .quantified, .geo, .relatedTo, .text:
            return false
        }
    }

    /// Under `.sql`, a constant string compared with a date must parse as a date, or the
    /// comparison throws `date.unparseable`. It cannot throw when every string parses, or when
    /// the other side is a key that never reaches a date.
    private func dateParseMayFail(_ constant: Expr, against other: Expr) -> Bool {
        // The key's facts first: they are a lookup, parsing dates is not.
        if case .key(let path) = other, !facts.mayReachDate(path) { return false }
        return constant.isConstant && constant.stringLiterals.contains(where: { BackendlessDate.parse($0) == nil })
    }
}

extension Expr {
    /// The string literals of a literal or a list of literals.
    var stringLiterals: [String] {
        switch self {
        case .literal(.string(let s)): return [s]
        case .literal(.array(let items)):
            return items.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
        case .list(let items): return items.flatMap(\.stringLiterals)
        default: return []
        }
    }
}

extension Leaf {
    /// Whether every operand of the test is a key path, a literal or a list of literals.
    var operandsAreKeysOrConstants: Bool {
        switch condition {
        case .compare(let a, _, let b, _), .string(let a, _, let b, _), .inCollection(let a, let b, _),
            .containsAll(let a, let b), .containedBy(let a, let b):
            return a.isKeyOrConstant && b.isKeyOrConstant
        case .between(let e, let lo, let hi): return e.isKeyOrConstant && lo.isKeyOrConstant && hi.isKeyOrConstant
        case .isNull(let e), .arraySize(let e, _): return e.isKeyOrConstant
        case .quantified, .geo, .inQuery, .select, .relatedTo, .text: return false
        }
    }
}

extension Expr {
    /// A key path, a literal or a list of literals: nothing below it is evaluated.
    fileprivate var isKeyOrConstant: Bool {
        switch self {
        case .key, .literal: return true
        case .list(let items): return items.allSatisfy { if case .literal = $0 { true } else { false } }
        default: return false
        }
    }
}
