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
        switch p {
        case .constant: return false
        case .and(let ps), .or(let ps): return ps.contains(where: mayThrow)
        case .not(let q): return mayThrow(q)
        case .leaf(let l): return mayThrow(l)
        }
    }

    func mayThrow(_ l: Leaf) -> Bool {
        let sql = l.semantics == .sql
        switch l.condition {
        case .compare(let a, _, let b, _):
            return mayThrow(a) || mayThrow(b) || (sql && (dateParseMayFail(a, against: b) || dateParseMayFail(b, against: a)))
        case .between(let e, let lo, let hi):
            return mayThrow(e) || mayThrow(lo) || mayThrow(hi)
                || (sql && (dateParseMayFail(lo, against: e) || dateParseMayFail(hi, against: e)
                    || dateParseMayFail(e, against: lo) || dateParseMayFail(e, against: hi)))
        case .inCollection(let e, let coll, _):
            return mayThrow(e) || mayThrow(coll) || (sql && dateParseMayFail(coll, against: e))
        case .string(let e, let op, let pattern, _):
            if case .matches = op { return true }
            return mayThrow(e) || mayThrow(pattern)
        case .isNull(let e), .arraySize(let e, _):
            return mayThrow(e)
        case .containsAll(let e, let list), .containedBy(let e, let list):
            return mayThrow(e) || mayThrow(list)
        case .quantified(_, let coll, _, let p):
            return mayThrow(coll) || mayThrow(p)
        case .inQuery(_, let q), .select(_, let q, _):
            return !innerSucceeds(q)
        case .geo, .relatedTo, .text:
            return false
        }
    }

    func mayThrow(_ e: Expr) -> Bool {
        switch e {
        case .literal, .key, .variable, .evaluatedObject: return false
        case .member(let base, _), .negate(let base), .aggregate(_, let base), .cast(let base, _):
            return mayThrow(base)
        case .list(let items): return items.contains(where: mayThrow)
        case .arithmetic(_, let l, let r): return mayThrow(l) || mayThrow(r)
        case .function(let f, let args):
            if f == .relativeTime {
                guard args.count == 1, case .literal(.string(let phrase)) = args[0],
                    case .success = RelativeTime.parse(phrase)
                else { return true }
            }
            return args.contains(where: mayThrow)
        case .index(let base, let spec):
            if case .at(let i) = spec, mayThrow(i) { return true }
            return mayThrow(base)
        case .subquery(let coll, _, let p): return mayThrow(coll) || mayThrow(p)
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
        case .literal(.array(let items)): return items.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
        case .list(let items): return items.flatMap(\.stringLiterals)
        default: return []
        }
    }
}
