import QuarryCore

/// Range merging inside an AND: `a > 5 AND a > 10` → `a > 10`, `a = 3 AND a < 5` → `a = 3`,
/// `a > 10 AND a < 5` → FALSE; and `p AND NOT p` → FALSE for two-valued leaves.
///
/// Valid when each object reaches at most one value at the key (always under `.predicate`,
/// where a collection is one value; under `.sql` and `.document` only when the data says so),
/// the leaves are not negated and compare with literals of one kind under one total order:
/// numbers (ints and doubles by value), dates, or, outside `.sql` where a string may be read
/// as a date, strings compared without options.
extension Normalizer {
    mutating func mergeConjuncts(_ run: [Filter]) -> [Filter] {
        guard run.count > 1 else { return run }
        if hasComplementaryLeaves(run) {
            log("contradiction", .and(run), .constant(false))
            return [.constant(false)]
        }
        let groups = Self.groups(run, rangeGroupKey)
        // The `!=` leaves of a key: searched for in a short run, found once for a long one.
        let inequalitiesByKey: [RangeGroupKey: [Int]]? =
            run.count > Self.shortRun
            ? Dictionary(grouping: run.indices.compactMap { i in inequalityKey(run[i]).map { (i, $0) } }) { $0.1 }
                .mapValues { $0.map(\.0) } : nil
        func inequalities(of key: RangeGroupKey) -> [Int] {
            if let inequalitiesByKey { return inequalitiesByKey[key] ?? [] }
            return run.indices.filter { inequalityKey(run[$0]) == key }
        }
        var replaced: [Int: [Filter]] = [:]
        var removed = Set<Int>()
        for (key, members) in groups {
            let equalityLike = members.contains { run[$0].rangeOperator == .eq }
            guard members.count >= 2 || equalityLike else { continue }
            let inequalities = equalityLike ? inequalities(of: key) : []
            guard members.count >= 2 || !inequalities.isEmpty else { continue }
            // Asked only of a group that could merge: most keys of a conjunction occur once.
            guard key.semantics == .predicate || facts.isSingleValued(key.path) else { continue }
            let before = Filter.and((members + inequalities).sorted().map { run[$0] })
            guard let merged = merge(members.map { run[$0] }, inequalities.map { run[$0] }, key) else {
                log("contradiction", before, .constant(false))
                return [.constant(false)]
            }
            let original = members.map { run[$0] }
            guard Set(merged) != Set(original) || !inequalities.isEmpty else { continue }
            log("range-merge", before, merged.count == 1 ? merged[0] : .and(merged))
            let first = (members + inequalities).min()!
            replaced[first] = merged
            for i in members + inequalities where i != first { removed.insert(i) }
        }
        if replaced.isEmpty && removed.isEmpty { return run }
        var out: [Filter] = []
        out.reserveCapacity(run.count)
        for (i, p) in run.enumerated() where !removed.contains(i) {
            if let r = replaced[i] { out += r } else { out.append(p) }
        }
        return out
    }

    /// Two leaves that differ only in `negated`, whose negation is logical NOT.
    func hasComplementaryLeaves(_ run: [Filter]) -> Bool {
        if run.count <= 16 {
            // Pairwise: cheaper than hashing every leaf of a short run.
            for i in run.indices {
                guard case .leaf(let a) = run[i], a.negationIsLogicalNot else { continue }
                for j in run.indices where j > i {
                    if case .leaf(let b) = run[j], b.negated != a.negated, b.semantics == a.semantics,
                        b.condition == a.condition
                    {
                        return true
                    }
                }
            }
            return false
        }
        var seen = Set<Leaf>()
        for case .leaf(let l) in run where l.negationIsLogicalNot {
            var opposite = l
            opposite.negated.toggle()
            if seen.contains(opposite) { return true }
            seen.insert(l)
        }
        return false
    }

    /// The group of a range leaf: its key, semantics and the class of its literals. Whether the
    /// key reaches one value per object (without which a group does not merge under `.sql` and
    /// `.document`) is asked of the groups that could merge.
    private func rangeGroupKey(_ l: Leaf) -> RangeGroupKey? {
        guard !l.negated else { return nil }
        switch l.condition {
        case .compare(.key(let k), let op, .literal(let c), let options) where options.isEmpty && op != .ne:
            guard let literalClass = RangeLiteralClass(c, l.semantics) else { return nil }
            return RangeGroupKey(path: k, semantics: l.semantics, literalClass: literalClass)
        case .between(.key(let k), .literal(let lo), .literal(let hi)):
            guard let literalClass = RangeLiteralClass(lo, l.semantics),
                RangeLiteralClass(hi, l.semantics) == literalClass
            else { return nil }
            return RangeGroupKey(path: k, semantics: l.semantics, literalClass: literalClass)
        default:
            return nil
        }
    }

    /// `a != c` leaves of the group's key and literal kind, which an equality decides.
    /// The group a `key != literal` leaf (no options, not negated) narrows when the group holds
    /// an equality.
    private func inequalityKey(_ p: Filter) -> RangeGroupKey? {
        guard case .leaf(let l) = p, !l.negated,
            case .compare(.key(let path), .ne, .literal(let c), let options) = l.condition, options.isEmpty,
            let literalClass = RangeLiteralClass(c, l.semantics)
        else { return nil }
        return RangeGroupKey(path: path, semantics: l.semantics, literalClass: literalClass)
    }

    /// The leaves equivalent to the group's conjunction, or nil when it is empty.
    private func merge(_ members: [Filter], _ inequalities: [Filter], _ key: RangeGroupKey) -> [Filter]? {
        var point: Value? = nil
        var lower: (value: Value, inclusive: Bool)? = nil
        var upper: (value: Value, inclusive: Bool)? = nil
        let order = key.literalClass.order
        for case .leaf(let l) in members {
            switch l.condition {
            case .compare(_, let op, .literal(let c), _):
                switch op {
                case .eq:
                    if let p = point, order(p, c) != 0 { return nil }
                    if point == nil { point = c }
                case .gt, .ge:
                    let inclusive = op == .ge
                    if let lo = lower {
                        let o = order(c, lo.value)
                        if o > 0 || (o == 0 && !inclusive) { lower = (c, inclusive) }
                    } else {
                        lower = (c, inclusive)
                    }
                case .lt, .le:
                    let inclusive = op == .le
                    if let hi = upper {
                        let o = order(c, hi.value)
                        if o < 0 || (o == 0 && !inclusive) { upper = (c, inclusive) }
                    } else {
                        upper = (c, inclusive)
                    }
                case .ne: break
                }
            case .between(_, .literal(let lo), .literal(let hi)):
                if let current = lower {
                    if order(lo, current.value) > 0 { lower = (lo, true) }
                } else {
                    lower = (lo, true)
                }
                if let current = upper {
                    if order(hi, current.value) < 0 { upper = (hi, true) }
                } else {
                    upper = (hi, true)
                }
            default: break
            }
        }
        let make = { (op: ComparisonOperator, v: Value) -> Filter in
            .leaf(.compare(.key(key.path), op, .literal(v), []), key.semantics)
        }
        if let p = point {
            if let lo = lower { let o = order(p, lo.value); if o < 0 || (o == 0 && !lo.inclusive) { return nil } }
            if let hi = upper { let o = order(p, hi.value); if o > 0 || (o == 0 && !hi.inclusive) { return nil } }
            for case .leaf(let l) in inequalities {
                if case .compare(_, _, .literal(let c), _) = l.condition, order(p, c) == 0 { return nil }
            }
            return [make(.eq, p)]
        }
        if let lo = lower, let hi = upper {
            let o = order(lo.value, hi.value)
            if o > 0 || (o == 0 && !(lo.inclusive && hi.inclusive)) { return nil }
        }
        var out: [Filter] = []
        if let lo = lower { out.append(make(lo.inclusive ? .ge : .gt, lo.value)) }
        if let hi = upper { out.append(make(hi.inclusive ? .le : .lt, hi.value)) }
        // A lone BETWEEN stays as written.
        if members.count == 1, case .leaf(let l) = members[0], case .between = l.condition { return members }
        return out
    }
}

struct RangeGroupKey: Hashable {
    let path: FieldPath
    let semantics: LeafSemantics
    let literalClass: RangeLiteralClass
}

/// Literals that share one total order with every value they can meet.
enum RangeLiteralClass: Hashable {
    case number, date, string

    init?(_ v: Value, _ semantics: LeafSemantics) {
        switch v {
        case .int, .double: self = .number
        case .date: self = .date
        case .string where semantics != .sql: self = .string
        default: return nil
        }
    }

    var order: (Value, Value) -> Int {
        switch self {
        case .number: return { Value.compareNumbers($0, $1) }
        case .date, .string: return { Value.compareOrdered($0, $1) ?? 0 }
        }
    }
}

extension Filter {
    /// The operator of a comparison leaf with a literal (nil for anything else).
    var rangeOperator: ComparisonOperator? {
        guard case .leaf(let l) = self, case .compare(_, let op, .literal, _) = l.condition else { return nil }
        return op
    }
}
