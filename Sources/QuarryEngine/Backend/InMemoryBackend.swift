import QuarryCore

/// The in-memory engine behind the backend interface. The engine is `Sendable` and reads
/// concurrently (docs/ARCHITECTURE.md#concurrency): queries from many tasks run at once, each
/// on the version of the data published when it starts, and a batch of writes is published
/// whole.
public final class InMemoryBackend: QueryBackend {
    private let engine: Engine

    public init(
        database: Database, limits: Limits = .default,
        now: @escaping @Sendable () -> Int64 = ReferenceEvaluator.systemClock,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        engine = Engine(database: database, limits: limits, now: now, random: random)
    }

    /// Serves an engine already built, such as one loaded straight from a data file
    /// (`Engine.load`).
    public init(engine: Engine) { self.engine = engine }

    public var backendName: String { "memory" }

    public func catalog() async throws(Diagnostic) -> [ClassCatalog] {
        engine.replicas.read { r in
            let store = r.store
            return store.classNames.map { name in
                let registry = store.indexes[name]
                let values = registry?.values.map { IndexDeclaration(kind: $0.kind, key: $0.path) } ?? []
                let geo = registry?.geo.map { IndexDeclaration(kind: .geo, key: $0.path) } ?? []
                return ClassCatalog(name: name, objectCount: store.objectCount(in: name), indexes: values + geo)
            }
        }
    }

    public func run(_ query: Query, variables: [String: Value]) async throws(Diagnostic) -> QueryResult {
        try engine.run(query, variables: variables)
    }

    /// The queries on one published version (`Engine.read`).
    public func run(_ queries: [Query], variables: [String: Value]) async throws(Diagnostic) -> [QueryResult] {
        try engine.read { (s) throws(Diagnostic) in
            var results: [QueryResult] = []
            for query in queries { results.append(try s.run(query, variables: variables)) }
            return results
        }
    }

    public func explain(_ query: Query, variables: [String: Value]) async throws(Diagnostic) -> BackendExplanation {
        let report = try engine.explain(query, variables: variables)
        return BackendExplanation(
            backend: backendName, statement: nil, parameterCount: 0, residual: [],
            orderPushed: true, pagePushed: true,
            plan: report.description.split(separator: "\n").map(String.init))
    }

    /// Applies the changes in order, published as one. The batch is checked before any of it
    /// is applied (a class made too sparse is refused, `Engine.applyWithinLimits`) and the
    /// engine's changes cannot fail, so it is all-or-nothing by construction.
    public func write(_ changes: [StoreChange]) async throws(Diagnostic) {
        try engine.applyWithinLimits(changes)
    }

    public func createIndex(_ kind: IndexKind, on key: FieldPath, in className: String) async throws(Diagnostic) {
        try engine.createIndex(kind, on: key, in: className)
    }

    /// Built side by side, and refused whole (`Engine.createIndexes`).
    public func createIndexes(
        _ indexes: [(kind: IndexKind, key: FieldPath)], in className: String
    ) async throws(Diagnostic) {
        try engine.createIndexes(indexes, in: className)
    }
}
