import QuarryCore

/// What a backend that pushes queries down to a database needs from Quarry to answer exactly
/// as the reference evaluator does (docs/STORAGE.md): the query checked as the reference
/// checks it, the predicate normalized and split into conjuncts, which conjuncts may throw
/// (those stay residual, so errors surface on the rows the reference would see them on), and
/// the finishing of a query on the candidates the database returned — the residual, then
/// order, count or page, includes and projection.
public struct PushdownEvaluator {
    let source: StoredObjectsSource
    let evaluation: Evaluation
    public let limits: Limits

    /// - Parameters:
    ///   - objects: the snapshot the candidates came from.
    ///   - now: the clock, read once here (as the reference reads it once per query).
    public init(
        objects: any StoredObjects, limits: Limits, variables: [String: Value],
        now: @Sendable () -> Int64, random: @escaping @Sendable () -> Double
    ) {
        source = StoredObjectsSource(objects)
        self.limits = limits
        evaluation = Evaluation(source: source, limits: limits, variables: variables, nowMillis: now(), random: random)
    }

    /// Checks the query as `ReferenceEvaluator.run` does before it reads a row.
    public func validate(_ query: Query) throws(Diagnostic) {
        var validator = QueryValidator(source: source, limits: limits, variables: Set(evaluation.variables.keys))
        try validator.check(query)
        try surfaceFailure()
    }

    /// The predicate normalized (rewrites valid for any data) and split into its top-level
    /// conjuncts, in evaluation order.
    public static func conjuncts(of predicate: Filter, limits: Limits) -> [Filter] {
        var normalizer = Normalizer(facts: NoKeyFacts(), fallibility: Fallibility(facts: NoKeyFacts()), limits: limits)
        let normalized = normalizer.normalize(predicate)
        if case .and(let parts) = normalized { return parts }
        if normalized == .constant(true) { return [] }
        return [normalized]
    }

    /// Whether evaluating the predicate may throw on some row (a regex, a date to parse, an
    /// inner query that may fail). Such a conjunct stays residual, and so does every conjunct
    /// after it.
    ///
    /// - Parameters:
    ///   - className: the class the predicate tests.
    ///   - mayReachDate: whether a key path of a class may reach a date in the backend's data
    ///     (a string compared with it under `.sql` must then parse as one); answer true when
    ///     unsure. An inner query's predicate is judged with its own class's answers: without
    ///     them `country = 'BR'` might meet a date and throw, and the inner query would stay
    ///     residual (docs/STORAGE.md#inner-queries).
    ///   - objectCount: the objects of a class in the snapshot, which bounds what an inner
    ///     query can yield; nil when unknown.
    public func mayThrow(
        _ predicate: Filter, of className: String,
        mayReachDate: @escaping (FieldPath, _ className: String) -> Bool,
        objectCount: @escaping (String) -> Int?
    ) -> Bool {
        var fallibility = Fallibility(facts: BackendKeyFacts(mayReachDate: { mayReachDate($0, className) }))
        let limits = limits
        let evaluation = evaluation
        // An inner query cannot fail when its own predicate cannot throw, its page is valid,
        // and it cannot yield more than `maxInnerRows` rows.
        fallibility.innerSucceeds = { inner in
            guard (inner.skip ?? 0) >= 0, (inner.limit ?? 0) >= 0,
                !mayThrow(inner.predicate, of: inner.className, mayReachDate: mayReachDate, objectCount: objectCount)
            else { return false }
            let bound = Swift.min(evaluation.innerLimit(inner) ?? .max, objectCount(inner.className) ?? .max)
            return bound <= limits.maxInnerRows
        }
        return fallibility.mayThrow(predicate)
    }

    /// Renders a predicate as EXPLAIN shows it.
    public static func render(_ predicate: Filter) -> String { PredicateText.render(predicate) }

    /// Finishes a query on the candidates the database returned for its pushed conjuncts.
    ///
    /// - Parameters:
    ///   - candidates: the objects satisfying the pushed conjuncts, in insertion order, or in
    ///     the query's order when `ordered`, and already paged when `paged`.
    ///   - residual: the conjuncts left to Quarry, in evaluation order.
    ///   - passed: a residual conjunct the database found to hold, at no charge, on every
    ///     candidate but the ones it names; Quarry tests it on those only.
    public func finish(
        _ query: Query, candidates: [Record], residual: [Filter], passed: PassedConjunct? = nil,
        ordered: Bool, paged: Bool
    ) throws(Diagnostic) -> QueryResult {
        var residual = residual
        var passed = passed
        if let p = passed, p.exceptRows.isEmpty {
            residual.remove(at: p.index)
            passed = nil
        }
        var rows: [Record]
        if residual.isEmpty {
            // Every candidate matches: the array is passed on, not copied record by record
            // (each copy retains a record's dictionary, field order and objectId).
            for _ in candidates { try evaluation.visitRow() }
            rows = candidates
        } else {
            rows = []
            rows.reserveCapacity(candidates.count)
            let scope = query.className
            var nextException = 0
            candidateLoop: for (position, record) in candidates.enumerated() {
                try evaluation.visitRow()
                var skipped = -1
                if let passed {
                    if nextException < passed.exceptRows.count, passed.exceptRows[nextException] == position {
                        nextException += 1
                    } else {
                        skipped = passed.index
                    }
                }
                for (i, part) in residual.enumerated() where i != skipped {
                    guard try evaluation.evaluate(part, Scope(record: record, className: scope)) else {
                        continue candidateLoop
                    }
                }
                rows.append(record)
            }
        }
        try surfaceFailure()
        if query.count { return .count(rows.count) }
        if !ordered { rows = try evaluation.sorted(rows, query) }
        if !paged {
            var limit = query.limit ?? query.profile.defaultLimit
            if let l = limit, let cap = query.profile.maxLimit, l > cap { limit = cap }
            rows = try evaluation.page(rows, skip: query.skip, limit: limit)
        }
        if !query.includes.isEmpty || query.keys != nil || !query.excludeKeys.isEmpty {
            rows = rows.map { evaluation.shape($0, query) }
        }
        try surfaceFailure()
        return .records(rows)
    }

    /// Key facts that know only which paths may reach a date.
    private struct BackendKeyFacts: KeyFacts {
        let mayReachDate: (FieldPath) -> Bool
        func reachableTypes(_ path: FieldPath) -> UInt16? { mayReachDate(path) ? nil : ~Value.date(0).typeBit }
        func isSingleValued(_ path: FieldPath) -> Bool { false }
    }

    private func surfaceFailure() throws(Diagnostic) {
        if let failure = source.failure { throw failure }
    }
}

/// No knowledge of the data: only rewrites valid for every database (a backend's data is not
/// the column store's, whose statistics `StoreKeyFacts` reads).
struct NoKeyFacts: KeyFacts {
    func reachableTypes(_ path: FieldPath) -> UInt16? { nil }
    func isSingleValued(_ path: FieldPath) -> Bool { false }
}

/// A residual conjunct the database already found to hold on the rows it returned, deciding it
/// as the reference would and at no charge to the query's budgets, except on the rows it names:
/// there Quarry tests it (docs/STORAGE.md#regular-expressions).
public struct PassedConjunct: Sendable, Equatable {
    /// Its place among the residual conjuncts.
    public let index: Int
    /// Ascending positions among the candidates where the database did not decide it.
    public let exceptRows: [Int]

    public init(index: Int, exceptRows: [Int]) {
        self.index = index
        self.exceptRows = exceptRows
    }
}
