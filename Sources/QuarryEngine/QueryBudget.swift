import QuarryCore
import Synchronization

/// What one query run may still spend: time until its deadline and PCRE2 steps of its total
/// regex budget (`Limits.regexTotalLimit`). One budget is shared by the outer query, its inner
/// queries and the reference evaluation behind the engine, so a pattern that is merely slow on
/// each row still ends the query once the rows add up (docs/SEMANTICS.md, limits).
///
/// The threads of a parallel scan each charge a budget of their own, `forked` from the run's,
/// whose steps all go to one shared count (docs/ARCHITECTURE.md#parallel-scans).
final class QueryBudget {
    let limits: Limits
    private let deadline: ContinuousClock.Instant?
    /// The regex steps this budget may take: the query's total, or for a fork what the run's
    /// budget had left when the scan began.
    private let regexAllowance: UInt64
    /// The regex steps charged so far (a fork's go to `shared` too).
    private var spent: UInt64 = 0
    /// A fork's shared count of steps, nil for the run's own budget.
    private let shared: SharedRegexSteps?

    init(limits: Limits) {
        self.limits = limits
        regexAllowance = limits.regexTotalLimit
        deadline = limits.deadlineFromNow()
        shared = nil
    }

    private init(_ parent: QueryBudget, shared: SharedRegexSteps) {
        limits = parent.limits
        deadline = parent.deadline
        regexAllowance = shared.available
        self.shared = shared
    }

    /// A budget for one thread of a parallel scan: the same deadline, and regex steps charged
    /// to `shared`, which fails every thread once the steps all threads charged pass what this
    /// budget had left. A scan whose threads passed it is run again in order on this budget
    /// (which then fails at the row the order reaches it); one that did not is charged its
    /// steps with `absorb`.
    func forked(sharing shared: SharedRegexSteps) -> QueryBudget { QueryBudget(self, shared: shared) }

    /// The steps for which a parallel scan's threads shared `forked` budgets; each can charge
    /// what the budget had left when the scan began.
    func sharedSteps() -> SharedRegexSteps { SharedRegexSteps(available: regexAllowance - spent) }

    /// Charges the steps a parallel scan's threads took, when they stayed within the budget.
    func absorb(_ shared: SharedRegexSteps) { spent += shared.charged }

    /// Where the regex budget stands, for `rewind`.
    var regexMark: UInt64 { spent }

    /// The regex steps charged since `mark`.
    func regexSteps(since mark: UInt64) -> UInt64 { spent - mark }

    /// Gives back the regex steps charged since `mark`: a batch that failed is redone row by
    /// row to find the row the reference fails on first, and the steps its rows took in the
    /// failed pass (past that row, in other filters) must not count against the redo.
    func rewind(to mark: UInt64) {
        shared?.giveBack(spent - mark)
        spent = mark
    }

    /// Fails with `limit.deadline` once the time budget is spent. Out of line, as `chargeRegex`:
    /// inlined into a scan's per-row closure, the clock instant (a resilient type, sized at run
    /// time) made the closure look its size up and set room for it aside on every row, which
    /// took a regex scan of 1M rows from 10 to 19 ms.
    @inline(never)
    func checkDeadline() throws(Diagnostic) {
        if let deadline, ContinuousClock.now >= deadline { throw limits.deadlineExceeded }
    }

    /// Takes `steps` from the regex budget for a match of `pattern`; fails with `limit.regex`
    /// when the query has no more, and with `limit.deadline` when its time is up.
    @inline(never)
    func chargeRegex(_ steps: UInt64, pattern: String) throws(Diagnostic) {
        let allowed = shared?.charge(steps) ?? (steps <= regexAllowance - spent)
        guard allowed else {
            // The run's own budget is spent for good (a fork's count refuses from now on).
            if shared == nil { spent = regexAllowance }
            throw regexBudgetSpent(pattern)
        }
        spent += steps
        try checkDeadline()
    }

    private func regexBudgetSpent(_ pattern: String) -> Diagnostic {
        Diagnostic(
            .limit.regex,
            "the regular expression /\(pattern)/ used up the query's total regex budget of "
                + "\(limits.regexTotalLimit) steps over its rows; simplify the pattern, narrow "
                + "the query or raise the regex limits")
    }
}

/// The regex steps the threads of one parallel scan charged, against what their run's budget
/// had left when the scan began.
final class SharedRegexSteps: Sendable {
    let available: UInt64
    private let steps = Atomic<UInt64>(0)
    private let refused = Atomic<Bool>(false)

    init(available: UInt64) { self.available = available }

    /// Adds `n` steps; false, from then on for every thread, once the total passes what was
    /// available.
    func charge(_ n: UInt64) -> Bool {
        guard !refused.load(ordering: .relaxed) else { return false }
        var current = steps.load(ordering: .relaxed)
        while true {
            let (sum, overflow) = current.addingReportingOverflow(n)
            guard !overflow, sum <= available else {
                refused.store(true, ordering: .relaxed)
                return false
            }
            let (done, seen) = steps.compareExchange(expected: current, desired: sum, ordering: .relaxed)
            if done { return true }
            current = seen
        }
    }

    /// Takes back `n` of the steps charged (a thread's batch that is redone). A refusal stays:
    /// the scan is run again in order anyway.
    func giveBack(_ n: UInt64) { steps.subtract(n, ordering: .relaxed) }

    /// The steps charged (at most `available`).
    var charged: UInt64 { steps.load(ordering: .relaxed) }
    /// Whether a thread was refused steps: the scan's answer is not the one in row order.
    var exceeded: Bool { refused.load(ordering: .relaxed) }
}
