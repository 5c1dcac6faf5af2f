// The front door's `async` entry points (docs/API.md#async): the same calls as the synchronous
// ones, run inside the calling task on the caller's executor (`nonisolated(nonsending)`), so an
// actor that owns an engine awaits them without sending the engine anywhere. The executor checks the task between batches of rows, so
// cancelling the task ends a running query with `query.cancelled`; the engine's
// `Limits.deadlineSeconds` ends one that runs too long with `limit.deadline`.

extension Engine {
    nonisolated(nonsending) public func find(
        _ className: String, where text: String, dialect: Dialect = .sql, profile: Profile = .exact,
        arguments: [PredicateArgument] = [], variables: [String: Value] = [:]
    ) async throws(Diagnostic) -> [Record] {
        try Self.checkCancellation()
        let query = try compile(text, on: className, dialect: dialect, profile: profile, arguments: arguments)
        return try run(query, variables: variables).records
    }

    nonisolated(nonsending) public func first(
        _ className: String, where text: String, dialect: Dialect = .sql, profile: Profile = .exact,
        arguments: [PredicateArgument] = [], variables: [String: Value] = [:]
    ) async throws(Diagnostic) -> Record? {
        try Self.checkCancellation()
        let query = try compile(text, on: className, dialect: dialect, profile: profile, arguments: arguments)
        return try run(Self.firstOnly(query), variables: variables).records.first
    }

    nonisolated(nonsending) public func count(
        _ className: String, where text: String, dialect: Dialect = .sql, profile: Profile = .exact,
        arguments: [PredicateArgument] = [], variables: [String: Value] = [:]
    ) async throws(Diagnostic) -> Int {
        try Self.checkCancellation()
        let query = try compile(text, on: className, dialect: dialect, profile: profile, arguments: arguments)
        return try countMatches(query, variables: variables)
    }

    nonisolated(nonsending) public func explain(
        _ className: String, where text: String, dialect: Dialect = .sql, profile: Profile = .exact,
        arguments: [PredicateArgument] = [], variables: [String: Value] = [:], analyze: Bool = false
    ) async throws(Diagnostic) -> ExplainReport {
        try Self.checkCancellation()
        let query = try compile(text, on: className, dialect: dialect, profile: profile, arguments: arguments)
        return try explain(query, variables: variables, analyze: analyze)
    }

    nonisolated(nonsending) public func find<T: Decodable>(
        _ type: T.Type, in className: String? = nil, where text: String, dialect: Dialect = .sql,
        profile: Profile = .exact, arguments: [PredicateArgument] = [], variables: [String: Value] = [:]
    ) async throws(Diagnostic) -> [T] {
        try Self.checkCancellation()
        let name = className ?? storedClassName(of: T.self)
        let query = try compile(text, on: name, dialect: dialect, profile: profile, arguments: arguments)
        return try Self.decode(T.self, try run(query, variables: variables).records, className: name)
    }

    nonisolated(nonsending) public func first<T: Decodable>(
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
