// The front door's `async` entry points (docs/API.md#async): the same calls as the synchronous
// ones, run inside the calling task. The executor checks the task between batches of rows, so
// cancelling the task ends a running query with `query.cancelled`; the engine's
// `Limits.deadlineSeconds` ends one that runs too long with `limit.deadline`.

extension Engine {
    public func find(
        _ className: String, where text: String, dialect: Dialect = .sql, profile: Profile = .exact,
        arguments: [PredicateArgument] = [], variables: [String: Value] = [:]
    ) async throws(Diagnostic) -> [Record] {
        try Self.checkCancellation()
        let query = try compile(text, on: className, dialect: dialect, profile: profile, arguments: arguments)
        return try run(query, variables: variables).records
    }

    public func first(
        _ className: String, where text: String, dialect: Dialect = .sql, profile: Profile = .exact,
        arguments: [PredicateArgument] = [], variables: [String: Value] = [:]
    ) async throws(Diagnostic) -> Record? {
        try Self.checkCancellation()
        let query = try compile(text, on: className, dialect: dialect, profile: profile, arguments: arguments)
        return try run(Self.firstOnly(query), variables: variables).records.first
    }

    public func count(
        _ className: String, where text: String, dialect: Dialect = .sql, profile: Profile = .exact,
        arguments: [PredicateArgument] = [], variables: [String: Value] = [:]
    ) async throws(Diagnostic) -> Int {
        try Self.checkCancellation()
        let query = try compile(text, on: className, dialect: dialect, profile: profile, arguments: arguments)
        return try countMatches(query, variables: variables)
    }

    public func explain(
        _ className: String, where text: String, dialect: Dialect = .sql, profile: Profile = .exact,
        arguments: [PredicateArgument] = [], variables: [String: Value] = [:], analyze: Bool = false
    ) async throws(Diagnostic) -> ExplainReport {
        try Self.checkCancellation()
        let query = try compile(text, on: className, dialect: dialect, profile: profile, arguments: arguments)
        return try explain(query, variables: variables, analyze: analyze)
    }

    public func find<T: Decodable>(
        _ type: T.Type, in className: String? = nil, where text: String, dialect: Dialect = .sql,
        profile: Profile = .exact, arguments: [PredicateArgument] = [], variables: [String: Value] = [:]
    ) async throws(Diagnostic) -> [T] {
        try Self.checkCancellation()
        let name = className ?? storedClassName(of: T.self)
        let query = try compile(text, on: name, dialect: dialect, profile: profile, arguments: arguments)
        return try Self.decode(T.self, try run(query, variables: variables).records, className: name)
    }

    public func first<T: Decodable>(
        _ type: T.Type, in className: String? = nil, where text: String, dialect: Dialect = .sql,
        profile: Profile = .exact, arguments: [PredicateArgument] = [], variables: [String: Value] = [:]
    ) async throws(Diagnostic) -> T? {
        try Self.checkCancellation()
        let name = className ?? storedClassName(of: T.self)
        let query = try compile(text, on: name, dialect: dialect, profile: profile, arguments: arguments)
        return try Self.decode(T.self, try run(Self.firstOnly(query), variables: variables).records, className: name)
            .first
    }

    /// A query whose task is already cancelled does not start.
    static func checkCancellation() throws(Diagnostic) {
        if Task.isCancelled { throw Diagnostic(.query.cancelled, "the query was cancelled before it started") }
    }
}
