import Foundation
import Quarry
import QuarryPostgres
import QuarryTestSupport

/// A real PostgreSQL server for this test process, started once on first use (`initdb` into
/// a temporary folder, `pg_ctl start` listening on a Unix socket in that folder only) and
/// stopped when the process exits. When it cannot start, every test that asks for it fails
/// with the reason (docs/STORAGE.md#postgresql-tests).
final class PostgresServer: Sendable {
    let folder: String
    let bin: String
    /// The server's own user (`postgres` when the tests run as root, which initdb refuses).
    let user: String
    private let counter = Counter()

    static let shared: Result<PostgresServer, ServerError> = Result { () throws(ServerError) in try PostgresServer() }

    /// A new empty database on the server, as a store URL.
    static func database() throws -> String {
        let server = try shared.get()
        let name = "t\(ProcessInfo.processInfo.processIdentifier)_\(server.counter.next())"
        try server.psql("CREATE DATABASE \(name)")
        return "postgresql://\(server.user)@localhost:5432/\(name)?host=\(server.folder)"
    }

    /// Runs `sql` with psql in the database of a store URL `database()` made.
    @discardableResult
    static func psql(_ sql: String, in url: String) throws -> String {
        // postgresql://user@localhost:5432/<database>?host=<socket folder>
        let name = String(url.split(separator: "?")[0].split(separator: "/").last!)
        return try shared.get().psql(sql, database: name)
    }

    /// The table that holds a class of the store at a URL `database()` made.
    static func table(of className: String, in url: String) throws -> String {
        try psql("SELECT 'c' || id FROM quarry_classes WHERE name = '\(className)'", in: url)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `query` on `store` while a prepared transaction holds an exclusive lock on the
    /// class's table, so that its statement waits without timing; `meanwhile` runs once it
    /// waits. The lock is released once no statement waits any more (or when the test failed
    /// first, so that the read ends); the read's outcome.
    static func readHeldOnLock(
        _ store: PostgresStore, _ query: Query, of className: String, in url: String,
        meanwhile: (Task<QueryOutcome, Never>) -> Void
    ) async throws -> QueryOutcome {
        let table = try table(of: className, in: url)
        let hold = "hold_\(UUID().uuidString.prefix(8))"
        try psql("BEGIN; LOCK TABLE \(table) IN ACCESS EXCLUSIVE MODE; PREPARE TRANSACTION '\(hold)'", in: url)
        defer { _ = try? psql("ROLLBACK PREPARED '\(hold)'", in: url) }
        let read = Task {
            await QueryOutcome { () async throws(Diagnostic) in try await store.run(query, variables: [:]) }
        }
        try await untilLockWaiters(true, in: url)
        meanwhile(read)
        // The waiting statement goes away without the lock being released.
        try await untilLockWaiters(false, in: url)
        try psql("ROLLBACK PREPARED '\(hold)'", in: url)
        return await read.value
    }

    /// Returns once a backend of the database at `url` waits on a lock (`waiting`), or once none
    /// does; fails after a minute. Polls `pg_stat_activity`: a statement is held at a known point
    /// without timing. The poll waits on a Dispatch thread: blocking a concurrency thread, two
    /// tests polling at once left the reads they wait for no thread to start on.
    static func untilLockWaiters(_ waiting: Bool, in url: String) async throws {
        let outcome: Result<Void, any Error> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { try pollLockWaiters(waiting, url) })
            }
        }
        try outcome.get()
    }

    private static func pollLockWaiters(_ waiting: Bool, _ url: String) throws {
        _ = try psql(
            """
            SET statement_timeout = '60s';
            DO $$ BEGIN
              WHILE \(waiting ? "NOT " : "")EXISTS (SELECT 1 FROM pg_stat_activity
                            WHERE datname = current_database() AND wait_event_type = 'Lock') LOOP
                PERFORM pg_sleep(0.005);
                PERFORM pg_stat_clear_snapshot();
              END LOOP;
            END $$
            """, in: url)
    }

    /// A new store on a new database.
    static func store() async throws -> PostgresStore {
        try await PostgresStore.open(url: try database(), now: { 1_700_000_000_000 }, random: { 0.5 })
    }

    private init() throws(ServerError) {
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .compactMap(Int.init).sorted()
        guard let version = versions.last else {
            throw ServerError(
                "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin): run `make deps`, which installs postgresql"
            )
        }
        bin = "/usr/lib/postgresql/\(version)/bin"
        folder = "/tmp/qpg-\(UUID().uuidString.prefix(8))"
        let asRoot = getuid() == 0
        user = asRoot ? "postgres" : (ProcessInfo.processInfo.environment["USER"] ?? "postgres")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            if asRoot { try Self.exec("/bin/chown", ["postgres:postgres", folder]) }
            try serverCommand(
                "\(bin)/initdb", ["-D", "\(folder)/data", "-U", user, "--auth=trust", "-E", "UTF8", "--locale=C"])
            let options =
                "-k \(folder) -p 5432 -c listen_addresses='' -c fsync=off -c full_page_writes=off -c max_connections=300 -c max_prepared_transactions=20 -c shared_preload_libraries=pg_stat_statements"
            try serverCommand(
                "\(bin)/pg_ctl",
                ["-D", "\(folder)/data", "-o", options, "-l", "\(folder)/log", "-w", "-t", "60", "start"])
        } catch {
            let log = (try? String(contentsOfFile: "\(folder)/log", encoding: .utf8)) ?? ""
            throw ServerError("PostgreSQL did not start: \(error)\n\(log.suffix(2000))")
        }
        let stop = { [folder, bin, asRoot] in
            _ = try? Self.exec(
                asRoot ? "/usr/sbin/runuser" : "\(bin)/pg_ctl",
                (asRoot ? ["-u", "postgres", "--", "\(bin)/pg_ctl"] : []) + [
                    "-D", "\(folder)/data", "-m", "immediate", "stop",
                ])
            try? FileManager.default.removeItem(atPath: folder)
        }
        Self.atExit.set(stop)
        atexit { PostgresServer.atExit.run() }
    }

    /// Runs a statement with psql; returns its rows, unaligned, one a line.
    @discardableResult
    func psql(_ sql: String, database: String = "postgres") throws -> String {
        try serverCommand("\(bin)/psql", psqlArguments(database) + ["-c", sql])
    }

    /// psql's arguments for a quiet, unaligned session that stops at the first error.
    func psqlArguments(_ database: String) -> [String] {
        ["-h", folder, "-p", "5432", "-U", user, "-d", database, "-v", "ON_ERROR_STOP=1", "-q", "-tA"]
    }

    /// A command run as the server's user.
    @discardableResult
    private func serverCommand(_ path: String, _ arguments: [String]) throws -> String {
        if getuid() == 0 {
            return try Self.exec("/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments)
        }
        return try Self.exec(path, arguments)
    }

    /// Runs a program to its end, its output into a file, with `posix_spawn` and `waitpid`
    /// (Foundation's `Process` can miss the exit of a child whose own child lives on, as
    /// `pg_ctl start` leaves the server running).
    @discardableResult
    static func exec(_ path: String, _ arguments: [String]) throws -> String {
        let output = "/tmp/qpg-exec-\(UUID().uuidString)"
        defer { unlink(output) }
        let status = wait(try spawn(path, arguments, output: output))
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        // WIFEXITED and WEXITSTATUS, which Swift does not import.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw ServerError("\(path) \(arguments.joined(separator: " ")) failed (status \(status)): \(text)")
        }
        return text
    }

    /// The raw wait status of a child.
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return status
    }

    /// Starts a program, its output into a file and its input from `input` (a descriptor) or
    /// /dev/null; returns its process id.
    static func spawn(_ path: String, _ arguments: [String], output: String, input: Int32? = nil) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw ServerError("cannot run \(path): \(String(cString: strerror(spawned)))") }
        return pid
    }

    struct ServerError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Numbers the databases the tests create.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            n += 1
            return n
        }
    }

    /// What `atexit` runs: stopping the server.
    final class AtExit: @unchecked Sendable {
        private let lock = NSLock()
        private var action: (() -> Void)?
        func set(_ a: @escaping () -> Void) {
            lock.lock()
            action = a
            lock.unlock()
        }
        func run() {
            lock.lock()
            let a = action
            action = nil
            lock.unlock()
            a?()
        }
    }
    static let atExit = AtExit()
}
