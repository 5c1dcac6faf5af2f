import QuarryCore

/// The object a predicate is being evaluated on, and the variables bound around it by
/// quantifiers and SUBQUERY.
struct Scope {
    let record: Record
    let className: String
    var locals: [String: Value] = [:]
}

/// The state of one `run` or `matches` call: the clock reading every row sees, the deadline,
/// and what is prepared once per query (string matchers, folded literals, inner-query results).
/// Not shared between calls, so it needs no locking.
final class Evaluation {
    let source: any RecordSource
    let limits: Limits
    let variables: [String: Value]
    /// `now()` and `$relativeTime` read this one instant, so every row sees the same time.
    let nowMillis: Int64
    let random: @Sendable () -> Double
    let resolver: KeyPathResolver
    let comparison = ValueComparison(folds: ValueComparison.FoldCache())

    /// The run's deadline and total regex budget (the engine's, when it backs an engine run).
    let budget: QueryBudget
    private var rowsVisited = 0
    private var matchers: [MatcherKey: StringMatcher] = [:]
    /// The matcher asked for last: a residual test asks for the same one on every row, and
    /// comparing its key costs less than hashing it.
    private var lastMatcher: (key: MatcherKey, matcher: StringMatcher)?
    private var textMatchers: [TextKey: TextMatcher] = [:]
    var innerResults: [Query: InnerObjects] = [:]
    var innerPointerSets: [Query: Set<Value>] = [:]
    var innerValueSets: [InnerValuesKey: InnerValues] = [:]

    // Patterns and search terms are keyed as `Value.string`, which compares scalars (a
    // `String` compares by canonical equivalence, so `é` and `e\u{301}` would share a matcher).
    private struct MatcherKey: Hashable {
        let op: StringOperator
        let pattern: Value
        let options: StringOptions
    }

    private struct TextKey: Hashable {
        let terms: Value
        let caseSensitive: Bool
        let diacriticSensitive: Bool
    }

    private static let cacheCapacity = 1024

    /// Rows between two looks at the clock.
    private static let clockInterval = 256

    init(
        source: any RecordSource, limits: Limits, variables: [String: Value], nowMillis: Int64,
        random: @escaping @Sendable () -> Double, budget: QueryBudget? = nil
    ) {
        self.source = source
        self.limits = limits
        self.variables = variables
        self.nowMillis = nowMillis
        self.random = random
        self.resolver = KeyPathResolver(source: source)
        self.budget = budget ?? QueryBudget(limits: limits)
    }

    /// Counts one visited row and fails with `limit.deadline` once the budget is spent. The
    /// clock is read on the first row and then every `clockInterval` rows.
    func visitRow() throws(Diagnostic) {
        defer { rowsVisited &+= 1 }
        guard limits.deadlineSeconds != nil, rowsVisited % Self.clockInterval == 0 else { return }
        try budget.checkDeadline()
    }

    /// The value of `$name`: a quantifier's or SUBQUERY's binding first, then the caller's.
    func variable(_ name: String, _ scope: Scope) throws(Diagnostic) -> Value {
        if let v = scope.locals[name] ?? variables[name] { return v }
        throw Diagnostic(.query.unboundVariable, "the variable $\(name) is not bound")
    }

    /// The string test for a pattern, prepared on first use and reused for every row.
    func matcher(_ op: StringOperator, _ pattern: String, _ options: StringOptions) throws(Diagnostic)
        -> StringMatcher
    {
        let key = MatcherKey(op: op, pattern: .string(pattern), options: options)
        if let last = lastMatcher, last.key == key { return last.matcher }
        let m: StringMatcher
        if let known = matchers[key] {
            m = known
        } else {
            m = try StringMatcher(op, pattern: pattern, options: options, limits: limits)
        }
        // Patterns taken from the data itself could be as many as the rows: keep the first few.
        if matchers.count < Self.cacheCapacity { matchers[key] = m }
        lastMatcher = (key, m)
        return m
    }

    func textMatcher(_ search: TextSearch) -> TextMatcher {
        let key = TextKey(
            terms: .string(search.terms), caseSensitive: search.caseSensitive,
            diacriticSensitive: search.diacriticSensitive)
        if let m = textMatchers[key] { return m }
        let m = TextMatcher(search)
        if textMatchers.count < Self.cacheCapacity { textMatchers[key] = m }
        return m
    }
}
