import QuarryCore

/// What one `Engine.run` shares between the outer query and its inner queries: the clock
/// reading, the variables, the deadline, the reference evaluation that fallbacks and result
/// shaping use, and the inner queries' results.
final class RunState {
    let store: ColumnStore
    let limits: Limits
    let variables: [String: Value]
    let nowMillis: Int64
    let random: @Sendable () -> Double
    /// Whether nodes time themselves (EXPLAIN ANALYZE).
    let timing: Bool
    /// Threads a full scan may use (docs/ARCHITECTURE.md#parallel-scans).
    let parallelism: ScanParallelism
    /// The deadline and total regex budget, shared with `evaluation`.
    let budget: QueryBudget
    /// Inner queries already run, by query.
    var inner: [Query: InnerOutcome] = [:]
    /// What each query of an analyzed run did.
    var executions: [Query: ExecutionStats] = [:]

    init(
        store: ColumnStore, limits: Limits, variables: [String: Value], nowMillis: Int64,
        random: @escaping @Sendable () -> Double, timing: Bool, parallelism: ScanParallelism = .sequential,
        budget: QueryBudget? = nil
    ) {
        self.store = store
        self.limits = limits
        self.variables = variables
        self.nowMillis = nowMillis
        self.random = random
        self.timing = timing
        self.parallelism = parallelism
        self.budget = budget ?? QueryBudget(limits: limits)
    }

    /// The same run for one thread of a parallel scan: its clock reading, variables and inner
    /// results, with its own budget (`QueryBudget.forked`), reference evaluation and caches
    /// (they are not shared between threads).
    func forked(budget: QueryBudget) -> RunState {
        let fork = RunState(
            store: store, limits: limits, variables: variables, nowMillis: nowMillis, random: random, timing: timing,
            parallelism: .sequential, budget: budget)
        fork.inner = inner
        return fork
    }

    /// The reference evaluation of this run (same clock, variables and limits), created on
    /// first use: leaves the fast path does not compile, inner queries inside them, and the
    /// shaping of result objects go through it.
    var evaluation: Evaluation {
        if let e = createdEvaluation { return e }
        let e = Evaluation(
            source: store, limits: limits, variables: variables, nowMillis: nowMillis, random: random, budget: budget)
        for (query, outcome) in inner {
            if case .rows(_, let records) = outcome { e.innerResults[query] = records }
        }
        createdEvaluation = e
        return e
    }
    private var createdEvaluation: Evaluation?

    /// Fails with `limit.deadline` once the time budget is spent, and with `query.cancelled`
    /// when the surrounding task is cancelled. Called once per batch.
    func checkpoint() throws(Diagnostic) {
        try budget.checkDeadline()
        if Task.isCancelled { throw Diagnostic(.query.cancelled, "the query was cancelled") }
    }

    private var innerSets: [Query: RowSet] = [:]

    /// The rows of `targetClass` an inner query yielded, as a set (empty when the inner query
    /// is on another class, whose objects a pointer into `targetClass` never equals).
    func innerRowSet(_ query: Query, targetClass: String) -> RowSet? {
        if let s = innerSets[query] { return s }
        guard case .rows(let rows, _)? = inner[query] else { return nil }
        let s =
            query.className == targetClass
            ? RowSet(rows: rows, capacity: store.table(targetClass)?.rowCount ?? 0) : RowSet(rows: [], capacity: 0)
        innerSets[query] = s
        return s
    }

    /// Records an inner query's outcome; the reference evaluation sees the same rows.
    func setInner(_ query: Query, _ outcome: InnerOutcome) {
        inner[query] = outcome
        if case .rows(_, let records) = outcome { createdEvaluation?.innerResults[query] = records }
    }
}

/// One query's execution in an analyzed run (EXPLAIN ANALYZE).
final class ExecutionStats {
    let plan: Plan
    var total: Duration = .zero
    var sortTime: Duration = .zero
    var sorted = false
    /// Rows that passed the filter (before the page).
    var matched = 0
    /// Rows returned (or counted).
    var returned = 0

    init(plan: Plan) { self.plan = plan }
}

/// An inner query's result for this run: its rows (row numbers, and the objects built from
/// them when read, after its order, skip and limit), or the error it failed with.
enum InnerOutcome {
    case rows([Int], InnerObjects)
    case failed(Diagnostic)
}

/// One query's execution within a run: its class and the run.
final class ExecContext {
    let run: RunState
    let table: ClassTable
    let className: String
    /// The query's literals when its plan was made for others of the same shape: the plan's
    /// parametric leaves read them (docs/ARCHITECTURE.md#plan-parameters).
    let literals: [Value]?
    /// What leaves made for this execution, by leaf: of `literals` (an IN list's set, an element
    /// test, a fallback predicate with them put in), of the run's inner results (`SelectLeaf`);
    /// made once per execution, not once per batch.
    private var made: [MadeKey: Any] = [:]
    /// A leaf and the type it made (a parametric leaf makes its test and its fallback predicate).
    private struct MadeKey: Hashable {
        let leaf: ObjectIdentifier
        let type: ObjectIdentifier
    }

    /// `make()`, made the first time `leaf` asks for a `T` in this execution.
    func made<T>(by leaf: AnyObject, _ make: () -> T) -> T {
        let key = MadeKey(leaf: ObjectIdentifier(leaf), type: ObjectIdentifier(T.self))
        // Unwrapped before the cast: a missing entry cast to an optional `T` would be a nil `T`.
        if let entry = made[key], let known = entry as? T { return known }
        let value = make()
        made[key] = value
        return value
    }

    init(run: RunState, table: ClassTable, literals: [Value]? = nil) {
        self.run = run
        self.table = table
        self.className = table.name
        self.literals = literals
    }

    /// The reference's answer for one row, on a record built from the columns with the fields
    /// the predicate reads (all of them for SELF).
    @inline(never)
    func evaluate(_ predicate: Filter, row: Int) throws(Diagnostic) -> Bool {
        if predicate != lastPredicate {
            lastPredicate = predicate
            lastFields = FieldsRead.of(predicate).map { Array($0) }
        }
        let record = lastFields.map { table.record(row, only: $0) } ?? table.record(row)
        return try run.evaluation.evaluate(predicate, Scope(record: record, className: className))
    }
    /// The fields of the last predicate evaluated (fallback nodes ask for one predicate over
    /// many rows in a row).
    private var lastPredicate: Filter?
    private var lastFields: [String]?
}
