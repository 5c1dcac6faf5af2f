import QuarryCore

/// Parse's "complex predicates with many ORed clauses", made concrete the way its SDK
/// translator did: push NOT to the leaves, expand to disjunctive normal form, hoist the
/// conjuncts every branch shares, and count the remaining OR branches.
extension ProfileRules {
    /// Expansions larger than this are too complex whatever hoisting could save.
    static let maxNormalFormBranches = 256

    static func checkNormalForm(_ p: Filter, profile: Profile, at range: SourceRange) -> Diagnostic? {
        guard profile == .parse || profile == .maxleap else { return nil }
        let tooComplex = { (detail: String) in
            Diagnostic(
                .profile.unsupported,
                "the \(profile.rawValue) profile does not support complex predicates with many ORed clauses: \(detail) (at most \(maxOrBranches))",
                at: range)
        }
        guard let branches = disjuncts(p, negated: false) else {
            return tooComplex("after normalization an OR has more than \(maxNormalFormBranches) branches")
        }
        let count = hoistedBranchCount(branches)
        return count > maxOrBranches ? tooComplex("after normalization an OR has \(count) branches") : nil
    }

    /// The predicate as an OR of ANDs of (possibly negated) leaves; nil when too large.
    private static func disjuncts(_ p: Filter, negated: Bool) -> [Set<Filter>]? {
        switch p {
        case .constant(let b):
            return b != negated ? [[]] : []
        case .not(let q):
            return disjuncts(q, negated: !negated)
        case .leaf:
            return [[negated ? .not(p) : p]]
        case .and(let ps), .or(let ps):
            let isAnd: Bool
            if case .and = p { isAnd = !negated } else { isAnd = negated }
            var result: [Set<Filter>] = isAnd ? [[]] : []
            for q in ps {
                guard let d = disjuncts(q, negated: negated) else { return nil }
                if isAnd {
                    var product: [Set<Filter>] = []
                    for a in result {
                        for b in d { product.append(a.union(b)) }
                        if product.count > maxNormalFormBranches { return nil }
                    }
                    result = product
                } else {
                    result += d
                    if result.count > maxNormalFormBranches { return nil }
                }
            }
            return result
        }
    }

    /// Branches left after removing duplicates and the conjuncts shared by all of them; when
    /// a branch is nothing but the shared part, the OR disappears.
    private static func hoistedBranchCount(_ branches: [Set<Filter>]) -> Int {
        var unique: [Set<Filter>] = []
        for b in branches where !unique.contains(b) { unique.append(b) }
        guard unique.count > 1, let first = unique.first else { return unique.count }
        let common = unique.dropFirst().reduce(first) { $0.intersection($1) }
        return unique.contains(common) ? 1 : unique.count
    }
}
