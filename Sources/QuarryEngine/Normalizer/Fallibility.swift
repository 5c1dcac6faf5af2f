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
        // Cheapest first: most constants hold no string at all; then the key's facts (a
        // lookup); parsing dates last.
        guard constant.isConstant, constant.containsStringLiteral(where: { _ in true }) else { return false }
        if case .key(let path) = other, !facts.mayReachDate(path) { return false }
        return constant.containsStringLiteral { BackendlessDate.parse($0) == nil }
    }
}

extension Expr {
    /// Whether a string literal of a literal or a list of literals passes `test`.
    func containsStringLiteral(where test: (String) -> Bool) -> Bool {
        switch self {
        case .literal(.string(let s)): return test(s)
        case .literal(.array(let items)):
            return items.contains { if case .string(let s) = $0 { return test(s) } else { return false } }
        case .list(let items): return items.contains { $0.containsStringLiteral(where: test) }
        default: return false
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

extension Filter {
    /// Whether every leaf tests key paths against literals or lists of literals
    /// (`Leaf.operandsAreKeysOrConstants`): such a predicate holds no inner query, variable
    /// or function.
    var onlyKeysAndConstants: Bool {
        switch self {
        case .constant: return true
        case .leaf(let l): return l.operandsAreKeysOrConstants
        case .not(let f): return f.onlyKeysAndConstants
        case .and(let fs), .or(let fs): return fs.allSatisfy(\.onlyKeysAndConstants)
        }
    }

    /// Levels of AND, OR and NOT above the deepest leaf (0 for a leaf or a constant).
    var height: Int {
        switch self {
        case .constant, .leaf: return 0
        case .not(let f): return f.height + 1
        case .and(let fs), .or(let fs): return fs.reduce(0) { Swift.max($0, $1.height) } + 1
        }
    }

    /// Visits the leaves in order (pre-order, as a walk of the tree meets them).
    func forEachLeaf<E: Error>(_ visit: (Leaf) throws(E) -> Void) throws(E) {
        switch self {
        case .constant: return
        case .leaf(let l): try visit(l)
        case .not(let f): try f.forEachLeaf(visit)
        case .and(let fs), .or(let fs): for f in fs { try f.forEachLeaf(visit) }
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
