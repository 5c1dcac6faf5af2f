import QuarryCore

/// IR → IR rewrites that keep every result (and every error) of the reference evaluator:
/// constant folding, flattening, NOT pushed to the leaves where a leaf's own negation is
/// logical NOT, SQL negations turned into the opposite operator, range merging and
/// contradictions, OR of equalities into IN, LIKE without inner wildcards into prefix /
/// suffix / substring tests, duplicates removed. Each applied rewrite is logged for EXPLAIN.
///
/// Rewrites that move work between operands of AND / OR stay within runs of operands that
/// cannot throw (see `Fallibility`), and rewrites that assume one value per object ask the
/// `KeyFacts`.
struct Normalizer {
    let facts: KeyFacts
    let fallibility: Fallibility
    let limits: Limits
    private(set) var rewrites: [Rewrite] = []
    let folding: Evaluation

    /// - Parameter folding: an evaluation over an empty database for constant leaves (one can
    ///   be shared between normalizations; it only caches matchers).
    init(facts: KeyFacts, fallibility: Fallibility, limits: Limits, folding: Evaluation? = nil) {
        self.facts = facts
        self.fallibility = fallibility
        self.limits = limits
        self.folding = folding ?? Normalizer.folding(limits)
    }

    static func folding(_ limits: Limits) -> Evaluation {
        Evaluation(source: Database(), limits: limits, variables: [:], nowMillis: 0, random: { 0 })
    }

    /// Records a rewrite (rendered only if EXPLAIN asks).
    mutating func log(_ rule: String, _ before: Filter, _ after: Filter) {
        rewrites.append(Rewrite(rule: rule, before: before, after: after))
    }

    mutating func normalize(_ p: Filter) -> Filter {
        switch p {
        case .constant: return p
        case .leaf(let l): return leaf(l)
        case .not(let q):
            let inner = normalize(q)
            let result = negate(inner)
            // `result != .not(inner)`, without boxing a filter to compare.
            if case .not(let kept) = result, kept == inner { return result }
            log("not-pushdown", .not(inner), result)
            return result
        case .and(let ps): return conjunction(ps.map { normalize($0) })
        case .or(let ps): return disjunction(ps.map { normalize($0) })
        }
    }

    /// Logical NOT of a normalized predicate, pushed down: De Morgan through AND / OR, and
    /// into leaves whose `negated` flag is logical NOT (`.predicate`, `.document`, and SQL's
    /// `isNull`). Other SQL leaves keep an explicit NOT.
    private mutating func negate(_ p: Filter) -> Filter {
        switch p {
        case .constant(let b): return .constant(!b)
        case .not(let q): return q
        case .and(let ps): return disjunction(ps.map { negate($0) })
        case .or(let ps): return conjunction(ps.map { negate($0) })
        case .leaf(var l):
            guard l.negationIsLogicalNot else { return .not(p) }
            l.negated.toggle()
            return .leaf(l)
        }
    }

    // MARK: - AND / OR

    mutating func conjunction(_ children: [Filter]) -> Filter {
        junction(children, isAnd: true)
    }

    mutating func disjunction(_ children: [Filter]) -> Filter {
        junction(children, isAnd: false)
    }

    /// AND (`isAnd`) or OR of normalized children. The absorbing constant is FALSE for AND and
    /// TRUE for OR; the neutral one is dropped.
    private mutating func junction(_ children: [Filter], isAnd: Bool) -> Filter {
        var flat: [Filter] = []
        flat.reserveCapacity(children.count)
        for child in children {
            switch (child, isAnd) {
            case (.and(let inner), true), (.or(let inner), false): flat += inner
            default: flat.append(child)
            }
        }
        if flat.count != children.count {
            log("flatten", isAnd ? .and(children) : .or(children), isAnd ? .and(flat) : .or(flat))
        }

        var kept: [Filter] = []
        kept.reserveCapacity(flat.count)
        // Duplicates are found pairwise in a short list, through a set in a long one (a text
        // of thousands of ORs made the pairwise search quadratic).
        var seen: Set<Filter>? = flat.count > Self.shortRun ? Set(minimumCapacity: flat.count) : nil
        for child in flat {
            guard case .constant(let b) = child else {
                if seen?.insert(child).inserted ?? !kept.contains(child) {
                    kept.append(child)
                } else {
                    log("duplicate", isAnd ? .and([child, child]) : .or([child, child]), child)
                }
                continue
            }
            if b == isAnd {
                log("constant-fold", isAnd ? .and(flat) : .or(flat), .constant(isAnd))
                continue
            }
            // Operands after the absorbing constant are never evaluated.
            kept.append(child)
            break
        }
        kept = mergeRuns(kept, isAnd: isAnd)
        if let absorbing = kept.firstIndex(where: { if case .constant(let b) = $0 { b != isAnd } else { false } }) {
            kept.removeSubrange((absorbing + 1)...)
            if !kept[..<absorbing].contains(where: fallibility.mayThrow) { kept = [.constant(!isAnd)] }
        }
        switch kept.count {
        case 0: return .constant(isAnd)
        case 1: return kept[0]
        default: return isAnd ? .and(kept) : .or(kept)
        }
    }

    /// Applies the merging rewrites to each run of operands that cannot throw. A run that
    /// turns out constant (a contradiction in an AND, a tautology in an OR) becomes that
    /// constant.
    private mutating func mergeRuns(_ children: [Filter], isAnd: Bool) -> [Filter] {
        // Room for every child at once: grown one by one, a run of three reallocated twice.
        var out: [Filter] = []
        out.reserveCapacity(children.count)
        var run: [Filter] = []
        run.reserveCapacity(children.count)
        func flush(_ normalizer: inout Normalizer) {
            guard !run.isEmpty else { return }
            out += isAnd ? normalizer.mergeConjuncts(run) : normalizer.mergeDisjuncts(run)
            run.removeAll(keepingCapacity: true)
        }
        for child in children {
            if fallibility.mayThrow(child) {
                flush(&self)
                out.append(child)
            } else {
                run.append(child)
            }
        }
        flush(&self)
        return out
    }
}

extension Normalizer {
    /// Runs up to this long are searched pairwise, longer ones through hashing.
    static let shortRun = 16

    /// The indexes of the leaves of `run` that have a key, grouped by it, the groups in order of
    /// first appearance: found by a linear search in a short run, through a dictionary in a
    /// long one.
    static func groups<Key: Hashable>(_ run: [Filter], _ key: (Leaf) -> Key?) -> [(key: Key, members: [Int])] {
        var groups: [(key: Key, members: [Int])] = []
        groups.reserveCapacity(run.count)
        var index: [Key: Int]? = run.count > shortRun ? [:] : nil
        for (i, p) in run.enumerated() {
            guard case .leaf(let l) = p, let k = key(l) else { continue }
            if let g = index.map({ $0[k] }) ?? groups.firstIndex(where: { $0.key == k }) {
                groups[g].members.append(i)
            } else {
                index?[k] = groups.count
                groups.append((k, [i]))
            }
        }
        return groups
    }
}

extension Leaf {
    /// Whether flipping `negated` is logical NOT: always for `.predicate` and `.document`;
    /// for `.sql` only `isNull` (its negation is "reaches some non-null value").
    var negationIsLogicalNot: Bool {
        if semantics != .sql { return true }
        if case .isNull = condition { return true }
        return false
    }
}
