// Running builder queries: the SDK-style execution methods, on the engine.
// (QuarryParseREST builds queries without knowing the engine; the umbrella module joins the two.)

extension QueryBuilder {
    /// The matching objects, in result order (`findObjects`).
    public func find(in engine: Engine, profile: Profile = .exact) throws(Diagnostic) -> [Record] {
        try engine.run(build(profile: profile, limits: engine.limits)).records
    }

    /// The first matching object, or nil when none matches (`getFirstObject`).
    public func first(in engine: Engine, profile: Profile = .exact) throws(Diagnostic) -> Record? {
        try engine.run(buildFirst(profile: profile, limits: engine.limits)).records.first
    }

    /// The number of matching objects; skip and limit do not apply (`countObjects`).
    public func count(in engine: Engine, profile: Profile = .exact) throws(Diagnostic) -> Int {
        try engine.countMatches(buildCount(profile: profile, limits: engine.limits), variables: [:])
    }

    /// The matching objects decoded into `T` (`ValueDecoder`).
    public func find<T: Decodable>(_ type: T.Type, in engine: Engine, profile: Profile = .exact) throws(Diagnostic)
        -> [T]
    {
        try Engine.decode(T.self, find(in: engine, profile: profile), className: className)
    }

    /// The first matching object decoded into `T`; nil when none matches.
    public func first<T: Decodable>(_ type: T.Type, in engine: Engine, profile: Profile = .exact) throws(Diagnostic)
        -> T?
    {
        try Engine.decode(T.self, first(in: engine, profile: profile).map { [$0] } ?? [], className: className).first
    }

    // MARK: - async, in the calling task (docs/API.md#async)

    public func find(in engine: Engine, profile: Profile = .exact) async throws(Diagnostic) -> [Record] {
        try Engine.checkCancellation()
        return try engine.run(build(profile: profile, limits: engine.limits)).records
    }

    public func first(in engine: Engine, profile: Profile = .exact) async throws(Diagnostic) -> Record? {
        try Engine.checkCancellation()
        return try engine.run(buildFirst(profile: profile, limits: engine.limits)).records.first
    }

    public func count(in engine: Engine, profile: Profile = .exact) async throws(Diagnostic) -> Int {
        try Engine.checkCancellation()
        return try engine.countMatches(buildCount(profile: profile, limits: engine.limits), variables: [:])
    }

    public func find<T: Decodable>(_ type: T.Type, in engine: Engine, profile: Profile = .exact)
        async throws(Diagnostic)
        -> [T]
    {
        try Engine.checkCancellation()
        let records = try engine.run(build(profile: profile, limits: engine.limits)).records
        return try Engine.decode(T.self, records, className: className)
    }

    // MARK: - On a Database

    /// The matching objects of a database, in result order: runs on an engine built over
    /// `database` for this one query (build an `Engine` once to run many).
    public func find(
        in database: Database, profile: Profile = .exact,
        limits: Limits = .default
    ) throws(Diagnostic) -> [Record] {
        try find(in: Engine(database: database, limits: limits), profile: profile)
    }

    /// The first matching object of a database, or nil (on an engine built for this query).
    public func first(
        in database: Database, profile: Profile = .exact,
        limits: Limits = .default
    ) throws(Diagnostic) -> Record? {
        try first(in: Engine(database: database, limits: limits), profile: profile)
    }

    /// The number of matching objects of a database (on an engine built for this query).
    public func count(
        in database: Database, profile: Profile = .exact,
        limits: Limits = .default
    ) throws(Diagnostic) -> Int {
        try count(in: Engine(database: database, limits: limits), profile: profile)
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
}
