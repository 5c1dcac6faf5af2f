import QuarryCore

/// Storage a server can call from many tasks at once: the in-memory engine
/// (`InMemoryBackend`), the SQLite store (`QuarrySQLite.SQLiteStore`) and any other backend
/// answer the same questions, so nothing above this interface knows which one it talks to
/// (docs/STORAGE.md). Every backend returns exactly what `ReferenceEvaluator` returns on the
/// same objects: the same records in the same order, or the same first error.
public protocol QueryBackend: Sendable {
    /// What the backend calls itself in EXPLAIN and reports (`memory`, `sqlite`).
    var backendName: String { get }
    /// The classes, each with its object count and declared indexes.
    func catalog() async throws(Diagnostic) -> [ClassCatalog]
    /// Whether a class exists: what a server asks on every request, so a backend whose
    /// `catalog` counts objects answers it without counting.
    func hasClass(_ className: String) async throws(Diagnostic) -> Bool
    /// Runs a query: filter, order, count or page, includes and projection.
    func run(_ query: Query, variables: [String: Value]) async throws(Diagnostic) -> QueryResult
    /// Runs queries on one version of the data where the backend keeps versions (a count and
    /// its page agree); by default, one after another.
    func run(_ queries: [Query], variables: [String: Value]) async throws(Diagnostic) -> [QueryResult]
    /// How the backend would run the query, without running it.
    func explain(_ query: Query, variables: [String: Value]) async throws(Diagnostic) -> BackendExplanation
    /// Applies the changes in one transaction: all of them, or none when one fails.
    func write(_ changes: [StoreChange]) async throws(Diagnostic)
    /// Declares a secondary index (declaring one that exists does nothing).
    func createIndex(_ kind: IndexKind, on key: FieldPath, in className: String) async throws(Diagnostic)
    /// Declares several secondary indexes of a class, with the error of the first key refused.
    /// A backend that builds indexes itself builds these together where it can: the in-memory
    /// engine side by side, and none of them when a key is refused. By default they are
    /// declared in turn, and those before a refused key stay declared.
    func createIndexes(_ indexes: [(kind: IndexKind, key: FieldPath)], in className: String) async throws(Diagnostic)
}

extension QueryBackend {
    public func hasClass(_ className: String) async throws(Diagnostic) -> Bool {
        try await catalog().contains { $0.name == className }
    }

    public func run(_ queries: [Query], variables: [String: Value]) async throws(Diagnostic) -> [QueryResult] {
        var results: [QueryResult] = []
        for query in queries { results.append(try await run(query, variables: variables)) }
        return results
    }

    public func createIndexes(
        _ indexes: [(kind: IndexKind, key: FieldPath)], in className: String
    ) async throws(Diagnostic) {
        for index in indexes { try await createIndex(index.kind, on: index.key, in: className) }
    }
}

/// One write: save an object (insert, or replace the one with the same objectId in place,
/// keeping its position in insertion order) or delete one.
public enum StoreChange: Hashable, Sendable {
    case save(Record, in: String)
    case delete(objectId: String, from: String)
}

/// A class as a backend's catalog lists it.
public struct ClassCatalog: Hashable, Sendable {
    public var name: String
    public var objectCount: Int
    public var indexes: [IndexDeclaration]

    public init(name: String, objectCount: Int, indexes: [IndexDeclaration]) {
        self.name = name
        self.objectCount = objectCount
        self.indexes = indexes
    }
}

/// A declared secondary index.
public struct IndexDeclaration: Hashable, Sendable {
    public var kind: IndexKind
    public var key: FieldPath

    public init(kind: IndexKind, key: FieldPath) {
        self.kind = kind
        self.key = key
    }
}
