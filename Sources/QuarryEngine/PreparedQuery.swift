import QuarryCore

extension Engine {
    /// Checks a query and plans it now, so that running it later does only the work of the
    /// run (the plan stays cached until the data or the indexes change).
    public func prepare(_ query: Query, variables: Set<String> = []) throws(Diagnostic) -> PreparedQuery {
        try prepare(query, variables: variables, known: nil)
    }

    /// `prepare` of a query whose plan shape the caller may have (a text template's; nil: it
    /// is found here).
    package func prepare(
        _ query: Query, variables: Set<String> = [], known: KnownShape?
    ) throws(Diagnostic) -> PreparedQuery {
        let known = known ?? KnownShape(query)
        try replicas.read { (r) throws(Diagnostic) in
            _ = try r.checkOut(query, variables: variables, known: known, keeping: true)
        }
        return PreparedQuery(engine: self, query: query, known: known)
    }
}

/// A query checked and planned by `Engine.prepare`.
public struct PreparedQuery: Sendable {
    public let engine: Engine
    public let query: Query
    /// The query's plan shape, found once for all its runs.
    let known: KnownShape?

    /// Runs the query (as `Engine.run`).
    public func run(variables: [String: Value] = [:]) throws(Diagnostic) -> QueryResult {
        try engine.run(query, variables: variables, known: known)
    }
}
