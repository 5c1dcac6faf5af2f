import Foundation
import Quarry
import QuarryPostgres

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

    /// A new store on a new database.
    static func store() async throws -> PostgresStore {
        try await PostgresStore.open(url: try database(), now: { 1_700_000_000_000 }, random: { 0.5 })
    }

    private init() throws(ServerError) {
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .compactMap(Int.init).sorted()
        guard let version = versions.last else {
            throw ServerError(
                "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin): run `make deps`, which installs postgresql")
        }
        bin = "/usr/lib/postgresql/\(version)/bin"
        folder = "/tmp/qpg-\(UUID().uuidString.prefix(8))"
        let asRoot = getuid() == 0
        user = asRoot ? "postgres" : (ProcessInfo.processInfo.environment["USER"] ?? "postgres")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            if asRoot { try Self.exec("/bin/chown", ["postgres:postgres", folder]) }
            try serverCommand("\(bin)/initdb", ["-D", "\(folder)/data", "-U", user, "--auth=trust", "-E", "UTF8", "--locale=C"])
            let options = "-k \(folder) -p 5432 -c listen_addresses='' -c fsync=off -c full_page_writes=off -c max_connections=300"
            try serverCommand("\(bin)/pg_ctl", ["-D", "\(folder)/data", "-o", options, "-l", "\(folder)/log", "-w", "-t", "60", "start"])
        } catch {
            let log = (try? String(contentsOfFile: "\(folder)/log", encoding: .utf8)) ?? ""
            throw ServerError("PostgreSQL did not start: \(error)\n\(log.suffix(2000))")
        }
        let stop = { [folder, bin, asRoot] in
            _ = try? Self.exec(
                asRoot ? "/usr/sbin/runuser" : "\(bin)/pg_ctl",
                (asRoot ? ["-u", "postgres", "--", "\(bin)/pg_ctl"] : []) + ["-D", "\(folder)/data", "-m", "immediate", "stop"])
            try? FileManager.default.removeItem(atPath: folder)
        }
        Self.atExit.set(stop)
        atexit { PostgresServer.atExit.run() }
    }

    /// Runs a statement with psql.
    func psql(_ sql: String, database: String = "postgres") throws {
        try serverCommand("\(bin)/psql", ["-h", folder, "-p", "5432", "-U", user, "-d", database, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql])
    }

    /// A command run as the server's user.
    private func serverCommand(_ path: String, _ arguments: [String]) throws {
        if getuid() == 0 {
            try Self.exec("/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments)
        } else {
            try Self.exec(path, arguments)
        }
    }

    @discardableResult
    static func exec(_ path: String, _ arguments: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        p.currentDirectoryURL = URL(fileURLWithPath: "/tmp")
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard p.terminationStatus == 0 else {
            throw ServerError("\(path) \(arguments.joined(separator: " ")) exited with \(p.terminationStatus): \(text)")
        }
        return text
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
