// Running builder queries: the SDK-style execution methods, on the reference evaluator.
// (QuarryParseREST builds queries without knowing the engine; the umbrella module joins the two.)

extension QueryBuilder {
    /// The matching objects, in result order (`findObjects`).
    public func find(
        in database: Database, profile: Profile = .exact,
        limits: Limits = .default
    ) throws(Diagnostic) -> [Record] {
        try run(build(profile: profile, limits: limits), in: database, limits: limits).records
    }

    /// The first matching object, or nil when none matches (`getFirstObject`).
    public func first(
        in database: Database, profile: Profile = .exact,
        limits: Limits = .default
    ) throws(Diagnostic) -> Record? {
        try run(buildFirst(profile: profile, limits: limits), in: database, limits: limits).records.first
    }

    /// The number of matching objects; skip and limit do not apply (`countObjects`).
    public func count(
        in database: Database, profile: Profile = .exact,
        limits: Limits = .default
    ) throws(Diagnostic) -> Int {
        let result = try run(buildCount(profile: profile, limits: limits), in: database, limits: limits)
        if case .count(let n) = result { return n }
        return result.records.count
    }

    /// Whether one object satisfies the query's constraints, as a live query or a conditional
    /// save asks. Pointers and inner queries resolve against `database`.
    public func matches(
        _ record: Record, in database: Database = Database(), profile: Profile = .exact,
        limits: Limits = .default
    ) throws(Diagnostic) -> Bool {
        let query = try build(profile: profile, limits: limits)
        return try ReferenceEvaluator(database: database, limits: limits)
            .matches(record, className: query.className, predicate: query.predicate)
    }

    private func run(_ query: Query, in database: Database, limits: Limits) throws(Diagnostic) -> QueryResult {
        return try ReferenceEvaluator(database: database, limits: limits).run(query)
    }
}
