import Quarry
import QuarryPostgres

extension PostgresStore {
    /// Saves every object of the database, class by class in insertion order, in one transaction.
    func save(_ database: Database) async throws {
        try await write(
            database.classNames.flatMap { name in (database[name]?.records ?? []).map { StoreChange.save($0, in: name) } })
    }

    func query(_ q: Query) async throws(Diagnostic) -> QueryResult { try await run(q, variables: [:]) }
}

/// A query's answer or its error code, for comparing backends.
enum Outcome: Equatable, CustomStringConvertible {
    case result(QueryResult)
    case failure(String)

    init(_ body: () throws(Diagnostic) -> QueryResult) {
        do {
            self = .result(try body())
        } catch {
            self = .failure(error.code)
        }
    }

    init(_ body: () async throws(Diagnostic) -> QueryResult) async {
        do {
            self = .result(try await body())
        } catch {
            self = .failure(error.code)
        }
    }

    var description: String {
        switch self {
        case .result(.count(let n)): return "count \(n)"
        case .result(let r): return "ids \(r.objectIds)"
        case .failure(let code): return "error \(code)"
        }
    }
}
