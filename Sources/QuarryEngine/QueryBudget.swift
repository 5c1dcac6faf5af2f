import QuarryCore

/// What one query run may still spend: time until its deadline and PCRE2 steps of its total
/// regex budget (`Limits.regexTotalLimit`). One budget is shared by the outer query, its inner
/// queries and the reference evaluation behind the engine, so a pattern that is merely slow on
/// each row still ends the query once the rows add up (docs/SEMANTICS.md, limits).
final class QueryBudget {
    let limits: Limits
    private let deadline: ContinuousClock.Instant?
    private var regexStepsLeft: UInt64

    init(limits: Limits) {
        self.limits = limits
        regexStepsLeft = limits.regexTotalLimit
        deadline = limits.deadlineFromNow()
    }

    /// Fails with `limit.deadline` once the time budget is spent.
    func checkDeadline() throws(Diagnostic) {
        if let deadline, ContinuousClock.now >= deadline { throw limits.deadlineExceeded }
    }

    /// Takes `steps` from the regex budget for a match of `pattern`; fails with `limit.regex`
    /// when the query has no more, and with `limit.deadline` when its time is up.
    func chargeRegex(_ steps: UInt64, pattern: String) throws(Diagnostic) {
        guard steps <= regexStepsLeft else {
            regexStepsLeft = 0
            throw Diagnostic(
                .limit.regex,
                "the regular expression /\(pattern)/ used up the query's total regex budget of "
                    + "\(limits.regexTotalLimit) steps over its rows; simplify the pattern, narrow "
                    + "the query or raise the regex limits")
        }
        regexStepsLeft -= steps
        try checkDeadline()
    }
}
