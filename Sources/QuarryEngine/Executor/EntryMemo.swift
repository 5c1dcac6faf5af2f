import QuarryCore

/// A string test's answers per dictionary entry of a coded column, computed the first time a
/// row with that entry is tested: a column of names or tags holds few distinct strings, so an
/// expensive test (LIKE, regex, folded substring, text search) runs once per distinct string.
/// Entries keep their bytes for the column's life, so answers stay valid for the node's.
final class EntryMemo {
    /// Per entry: 0 not yet tested, 1 false, 2 true. Read and written once per row: unchecked,
    /// since a plan (and its memos) is lent to one reader at a time (docs/ARCHITECTURE.md#concurrency),
    /// and a dynamic exclusivity check per row was 2 % of a scan's time.
    @exclusivity(unchecked) private var answers: [UInt8] = []
    /// The pattern the answers are for, when the test's pattern changes between executions.
    private var pattern: [UInt8] = []

    /// The regex steps an entry's test charged the budget, for entries that charged any: the
    /// reference tests every row, so a row answered from here is charged them again.
    private var charges: [Int: UInt64] = [:]
    /// Whether `charges` holds any, read per row (unchecked, as `answers`).
    @exclusivity(unchecked) private var charging = false

    /// Forgets the answers when they were for another pattern than `p` (a test that reads its
    /// pattern from each execution, docs/ARCHITECTURE.md#plan-parameters).
    func answering(_ p: [UInt8]) {
        guard p != pattern else { return }
        answers.removeAll(keepingCapacity: true)
        charges.removeAll()
        charging = false
        pattern = p
    }

    @inline(__always)
    func answer(_ s: StringSpans, _ row: Int, _ test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        guard s.isCoded else { return test(s.span(row)) }
        let e = s.entry(row)
        if e >= answers.count { answers += [UInt8](repeating: 0, count: s.entryCount - answers.count) }
        let known = answers[e]
        if known != 0 { return known == 2 }
        let r = test(s.span(row))
        answers[e] = r ? 2 : 1
        return r
    }

    /// `answer` for tests that may fail (regex budgets): failures are not remembered, so each
    /// row that reaches the entry fails as in the reference. A regular expression's test also
    /// charges `budget` the steps of a match past the ladder's first limit: a row answered from
    /// the memo is charged what its entry's match took, as the reference, which matches every
    /// row, charges it (a backtracking name repeated on a million rows runs the budget out as
    /// there).
    @inline(__always)
    func answer(
        _ s: StringSpans, _ row: Int, charging budget: QueryBudget? = nil, pattern: String = "",
        _ test: (UnsafeBufferPointer<UInt8>) throws(Diagnostic) -> Bool
    ) throws(Diagnostic) -> Bool {
        guard s.isCoded else { return try test(s.span(row)) }
        let e = s.entry(row)
        if e >= answers.count { answers += [UInt8](repeating: 0, count: s.entryCount - answers.count) }
        let known = answers[e]
        if known != 0 {
            if charging, let budget { try charge(e, budget, pattern) }
            return known == 2
        }
        let mark = budget?.regexMark ?? 0
        let r = try test(s.span(row))
        if let budget { note(e, budget.regexSteps(since: mark)) }
        answers[e] = r ? 2 : 1
        return r
    }

    // Out of line: rare, and kept out of the scan's per-row closure (see `QueryBudget`).
    @inline(never)
    private func charge(_ entry: Int, _ budget: QueryBudget, _ pattern: String) throws(Diagnostic) {
        if let steps = charges[entry] { try budget.chargeRegex(steps, pattern: pattern) }
    }

    @inline(never)
    private func note(_ entry: Int, _ steps: UInt64) {
        guard steps > 0 else { return }
        charges[entry] = steps
        charging = true
    }
}
