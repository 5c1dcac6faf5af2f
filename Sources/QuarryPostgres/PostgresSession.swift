import Logging
import NIOCore
import PostgresNIO
import Quarry

/// One leased connection, driven synchronously: each statement waits for PostgresNIO's
/// future on the connection's event loop, from a Dispatch thread (never a Swift concurrency
/// thread, which PostgresNIO's own tasks need), so the store's
/// work inside a transaction reads as straight-line code and the reference machinery's
/// synchronous reads (pointers, includes, residual inner queries) reach the same snapshot
/// (docs/STORAGE.md#postgresql-connections).
struct PostgresSession {
    let connection: PostgresConnection
    let logger: Logger

    /// The rows of a statement whose parameters are `$1`, `$2`… bound as text (NULL for nil).
    func rows(_ sql: String, _ binds: [String?] = []) throws -> [PostgresRow] {
        var bindings = PostgresBindings(capacity: binds.count)
        for b in binds {
            if let b { bindings.append(b) } else { bindings.appendNull() }
        }
        return try connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger).wait().rows
    }

    func run(_ sql: String, _ binds: [String?] = []) throws { _ = try rows(sql, binds) }

    /// `body` on each row of a statement, in order, on the connection's event loop as the rows
    /// arrive (docs/STORAGE.md#postgresql-connections): decoding overlaps the server's sending,
    /// and no array of `PostgresRow`s is built (collecting them was half the time of a large
    /// result).
    func each(_ sql: String, _ binds: [String?], _ body: @escaping @Sendable (PostgresRow) throws -> Void) throws {
        var bindings = PostgresBindings(capacity: binds.count)
        for b in binds {
            if let b { bindings.append(b) } else { bindings.appendNull() }
        }
        _ = try connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger, body).wait()
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(readOnly: Bool, _ body: () throws -> T) throws -> T {
        try run(readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            try? run("ROLLBACK")
            throw error
        }
    }
}

extension PostgresRow {
    /// Column `i` as text (nil for NULL): every column the store reads is text, numbers
    /// included, so no binary format is involved.
    func text(_ i: Int) throws -> String? {
        let columns = makeRandomAccess()
        return try columns[i].decode(String?.self)
    }
}

/// Runs store work, reporting any failure as a `Diagnostic` (`store.postgres` for the server's).
func storeCall<T>(_ body: () throws -> T) throws(Diagnostic) -> T {
    do {
        return try body()
    } catch {
        throw storeDiagnostic(error)
    }
}

func storeDiagnostic(_ error: any Error) -> Diagnostic {
    switch error {
    case let d as Diagnostic: return d
    case let e as PSQLError:
        if let info = e.serverInfo, let message = info[.message] {
            return Diagnostic(.store.postgres, "PostgreSQL failed: \(message) (SQLSTATE \(info[.sqlState] ?? "?"))")
        }
        return Diagnostic(.store.postgres, "PostgreSQL failed: \(e.code)")
    default: return Diagnostic(.store.postgres, "the PostgreSQL store failed: \(error)")
    }
}
