import Quarry
import QuarryPostgres

extension PostgresStore {
    /// Saves every object of the database, class by class in insertion order, in one transaction.
    func save(_ database: Database) async throws {
        try await write(
            database.classNames.flatMap { name in (database[name]?.records ?? []).map { StoreChange.save($0, in: name) }
            })
    }

    func query(_ q: Query) async throws(Diagnostic) -> QueryResult { try await run(q, variables: [:]) }
}

/// A query's answer or its error code, for comparing backends.
enum Outcome: Equatable, CustomStringConvertible {
    case result(QueryResult)
    /// The error's code (what is compared) and its message (what a failure shows).
    case failure(String, message: String = "")

    init(_ body: () throws(Diagnostic) -> QueryResult) {
        do {
            self = .result(try body())
        } catch {
            self = .failure(error.code, message: error.message)
        }
    }

    init(_ body: () async throws(Diagnostic) -> QueryResult) async {
        do {
            self = .result(try await body())
        } catch {
            self = .failure(error.code, message: error.message)
        }
    }

    static func == (a: Outcome, b: Outcome) -> Bool {
        switch (a, b) {
        case (.result(let x), .result(let y)): return x == y
        case (.failure(let x, _), .failure(let y, _)): return x == y
        default: return false
        }
    }

    var description: String {
        switch self {
        case .result(.count(let n)): return "count \(n)"
        case .result(let r): return "ids \(r.objectIds)"
        case .failure(let code, let message): return "error \(code) \(message)"
        }
    }
}
