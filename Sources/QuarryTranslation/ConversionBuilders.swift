import QuarryCore

// Target-semantics leaves and the boolean glue around them.

extension SemanticsConverter {

    func leaf(_ c: Condition, negated: Bool = false) -> Filter {
        .leaf(Leaf(c, negated: negated, semantics: target))
    }

    func compare(_ e: Expr, _ op: ComparisonOperator, _ v: Value, _ opts: StringOptions = []) -> Filter {
        leaf(.compare(e, op, .literal(v), opts))
    }

    func compare(_ e: Expr, _ op: ComparisonOperator, _ r: Expr, _ opts: StringOptions = []) -> Filter {
        leaf(.compare(e, op, r, opts))
    }

    func isNull(_ e: Expr, negated: Bool = false) -> Filter {
        leaf(.isNull(e), negated: negated)
    }

    /// Logical NOT for `.predicate` and `.document` output, where a leaf's `negated` is NOT.
    func not(_ p: Filter) -> Filter {
        switch p {
        case .constant(let b): return .constant(!b)
        case .not(let q): return q
        case .leaf(var l) where l.semantics != .sql:
            l.negated.toggle()
            return .leaf(l)
        default: return .not(p)
        }
    }

    /// AND of the parts, without constant true parts and one-element wrappers.
    func all(_ parts: [Filter]) -> Filter {
        var kept: [Filter] = []
        for p in parts {
            switch p {
            case .constant(true): continue
            case .constant(false): return .constant(false)
            default: kept.append(p)
            }
        }
        return kept.isEmpty ? .constant(true) : kept.count == 1 ? kept[0] : .and(kept)
    }

    /// OR of the parts, without constant false parts and one-element wrappers.
    func any(_ parts: [Filter]) -> Filter {
        var kept: [Filter] = []
        for p in parts {
            switch p {
            case .constant(false): continue
            case .constant(true): return .constant(true)
            default: kept.append(p)
            }
        }
        return kept.isEmpty ? .constant(false) : kept.count == 1 ? kept[0] : .or(kept)
    }

    /// `e.name` written as a key path when `e` is one.
    static func member(_ e: Expr, _ name: String) -> Expr {
        if case .key(let path) = e { return .key(path.appending(name)) }
        return .member(e, FieldPath([name]))
    }

    /// `x == v`, or `x IN {…}` for several values.
    func equalsOneOf(_ x: Expr, _ values: [Expr], _ opts: StringOptions) -> Filter {
        values.count == 1 ? compare(x, .eq, values[0], opts) : leaf(.inCollection(x, .list(values), opts))
    }

    /// Whether a string test accepts `x`: `BEGINSWITH ""` holds for every string and nothing
    /// else; in NSPredicate, where the empty prefix is in no string, `LIKE "*"` does.
    func isString(_ x: Expr) -> Filter {
        if target == .predicate { return leaf(.string(x, .like(.glob), .literal(.string("*")), [])) }
        return leaf(.string(x, .beginsWith, .literal(.string("")), []))
    }
}
