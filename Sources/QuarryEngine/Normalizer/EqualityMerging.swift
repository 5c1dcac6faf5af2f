import QuarryCore

/// Inside an OR: equalities (and IN lists) on one key with one semantics and one set of
/// string options become one IN list, `a = 1 OR a = 2 OR a IN (3)` → `a IN (1, 2, 3)`; and
/// `p OR NOT p` → TRUE for two-valued leaves.
///
/// Valid under every semantics: IN tests each member with the same equality the comparison
/// uses (SQL's date reading included, since both see a constant), a null member behaves as
/// `= null` does, and the key is evaluated the same way. Array and object literals are left
/// alone: SQL compares the elements of an array literal, IN would compare the array.
extension Normalizer {
    mutating func mergeDisjuncts(_ run: [Filter]) -> [Filter] {
        guard run.count > 1 else { return run }
        if hasComplementaryLeaves(run) {
            log("tautology", .or(run), .constant(true))
            return [.constant(true)]
        }
        let groups = Self.groups(run, equalityGroupKey)
        var replaced: [Int: Filter] = [:]
        var removed = Set<Int>()
        for (key, members) in groups where members.count >= 2 {
            var values: [Value] = []
            var seen: Set<Value>? = members.count > Self.shortRun ? [] : nil
            for i in members {
                guard case .leaf(let l) = run[i] else { continue }
                for v in l.equalityLiterals where seen?.insert(v).inserted ?? !values.contains(v) { values.append(v) }
            }
            guard values.count <= limits.maxInListSize else { continue }
            let merged = Filter.leaf(
                .inCollection(.key(key.path), .list(values.map(Expr.literal)), key.options), key.semantics)
            log("or-to-in", .or(members.map { run[$0] }), merged)
            replaced[members[0]] = merged
            for i in members.dropFirst() { removed.insert(i) }
        }
        var out: [Filter] = []
        for (i, p) in run.enumerated() where !removed.contains(i) { out.append(replaced[i] ?? p) }
        return out
    }

    private func equalityGroupKey(_ l: Leaf) -> EqualityGroupKey? {
        guard !l.negated else { return nil }
        switch l.condition {
        case .compare(.key(let k), .eq, .literal(let c), let options) where c.mergeableInList:
            return EqualityGroupKey(path: k, semantics: l.semantics, options: options)
        case .inCollection(.key(let k), .list(let items), let options)
        where items.allSatisfy({ if case .literal(let v) = $0 { return v.mergeableInList } else { return false } }):
            return EqualityGroupKey(path: k, semantics: l.semantics, options: options)
        default:
            return nil
        }
    }
}

struct EqualityGroupKey: Hashable {
    let path: FieldPath
    let semantics: LeafSemantics
    let options: StringOptions
}

extension Leaf {
    /// The literals an equality or IN-list leaf compares with.
    var equalityLiterals: [Value] {
        switch condition {
        case .compare(_, _, .literal(let c), _): return [c]
        case .inCollection(_, .list(let items), _):
            return items.compactMap { if case .literal(let v) = $0 { return v } else { return nil } }
        default: return []
        }
    }
}

extension Value {
    /// Scalars whose equality an IN member reproduces exactly.
    var mergeableInList: Bool {
        switch self {
        case .null, .bool, .int, .double, .string, .date, .pointer: return true
        default: return false
        }
    }
}
