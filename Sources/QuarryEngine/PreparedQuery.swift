import QuarryCore

extension Engine {
    /// Checks a query and plans it now, so that running it later does only the work of the
    /// run (the plan stays cached until the data or the indexes change).
    public func prepare(_ query: Query, variables: Set<String> = []) throws(Diagnostic) -> PreparedQuery {
        try replicas.read { (r) throws(Diagnostic) in r.giveBack(try r.checkOut(query, variables: variables)) }
        return PreparedQuery(engine: self, query: query)
    }
}

/// A query checked and planned by `Engine.prepare`.
public struct PreparedQuery: Sendable {
    public let engine: Engine
    public let query: Query

    /// Runs the query (as `Engine.run`).
    public func run(variables: [String: Value] = [:]) throws(Diagnostic) -> QueryResult {
        try engine.run(query, variables: variables)
    }
}
