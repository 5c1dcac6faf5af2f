import GRDB
import Quarry

/// A connection the store's statements run on through `SQLiteStatement`, so that every byte
/// of a bound string reaches SQLite (docs/STORAGE.md): a reader of the store's own
/// (`ReaderConnection`) or GRDB's writer.
protocol StoreConnection {
    /// The `sqlite3*` handle; nil once closed.
    var sqliteConnection: OpaquePointer? { get }
    /// A new statement on this connection.
    func compiled(_ sql: String) throws -> SQLiteStatement
}

extension StoreConnection {
    /// Runs a statement without rows.
    func run(_ sql: String, _ bindings: [SQLiteBinding?] = []) throws {
        let statement = try prepared(sql, bindings)
        try statement.run()
    }

    /// Runs a query and hands each row to `body`.
    func each(_ sql: String, _ bindings: [SQLiteBinding?] = [], _ body: (SQLiteStatement) throws -> Void) throws {
        let statement = try prepared(sql, bindings)
        defer { statement.reset() }
        while try statement.step() { try body(statement) }
    }

    func prepared(_ sql: String, _ bindings: [SQLiteBinding?]) throws -> SQLiteStatement {
        let statement = try compiled(sql)
        for (i, b) in bindings.enumerated() { statement.bind(Int32(i + 1), b) }
        return statement
    }
}

extension GRDB.Database: StoreConnection {
    /// Every statement the store compiles on a GRDB connection. GRDB's authorizer, set once on
    /// each connection, gathers what every statement compiled there touches until GRDB compiles
    /// one of its own, and searches what it gathered at each column an UPDATE names: compiling
    /// a trivial statement of GRDB's first starts it afresh (otherwise an import adding
    /// thousands of fields took minutes, quadratically).
    func compiled(_ sql: String) throws -> SQLiteStatement {
        guard let handle = sqliteConnection else { throw SQLiteError(code: 21, message: "the connection is closed") }
        _ = try makeStatement(sql: "SELECT 1")
        return try SQLiteStatement(sql, on: handle)
    }
}

extension SQLiteStatement {
    /// Column text, "" for NULL.
    func string(_ column: Int32) -> String { text(column) ?? "" }
}
