import QuarryCore

/// A cached plan rebound to new literals of its shape without normalizing again
/// (docs/ARCHITECTURE.md#plan-cache): when every rewrite the first planning applied holds
/// whatever the literals' values (they move operands, flip negations and flatten, and keep
/// each leaf and each literal in its place), the normalized predicate for new literals is the
/// cached one with the literals and source ranges put back in order. Only the filter is
/// compiled again, from memoized key resolutions.
struct PlanRebinding {
    /// How the literals of a query, normalized so, become those of its normalized predicate,
    /// those literals, and the normalized predicate's leaves with their slots
    /// (`LeafLiterals.of`, walked once for the forms and the compiler), when its plan may be
    /// rebound; nil when it may not.
    static func forms(_ query: Query, _ normalized: Filter, rewrites: [Rewrite], literals: [Value])
        -> (forms: LiteralForms, literals: [Value], leaves: [(leaf: Leaf, slots: Range<Int>)])?
    {
        guard rewrites.allSatisfy({ valueIndependent.contains($0.rule) || likeRules.contains($0.rule) }),
            LeafRanges.count(of: query.predicate) == LeafRanges.count(of: normalized)
        else { return nil }
        let leaves = LeafLiterals.of(normalized)
        let forms =
            rewrites.contains { likeRules.contains($0.rule) }
            ? LiteralForms(likesOf: query.predicate, normalized: leaves) : .identity
        // The order's literals come last; the normalized predicate holds the others.
        guard let planned = forms.apply(literals),
            PlanShape.sameLiterals(
                PlanShape.literals(of: normalized),
                Array(planned.dropLast(PlanShape.orderLiteralCount(query.order))))
        else { return nil }
        return (forms, planned, leaves)
    }

    /// Rewrites whose application depends on the shape alone.
    private static let valueIndependent: Set<String> = [
        "operand-swap", "negation-to-operator", "not-pushdown", "flatten",
    ]
    /// Rewrites of a LIKE pattern into a string test, which `LiteralForms` repeats on new
    /// patterns (a pattern that makes another test is planned again).
    private static let likeRules: Set<String> = ["like-to-prefix", "like-to-suffix", "like-to-contains"]

    /// The cached normalized predicate with `literals` and the query's leaf ranges.
    static func normalized(_ cached: Filter, literals: [Value], query: Query) -> Filter {
        var substitution = Substitution(literals: literals, ranges: LeafRanges.of(query.predicate))
        return substitution.filter(cached, binding: nil)
    }

    /// The predicate with `literals` in its parameters' places, its ranges kept.
    static func substituted(_ p: Filter, literals: [Value]) -> Filter {
        var substitution = Substitution(literals: literals, ranges: [])
        return substitution.filter(p, binding: nil)
    }

    /// Puts parameters and ranges back in the order `PlanShape` takes them out.
    private struct Substitution: IRChildTransform {
        let literals: [Value]
        let ranges: [SourceRange?]
        var nextLiteral = 0
        var nextLeaf = 0

        mutating func leaf(_ l: Leaf) -> Leaf {
            let index = nextLeaf
            nextLeaf += 1
            var out = l.mapChildren(&self)
            if index < ranges.count { out.range = ranges[index] }
            return out
        }

        mutating func expr(_ e: Expr) -> Expr {
            if case .literal(let v) = e, PlanShape.Builder.placeholder(v) != nil, nextLiteral < literals.count {
                defer { nextLiteral += 1 }
                return .literal(literals[nextLiteral])
            }
            return e.mapChildren(&self)
        }

        mutating func condition(_ c: Condition) -> Condition {
            guard case .geo(let g) = c else { return c.mapChildren(&self) }
            let n = g.parameterCount
            defer { nextLiteral += n }
            guard nextLiteral + n <= literals.count,
                let bound = g.with(parameters: literals[nextLiteral..<nextLiteral + n])
            else { return c }
            return .geo(bound)
        }

        mutating func query(_ q: Query) -> Query { q }
    }
}

/// The source ranges of a predicate's leaves, in walk order.
private struct LeafRanges: IRChildTransform {
    static var readsOnly: Bool { true }
    let lists: Bool
    var ranges: [SourceRange?] = []
    var count = 0

    static func of(_ p: Filter) -> [SourceRange?] {
        var walk = LeafRanges(lists: true)
        _ = walk.filter(p, binding: nil)
        return walk.ranges
    }

    /// How many there are (`of(p).count`, without the list).
    static func count(of p: Filter) -> Int {
        var walk = LeafRanges(lists: false)
        _ = walk.filter(p, binding: nil)
        return walk.count
    }

    mutating func leaf(_ l: Leaf) -> Leaf {
        count += 1
        if lists { ranges.append(l.range) }
        return l.mapChildren(&self)
    }

    mutating func query(_ q: Query) -> Query { q }
}

/// The regular expressions a predicate gives as literals, with the range of the leaf each is
/// in (inner queries keep their literals in the shape: they were checked with it).
private struct PatternLiterals: IRChildTransform {
    static var readsOnly: Bool { true }
    typealias Pattern = (pattern: String, regex: RegexOptions, options: StringOptions, range: SourceRange?)
    var found: [Pattern] = []
    private var leafRange: SourceRange?

    static func of(_ p: Filter) -> [Pattern] {
        var walk = PatternLiterals()
        _ = walk.filter(p, binding: nil)
        return walk.found
    }

    mutating func leaf(_ l: Leaf) -> Leaf {
        let outer = leafRange
        leafRange = l.range ?? leafRange
        defer { leafRange = outer }
        if case .string(_, .matches(let regex), .literal(.string(let pattern)), let options) = l.condition {
            found.append((pattern, regex, options, leafRange))
        }
        return l.mapChildren(&self)
    }

    mutating func query(_ q: Query) -> Query { q }
}

extension PlanCache {
    /// The plan for other literals of a cached plan's shape: the cached normalized predicate
    /// with the new literals when that is the same as normalizing again
    /// (docs/ARCHITECTURE.md#plan-cache), else planned from the start.
    func rebind(_ plan: Plan, to query: Query, _ literals: [Value]) throws(Diagnostic)
        -> Plan
    {
        guard plan.rebindable, let table = planner.store.table(query.className),
            let normalizedLiterals = plan.parameters.forms.apply(literals)
        else {
            return try build(query, literals: literals)
        }
        let normalized = PlanRebinding.normalized(plan.normalized, literals: normalizedLiterals, query: query)
        let planner = self.planner
        return planner.compile(
            query, normalized, rewrites: { planner.rewrites(query) }, table: table, failedInner: [:],
            literals: normalizedLiterals, forms: plan.parameters.forms)
    }

    /// The checks of `QueryValidator` whose outcome depends on literal values, for a query of a
    /// shape already checked with the same variable names: each regular expression given as a
    /// literal compiles (once per pattern, memoized), or fails located at its leaf.
    func checkLiterals(_ query: Query) throws(Diagnostic) {
        for p in PatternLiterals.of(query.predicate) {
            do throws(Diagnostic) {
                _ = try planner.memo.regex(p.pattern, p.regex, p.options, planner.limits)
            } catch {
                throw error.located(at: p.range)
            }
        }
    }
}

extension Planner {
    /// The rewrites normalizing the query's predicate applies (for EXPLAIN of a rebound plan;
    /// with a memo and folding of its own, as it may be asked while other plans are made).
    func rewrites(_ query: Query) -> [Rewrite] {
        guard let table = store.table(query.className) else { return [] }
        let memo = PlanningMemo(version: store.version)
        let facts = MemoizedKeyFacts(facts: StoreKeyFacts(store: store, table: table), memo: memo)
        var normalizer = Normalizer(
            facts: facts, fallibility: Fallibility(facts: facts), limits: limits, folding: Normalizer.folding(limits))
        _ = normalizer.normalize(query.predicate)
        return normalizer.rewrites
    }
}
