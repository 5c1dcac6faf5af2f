import CSQLite
import Foundation
import Quarry
import Testing

@testable import QuarrySQLite

/// An async read runs on the calling task while it is short, and moves to a thread of its own
/// when it is not (docs/STORAGE.md#reads-on-the-calling-task). Whether a read ran inside the
/// task shows in its body: a Dispatch thread has no current task.
@Suite struct InlineReadTests {
    static func items(_ n: Int) -> [StoreChange] {
        (0..<n).map { .save(Record(objectId: "o\($0)", fields: [("n", .int(Int64($0)))]), in: "Item") }
    }

    static var inTask: Bool { withUnsafeCurrentTask { $0 != nil } }

    /// A point lookup's read runs once, inside the task, and answers as the synchronous query.
    @Test func aShortReadRunsOnTheCallingTask() async throws {
        let file = StoreFile()
        let store = try file.open()
        try store.apply(Self.items(10))
        let query = try Dialect.sql.compile("n = 3", className: "Item")
        let runs = Runs()
        let answer = try await store.read(key: 1, deadline: nil) { db in
            runs.append(Self.inTask)
            return try store.answer(query, [:], db)
        }
        #expect(runs.list == [true])
        #expect(answer.objectIds == ["o3"])
        #expect(store.longReads.count == 0)
        #expect(try await store.run(query, variables: [:]).objectIds == ["o3"])
    }

    /// With no time on the calling task, a scan is stopped there and runs again from the start
    /// on a thread, with the whole answer; the same query then goes to the thread at once. Another
    /// query is still tried on the task first.
    @Test func aReadThatOutgrowsTheTaskRunsAgainOnAThread() async throws {
        let file = StoreFile()
        try file.open().apply(Self.items(3_000))
        let store = try SQLiteStore(
            path: file.path, limits: .default, now: { 0 }, random: { 0.5 }, parallelism: .automatic,
            inlineTime: .zero)
        let query = try Dialect.sql.compile("n >= 100", className: "Item")
        let runs = Runs()
        func read(_ key: Int) async throws -> QueryResult {
            try await store.read(key: key, deadline: nil) { db in
                runs.append(Self.inTask)
                return try store.answer(query, [:], db)
            }
        }
        let whole = (100..<3_000).map { "o\($0)" }
        #expect(try await read(7).objectIds == whole)
        #expect(runs.list == [true, false])
        #expect(store.longReads.count == 1)
        #expect(try await read(7).objectIds == whole)
        #expect(runs.list == [true, false, false])
        #expect(try await read(8).objectIds == whole)
        #expect(runs.list == [true, false, false, true, false])
        #expect(try await store.run(query, variables: [:]).objectIds == whole)
        #expect(store.longReads.count == 3)
    }

    /// A read on the calling task that meets a lock fails at once and is marked to move, where
    /// a reader waits (SQLite's busy timeout); after it, the connection waits again. A file in
    /// rollback-journal mode, where a writer's exclusive lock keeps readers out (in WAL mode only
    /// another process's recovery does).
    @Test func aReadOnTheTaskDoesNotWaitForALock() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("locked-\(UUID()).db").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        try writer.execute("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1)")
        let reader = try ReaderConnection.reader(path: path)
        let held = Held(writer)
        try held.lock()
        let progress = ReadProgress(deadline: nil, inlineUntil: ContinuousClock.now + .seconds(3600))
        #expect(throws: SQLiteError.self) {
            try progress.watching(reader.handle) { try reader.execute("SELECT n FROM t") }
        }
        #expect(progress.metLock && progress.mustMove && !progress.outgrewInline)
        // The reader's own busy timeout is back: it waits for the lock to go.
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { held.unlock() }
        try reader.execute("SELECT n FROM t")
    }
}

/// What a read's body saw on each run, from whichever thread ran it.
private final class Runs: @unchecked Sendable {
    private let lock = NSLock()
    private var runs: [Bool] = []
    func append(_ inTask: Bool) {
        lock.withLock { runs.append(inTask) }
    }
    var list: [Bool] { lock.withLock { runs } }
}

/// A writer's exclusive lock, taken here and released from another thread.
private final class Held: @unchecked Sendable {
    private let connection: SQLiteConnection
    init(_ connection: SQLiteConnection) { self.connection = connection }
    func lock() throws { try connection.execute("BEGIN EXCLUSIVE") }
    func unlock() { try? connection.execute("COMMIT") }
}
