import Foundation

/// The store's prepared statements, kept for each of its connections so that a query's
/// statements are compiled once per connection instead of on every run
/// (docs/STORAGE.md#fixed-cost-per-query). Compiling is what a short query pays for (on GRDB's
/// writer, GRDB's authorizer runs Swift code for every column a statement reads). A statement is
/// marked running while it runs, so a nested use of the same text prepares a second one (dropped
/// after) instead of resetting the first; each connection keeps at most `perConnection`, the
/// least recently used dropped first (a dropped statement is finalized once nothing holds it).
/// A use finds its entry twice (taken, put back) and moves nothing: taking an entry out of the
/// dictionary moved its neighbours, hashing each one's text again.
final class StatementCache: @unchecked Sendable {
    static let perConnection = 64

    private struct Entry {
        let statement: SQLiteStatement
        var used: UInt64
        var running = false
    }

    private let lock = NSLock()
    /// By the connection's `sqlite3*` address: a connection is closed only after `removeAll`
    /// (the store's `deinit`) or `forget` of its address, so no address is reused while it is a
    /// key here.
    private var connections: [UInt: [String: Entry]] = [:]
    private var clock: UInt64 = 0

    /// Runs `body` with the statement for `sql` on `db`, its parameters bound; the statement
    /// is reset and its bindings cleared after.
    func with<T>(
        _ db: some StoreConnection, _ sql: String, _ bindings: [SQLiteBinding?], _ body: (SQLiteStatement) throws -> T
    ) throws -> T {
        guard let handle = db.sqliteConnection else { throw SQLiteError(code: 21, message: "the connection is closed") }
        let key = UInt(bitPattern: handle)
        let statement = try take(sql, key) ?? db.compiled(sql)
        defer {
            statement.reset()
            statement.clearBindings()
            put(statement, sql, key)
        }
        for (i, b) in bindings.enumerated() { statement.bind(Int32(i + 1), b) }
        return try body(statement)
    }

    /// Runs a query and hands each row to `body`.
    func each(
        _ db: some StoreConnection, _ sql: String, _ bindings: [SQLiteBinding?] = [],
        _ body: (SQLiteStatement) throws -> Void
    ) throws {
        try with(db, sql, bindings) { statement in
            while try statement.step() { try body(statement) }
        }
    }

    /// Finalizes every statement (before the store closes its connections).
    func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        connections = [:]
    }

    /// Finalizes the statements of one connection, which is about to be closed.
    func forget(_ connection: OpaquePointer) {
        lock.lock()
        defer { lock.unlock() }
        connections[UInt(bitPattern: connection)] = nil
    }

    /// How many statements are kept for all connections together (tests).
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return connections.values.reduce(0) { $0 + $1.count }
    }

    private func take(_ sql: String, _ key: UInt) -> SQLiteStatement? {
        lock.lock()
        defer { lock.unlock() }
        return Self.take(sql, from: &connections[key, default: [:]])
    }

    private static func take(_ sql: String, from kept: inout [String: Entry]) -> SQLiteStatement? {
        guard let i = kept.index(forKey: sql), !kept.values[i].running else { return nil }
        kept.values[i].running = true
        return kept.values[i].statement
    }

    private func put(_ statement: SQLiteStatement, _ sql: String, _ key: UInt) {
        lock.lock()
        defer { lock.unlock() }
        clock += 1
        Self.put(statement, sql, clock, into: &connections[key, default: [:]])
    }

    private static func put(
        _ statement: SQLiteStatement, _ sql: String, _ clock: UInt64, into kept: inout [String: Entry]
    ) {
        if let i = kept.index(forKey: sql) {
            // The statement taken goes back; a nested use's own statement is dropped.
            if kept.values[i].statement === statement {
                kept.values[i].running = false
                kept.values[i].used = clock
            }
            return
        }
        if kept.count >= perConnection, let oldest = kept.min(by: { $0.value.used < $1.value.used })?.key {
            kept[oldest] = nil
        }
        kept[sql] = Entry(statement: statement, used: clock)
    }
}
