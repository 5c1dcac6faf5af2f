import CSQLite
import Foundation

/// The store's read-only connections (docs/STORAGE.md#fixed-cost-per-query). A read takes an
/// idle one, or opens one while fewer than `capacity` are open, else waits for one; it gives
/// it back when done. GRDB's pool, which lent its readers at about a third of a point lookup's
/// instructions, keeps only the writer. Like GRDB's readers, each connection is opened
/// read-only on the WAL file (so it never takes the writer's lock) and waits up to ten seconds
/// when SQLite is busy in the obscure cases WAL allows (another process's recovery, a last
/// connection closing).
final class ReaderPool: @unchecked Sendable {
    /// Readers open at most at once (GRDB's default for a pool).
    static let capacity = 5

    private let path: String
    private let setUp: (OpaquePointer) throws -> Void
    private let dropped: (OpaquePointer) -> Void
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var idle: [ReaderConnection] = []
    private var open = 0

    /// - Parameters:
    ///   - setUp: what each new connection needs before its first statement (the store's SQL
    ///     functions).
    ///   - dropped: called before a connection is closed (the statement cache finalizes its
    ///     statements, so that a later connection at the same address finds none of them).
    init(
        path: String, setUp: @escaping (OpaquePointer) throws -> Void, dropped: @escaping (OpaquePointer) -> Void
    ) {
        self.path = path
        self.setUp = setUp
        self.dropped = dropped
    }

    /// `body` on a reader that no other thread uses meanwhile. A reader that `body` leaves in
    /// a transaction it cannot end is closed instead of given back.
    func read<T>(_ body: (ReaderConnection) throws -> T) throws -> T {
        let reader = try take(waiting: true)!
        defer { give(reader) }
        return try body(reader)
    }

    /// The same without waiting: nil when every reader is in use and no more may be opened
    /// (a read on the calling task must not block it on another's).
    func readIfFree<T>(_ body: (ReaderConnection) throws -> T) throws -> T? {
        guard let reader = try take(waiting: false) else { return nil }
        defer { give(reader) }
        return try body(reader)
    }

    /// Closes the idle readers (all of them, once no read runs): the store's `deinit`, before
    /// GRDB closes the writer, which is then the last connection and checkpoints the WAL.
    func closeAll() {
        condition.lock()
        defer { condition.unlock() }
        idle.removeAll()
    }

    /// Readers open now, idle or in use (tests).
    var openCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return open
    }

    private func take(waiting: Bool) throws -> ReaderConnection? {
        condition.lock()
        while idle.isEmpty && open >= Self.capacity {
            guard waiting else {
                condition.unlock()
                return nil
            }
            condition.wait()
        }
        if let reader = idle.popLast() {
            condition.unlock()
            return reader
        }
        open += 1
        condition.unlock()
        do {
            let reader = try ReaderConnection.reader(path: path)
            try setUp(reader.handle)
            return reader
        } catch {
            condition.lock()
            open -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    private func give(_ reader: ReaderConnection) {
        let usable = reader.endTransaction()
        condition.lock()
        if usable { idle.append(reader) } else { open -= 1 }
        condition.signal()
        condition.unlock()
        if !usable { dropped(reader.handle) }
    }
}

/// A reader of `ReaderPool`: a read-only connection to the store's file, used by one thread at a
/// time; its statements keep it open until they are finalized.
typealias ReaderConnection = SQLiteConnection

extension SQLiteConnection: StoreConnection {
    /// A read-only connection to the store's file, set up as GRDB sets up its readers.
    static func reader(path: String) throws(SQLiteError) -> SQLiteConnection {
        let reader = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READONLY)
        // Extended result codes, as GRDB's connections report them.
        sqlite3_extended_result_codes(reader.handle, 1)
        sqlite3_busy_timeout(reader.handle, busyTimeoutMilliseconds)
        return reader
    }

    /// How long a reader waits for a lock before it fails with SQLITE_BUSY.
    static let busyTimeoutMilliseconds: Int32 = 10_000

    var sqliteConnection: OpaquePointer? { handle }

    func compiled(_ sql: String) throws -> SQLiteStatement { try prepare(sql) }

    /// Ends a transaction a read left open (one that failed, or was interrupted); whether the
    /// connection is out of any transaction after. A rollback runs once no statement is active
    /// (the cache resets each one after its use), so a pending `sqlite3_interrupt` does not stop it.
    func endTransaction() -> Bool {
        guard sqlite3_get_autocommit(handle) == 0 else { return true }
        _ = sqlite3_exec(handle, "ROLLBACK TRANSACTION", nil, nil, nil)
        return sqlite3_get_autocommit(handle) != 0
    }
}
