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
