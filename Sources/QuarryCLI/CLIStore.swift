import Dispatch
import Quarry
import QuarryPostgres
import QuarrySQLite

/// What the CLI's commands ask of a store, synchronously: the SQLite store answers directly,
/// the PostgreSQL store through `blocking` (docs/STORAGE.md#postgresql-connections).
protocol CLIStore {
    /// Where the store is, for messages (a path, or a URL without its password).
    var location: String { get }
    /// The store as the server's backend.
    var backend: any QueryBackend { get }
    func query(_ query: Query, variables: [String: Value]) throws(Diagnostic) -> QueryResult
    func explanation(_ query: Query, variables: [String: Value]) throws(Diagnostic) -> BackendExplanation
    func declareIndex(_ kind: IndexKind, on key: FieldPath, in className: String) throws(Diagnostic)
    func classes() throws(Diagnostic) -> [ClassCatalog]
    func storeSchema() throws(Diagnostic) -> any Schema
    /// Runs `body` in one transaction: nothing it saved is kept when it throws.
    func importing(_ body: @escaping (any ImportTransaction) throws -> Void) throws(Diagnostic)
}

/// Saves and index declarations inside `CLIStore.importing`.
protocol ImportTransaction {
    func save(_ record: Record, in className: String) throws
    func declareIndex(_ kind: IndexKind?, on key: FieldPath, in className: String) throws
}

extension CLIStore {
    func query(_ query: Query) throws(Diagnostic) -> QueryResult { try self.query(query, variables: [:]) }
    func explanation(_ query: Query) throws(Diagnostic) -> BackendExplanation {
        try explanation(query, variables: [:])
    }
}

extension StoreTransaction: ImportTransaction {}
extension PostgresTransaction: ImportTransaction {}

extension SQLiteStore: CLIStore {
    var location: String { path }
    var backend: any QueryBackend { self }
    func storeSchema() throws(Diagnostic) -> any Schema { try schema() }
    func importing(_ body: @escaping (any ImportTransaction) throws -> Void) throws(Diagnostic) {
        try transaction { t in try body(t) }
    }
}

/// The PostgreSQL store behind the CLI's synchronous commands.
struct PostgresCLIStore: CLIStore {
    let store: PostgresStore
    var location: String { store.location }
    var backend: any QueryBackend { store }

    static func open(_ url: String, limits: Limits = .default, parallelism: ScanParallelism = .automatic)
        throws(Diagnostic) -> PostgresCLIStore
    {
        PostgresCLIStore(
            store: try blocking { () async throws(Diagnostic) in
                try await PostgresStore.open(url: url, limits: limits, parallelism: parallelism)
            })
    }

    func query(_ query: Query, variables: [String: Value]) throws(Diagnostic) -> QueryResult {
        try blocking { () async throws(Diagnostic) in try await store.run(query, variables: variables) }
    }

    func explanation(_ query: Query, variables: [String: Value]) throws(Diagnostic) -> BackendExplanation {
        try blocking { () async throws(Diagnostic) in try await store.explain(query, variables: variables) }
    }

    func declareIndex(_ kind: IndexKind, on key: FieldPath, in className: String) throws(Diagnostic) {
        try blocking { () async throws(Diagnostic) in try await store.createIndex(kind, on: key, in: className) }
    }

    func classes() throws(Diagnostic) -> [ClassCatalog] {
        try blocking { () async throws(Diagnostic) in try await store.catalog() }
    }

    func storeSchema() throws(Diagnostic) -> any Schema {
        try blocking { () async throws(Diagnostic) in try await store.schema() }
    }

    func importing(_ body: @escaping (any ImportTransaction) throws -> Void) throws(Diagnostic) {
        nonisolated(unsafe) let body = body
        try blocking { () async throws(Diagnostic) in try await store.transaction { t in try body(t) } }
    }
}

/// Runs async store work from a synchronous command: the calling thread (the CLI's main
/// thread, never a concurrency thread) waits while a task does the work.
func blocking<T>(_ body: @escaping @Sendable () async throws(Diagnostic) -> T) throws(Diagnostic) -> T {
    let box = BlockingResult<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do throws(Diagnostic) {
            box.result = .success(try await body())
        } catch {
            box.result = .failure(error)
        }
        done.signal()
    }
    done.wait()
    return try box.result!.get()
}

/// The answer `blocking` waits for, written by the task once before the semaphore is signalled.
private final class BlockingResult<T>: @unchecked Sendable {
    var result: Result<T, Diagnostic>?
}
