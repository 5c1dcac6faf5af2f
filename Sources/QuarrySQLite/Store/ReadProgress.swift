import CSQLite
import QuarryStoreSupport

/// What a read is held to while SQLite works (docs/STORAGE.md#deadlines,
/// docs/STORAGE.md#reads-on-the-calling-task): the query's deadline, and for a read tried on
/// the calling task, how long it may run there and that it may not wait for a lock. SQLite
/// calls the progress handler every thousand virtual-machine instructions, and a handler that
/// answers non-zero interrupts the statement; a busy handler that answers zero makes a locked
/// database fail at once with SQLITE_BUSY instead of waiting.
final class ReadProgress {
    let deadline: StoreDeadline?
    /// For a read on the calling task: when it must give up and go to a thread of its own.
    let inlineUntil: ContinuousClock.Instant?
    private(set) var deadlinePassed = false
    /// The read ran past `inlineUntil`: its statement was interrupted.
    private(set) var outgrewInline = false
    /// The read on the calling task met a lock and did not wait for it.
    private(set) var metLock = false

    init(deadline: StoreDeadline?, inlineUntil: ContinuousClock.Instant? = nil) {
        self.deadline = deadline
        self.inlineUntil = inlineUntil
    }

    /// Whether the read must leave the calling task for a thread of its own.
    var mustMove: Bool { outgrewInline || metLock }

    /// `body` with the handlers installed on `connection`; after it, the connection has no
    /// progress handler and its reader's busy timeout again. A read past its deadline fails
    /// with `limit.deadline`, whatever error the interrupted statement gave.
    func watching<T>(_ connection: OpaquePointer?, _ body: () throws -> T) throws -> T {
        if let deadline, deadline.passed { throw deadline.diagnostic }
        guard deadline != nil || inlineUntil != nil else { return try body() }
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_progress_handler(connection, 1000, readProgressCallback, context)
        if inlineUntil != nil { sqlite3_busy_handler(connection, readBusyCallback, context) }
        defer {
            sqlite3_progress_handler(connection, 0, nil, nil)
            if inlineUntil != nil { sqlite3_busy_timeout(connection, ReaderConnection.busyTimeoutMilliseconds) }
        }
        do {
            return try withExtendedLifetime(self) { try body() }
        } catch {
            if deadlinePassed, let deadline { throw deadline.diagnostic }
            throw error
        }
    }

    fileprivate func progress() -> Int32 {
        if let deadline, deadline.passed {
            deadlinePassed = true
            return 1
        }
        if let inlineUntil, ContinuousClock.now >= inlineUntil {
            outgrewInline = true
            return 1
        }
        return 0
    }

    fileprivate func busy() -> Int32 {
        metLock = true
        return 0
    }
}

private let readProgressCallback: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { context in
    guard let context else { return 0 }
    return Unmanaged<ReadProgress>.fromOpaque(context).takeUnretainedValue().progress()
}

private let readBusyCallback: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32 = { context, _ in
    guard let context else { return 0 }
    return Unmanaged<ReadProgress>.fromOpaque(context).takeUnretainedValue().busy()
}
