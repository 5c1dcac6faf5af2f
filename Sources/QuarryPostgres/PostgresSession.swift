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
        try send(sql, binds).wait().rows
    }

    func run(_ sql: String, _ binds: [String?] = []) throws { _ = try rows(sql, binds) }

    /// `body` on each row of a statement, in order, on the connection's event loop as the rows
    /// arrive (docs/STORAGE.md#postgresql-connections): decoding overlaps the server's sending,
    /// and no array of `PostgresRow`s is built (collecting them was half the time of a large
    /// result).
    func each(_ sql: String, _ binds: [String?], _ body: @escaping @Sendable (PostgresRow) throws -> Void) throws {
        _ = try startEach(sql, binds, body).wait()
    }

    /// `each` without waiting: the statement is sent, and the future completes after its last
    /// row.
    func startEach(
        _ sql: String, _ binds: [String?], _ body: @escaping @Sendable (PostgresRow) throws -> Void
    ) -> EventLoopFuture<PostgresQueryMetadata> {
        connection.query(PostgresQuery(unsafeSQL: sql, binds: Self.bindings(binds)), logger: logger, body)
    }

    /// Sends a statement without waiting for it.
    func send(_ sql: String, _ binds: [String?] = []) -> EventLoopFuture<PostgresQueryResult> {
        send(sql, Self.bindings(binds))
    }

    func send(_ sql: String, _ bindings: PostgresBindings) -> EventLoopFuture<PostgresQueryResult> {
        connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
    }

    private static func bindings(_ binds: [String?]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: binds.count)
        for b in binds {
            if let b { bindings.append(b) } else { bindings.appendNull() }
        }
        return bindings
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(readOnly: Bool, _ body: () throws -> T) throws -> T {
        if readOnly { return try readTransaction(body) }
        try run("BEGIN")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            try? run("ROLLBACK")
            throw error
        }
    }

    /// A read transaction waits only for its own statements
    /// (docs/STORAGE.md#postgresql-connections): the connection runs statements in the order
    /// they are sent, so BEGIN is sent without waiting and the body's first wait covers it, and
    /// COMMIT (or ROLLBACK) is sent without waiting, ahead of whatever the connection runs next.
    /// A BEGIN that failed fails the transaction even when the body's statements succeeded,
    /// since they ran outside its snapshot.
    private func readTransaction<T>(_ body: () throws -> T) throws -> T {
        let begun = send("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        let result = Result { try body() }
        let began = Result { try begun.wait() }
        if case .success = began, case .success = result {
            _ = send("COMMIT")
        } else {
            _ = send("ROLLBACK")
        }
        _ = try began.get()
        return try result.get()
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
    // The task was cancelled before it had a connection (PostgresNIO's lease checks it).
    case is CancellationError: return Diagnostic(.query.cancelled, "the query was cancelled")
    case let e as PSQLError:
        if let info = e.serverInfo, let message = info[.message] {
            // query_canceled: the statement timeout of a deadline (docs/STORAGE.md#deadlines),
            // or a cancel request.
            if info[.sqlState] == "57014" {
                return Diagnostic(.query.cancelled, "PostgreSQL cancelled the statement: \(message)")
            }
            return Diagnostic(.store.postgres, "PostgreSQL failed: \(message) (SQLSTATE \(info[.sqlState] ?? "?"))")
        }
        return Diagnostic(.store.postgres, "PostgreSQL failed: \(e.code)")
    default: return Diagnostic(.store.postgres, "the PostgreSQL store failed: \(error)")
    }
}
