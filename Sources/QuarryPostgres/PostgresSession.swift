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
    /// A read's transaction, begun by its first statement; nil for a write's session.
    let read: ReadTransaction?
    /// The statements the connection has prepared; nil where nothing is sent prepared.
    let statements: ConnectionStatements?

    init(connection: PostgresConnection, logger: Logger, write: Bool, statements: ConnectionStatements? = nil) {
        self.connection = connection
        self.logger = logger
        read = write ? nil : ReadTransaction()
        self.statements = statements
    }

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
    /// With `alone`, the statement runs outside the read's transaction, in a snapshot of its own
    /// (`PostgresStore.answer`'s one-statement reads). With `prepared`, a statement the store
    /// sends again and again (a query's, a pointer's lookup) is executed prepared from its
    /// second sending on this connection (docs/STORAGE.md#prepared-statements).
    func startEach(
        _ sql: String, _ binds: [String?], alone: Bool = false, prepared: Bool = false,
        _ body: @escaping @Sendable (PostgresRow) throws -> Void
    ) -> EventLoopFuture<Void> {
        if !alone { beginRead() }
        if prepared, let statements, let statement = statements.statement(sql) {
            let values = Self.values(binds)
            return Self.forgettingOnFailure(statement.flatMap { $0.execute(values, body) }, sql, statement, statements)
        }
        return connection.query(PostgresQuery(unsafeSQL: sql, binds: Self.bindings(binds)), logger: logger, body)
            .map { _ in }
    }

    /// Every row of a statement, without waiting; `alone` and `prepared` as for `startEach`.
    func sendForRows(_ sql: String, _ binds: [String?], alone: Bool = false, prepared: Bool = false)
        -> EventLoopFuture<[PostgresRow]>
    {
        if !alone { beginRead() }
        if prepared, let statements, let statement = statements.statement(sql) {
            let values = Self.values(binds)
            return Self.forgettingOnFailure(statement.flatMap { $0.execute(values) }, sql, statement, statements)
        }
        return connection.query(PostgresQuery(unsafeSQL: sql, binds: Self.bindings(binds)), logger: logger).map(\.rows)
    }

    /// A prepared statement whose preparation or execution failed is sent unnamed next time: the
    /// server may have dropped it (`DISCARD ALL`, a pooler), or its preparation failed.
    private static func forgettingOnFailure<T>(
        _ result: EventLoopFuture<T>, _ sql: String, _ statement: EventLoopFuture<PostgresNIO.PreparedQuery>,
        _ statements: ConnectionStatements
    ) -> EventLoopFuture<T> {
        result.whenFailure { _ in statements.forget(sql, statement) }
        return result
    }

    /// Parameters for a prepared statement: text, as its SQL types them (`$n::text`).
    private static func values(_ binds: [String?]) -> [PostgresData] {
        binds.map { PostgresData(type: .text, value: $0.map { ByteBuffer(string: $0) }) }
    }

    /// Sends a statement without waiting for it; with `alone`, outside the read's transaction.
    func send(_ sql: String, _ binds: [String?] = [], alone: Bool = false) -> EventLoopFuture<PostgresQueryResult> {
        send(sql, Self.bindings(binds), alone: alone)
    }

    func send(_ sql: String, _ bindings: PostgresBindings, alone: Bool = false) -> EventLoopFuture<PostgresQueryResult>
    {
        if !alone { beginRead() }
        return connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
    }

    /// Sends the read's BEGIN ahead of its first statement, unwaited: the connection runs
    /// statements in the order they are sent, and the first wait covers it.
    private func beginRead() {
        guard let read, read.begun == nil else { return }
        assert(!read.answeredAlone, "a read answered by one statement sent another after it")
        read.begun = connection.query(
            PostgresQuery(unsafeSQL: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"), logger: logger)
    }

    private static func bindings(_ binds: [String?]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: binds.count)
        for b in binds {
            if let b { bindings.append(b) } else { bindings.appendNull() }
        }
        return bindings
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        if let read { return try readTransaction(read, body) }
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
    /// (docs/STORAGE.md#postgresql-connections): BEGIN goes out with the first statement, the
    /// body's first wait covers it, and COMMIT (or ROLLBACK) is sent without waiting, ahead of
    /// whatever the connection runs next. A read whose statements all ran alone has begun
    /// nothing. A BEGIN that failed fails the transaction even when the body's statements
    /// succeeded, since they ran outside its snapshot.
    private func readTransaction<T>(_ read: ReadTransaction, _ body: () throws -> T) throws -> T {
        let result = Result { try body() }
        guard let begun = read.begun else { return try result.get() }
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

/// Whether a read's transaction has begun. A read whose query is answered by one statement
/// sends it alone, in autocommit, and begins none (docs/STORAGE.md#fixed-cost-per-query).
/// Unchecked: a session is used by one thread at a time, the Dispatch thread its read runs on.
final class ReadTransaction: @unchecked Sendable {
    var begun: EventLoopFuture<PostgresQueryResult>?
    /// A statement went out alone to answer the read; debug builds check that nothing is read
    /// in the transaction after it, whose snapshot would be another.
    var answeredAlone = false
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
            return serverDiagnostic(message, sqlState: info[.sqlState])
        }
        return Diagnostic(.store.postgres, "PostgreSQL failed: \(e.code)")
    // What PostgresNIO's prepared statements report the server's errors as.
    case PostgresError.server(let e) where e.fields[.message] != nil:
        return serverDiagnostic(e.fields[.message]!, sqlState: e.fields[.sqlState])
    default: return Diagnostic(.store.postgres, "the PostgreSQL store failed: \(error)")
    }
}

private func serverDiagnostic(_ message: String, sqlState: String?) -> Diagnostic {
    // query_canceled: the statement timeout of a deadline (docs/STORAGE.md#deadlines), or a
    // cancel request.
    if sqlState == "57014" {
        return Diagnostic(.query.cancelled, "PostgreSQL cancelled the statement: \(message)")
    }
    return Diagnostic(.store.postgres, "PostgreSQL failed: \(message) (SQLSTATE \(sqlState ?? "?"))")
}
