import CSQLite

/// An error reported by SQLite, with its result code and message.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    public var code: Int32
    public var message: String
    public var description: String { "SQLite error \(code): \(message)" }
}

/// One SQLite connection: to a private in-memory database (`:memory:`, the benchmark peer's), or
/// read-only to a file (the store's readers).
package final class SQLiteConnection {
    package let handle: OpaquePointer

    package convenience init() throws(SQLiteError) {
        try self.init(path: ":memory:", flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
    }

    /// - Parameter flags: `sqlite3_open_v2`'s.
    package init(path: String, flags: Int32) throws(SQLiteError) {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"
            sqlite3_close_v2(db)
            throw SQLiteError(code: rc, message: message)
        }
        handle = db
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs statements that return no rows.
    package func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        guard rc == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? lastError
            sqlite3_free(message)
            throw SQLiteError(code: rc, message: text)
        }
    }

    package func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(sql, on: handle, owner: self)
    }

    package var lastError: String { String(cString: sqlite3_errmsg(handle)) }

    /// Bytes this connection holds: its page cache (the whole in-memory database), schema and
    /// prepared statements. Per connection, so other connections in the process (concurrent
    /// tests, a store) do not disturb it as the process-wide `sqlite3_memory_used` would.
    var memoryUsed: Int64 {
        var total: Int64 = 0
        for status in [SQLITE_DBSTATUS_CACHE_USED, SQLITE_DBSTATUS_SCHEMA_USED, SQLITE_DBSTATUS_STMT_USED] {
            var current: Int32 = 0
            var highwater: Int32 = 0
            if sqlite3_db_status(handle, status, &current, &highwater, 0) == SQLITE_OK { total += Int64(current) }
        }
        return total
    }
}

/// A prepared statement; finalized when released. The store prepares these on GRDB's
/// connections too: GRDB binds a string up to its first NUL, this binds every byte
/// (docs/STORAGE.md).
package final class SQLiteStatement {
    package let handle: OpaquePointer
    private let db: OpaquePointer
    /// What keeps the connection open while the statement lives (the peer's connection).
    private let owner: AnyObject?

    package init(_ sql: String, on db: OpaquePointer, owner: AnyObject? = nil) throws(SQLiteError) {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, sql, -1, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            sqlite3_finalize(stmt)
            throw SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(db)))
        }
        handle = stmt
        self.db = db
        self.owner = owner
    }

    deinit { sqlite3_finalize(handle) }

    /// Advances to the next row; false when there is none.
    package func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let rc: throw SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(db)))
        }
    }

    /// Rewinds for another run, keeping the bindings.
    package func reset() { sqlite3_reset(handle) }

    /// Runs an insert or another statement without rows, then rewinds.
    package func run() throws(SQLiteError) {
        defer { reset() }
        while try step() {}
    }

    package func bindNull(_ index: Int32) { sqlite3_bind_null(handle, index) }
    /// Sets every parameter to NULL.
    package func clearBindings() { sqlite3_clear_bindings(handle) }
    package func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }
    package func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(handle, index, value) }
    /// Binds the string's UTF-8 bytes with their length, so an embedded NUL is kept.
    package func bind(_ index: Int32, _ value: String) {
        var value = value
        value.withUTF8 { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) { chars in
                guard let base = chars.baseAddress else {
                    return sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
                }
                return sqlite3_bind_text(handle, index, base, Int32(chars.count), sqliteTransient)
            }
        }
    }

    /// Binds UTF-8 bytes as text (the store's documents, written into a reused buffer).
    package func bind(_ index: Int32, utf8 bytes: UnsafeBufferPointer<UInt8>) {
        _ = bytes.withMemoryRebound(to: CChar.self) { chars in
            guard let base = chars.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, sqliteTransient) }
            return sqlite3_bind_text(handle, index, base, Int32(chars.count), sqliteTransient)
        }
    }

    package func bind(_ index: Int32, _ b: SQLiteBinding?) {
        switch b {
        case .int(let n)?: bind(index, n)
        case .double(let d)?: bind(index, d)
        case .text(let t)?: bind(index, t)
        case nil: bindNull(index)
        }
    }

    package func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    package func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The column's text bytes, valid only inside `body` (empty for NULL).
    package func withUTF8<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        let p = sqlite3_column_text(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return try body(UnsafeBufferPointer(start: p, count: p == nil ? 0 : count))
    }

    /// The column's text, nil for NULL.
    package func text(_ column: Int32) -> String? {
        guard let p = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
    }
}

/// SQLite copies the bound bytes before the call returns (`SQLITE_TRANSIENT`, a macro Swift
/// cannot import).
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
