import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The server process behind each of the pool's connections (`pg_backend_pid()`, asked on a
/// connection's first read), which a cancel request names.
final class BackendProcesses: @unchecked Sendable {
    private let lock = NSLock()
    private var processes: [PostgresConnection.ID: Int32] = [:]

    func process(of id: PostgresConnection.ID) -> Int32? { lock.withLock { processes[id] } }
    func note(_ process: Int32?, of id: PostgresConnection.ID) { lock.withLock { processes[id] = process } }
}

/// Stops a read's running statement when the read's task is cancelled
/// (docs/STORAGE.md#postgresql-connections): `pg_cancel_backend` on the read's server process,
/// sent from a connection of its own. Once the read's session has settled, no request goes out:
/// its connection may be another read's by then.
final class ReadCancel: @unchecked Sendable {
    private let lock = NSLock()
    private let backends: BackendProcesses
    private let configuration: PostgresConnection.Configuration
    private var process: Int32?
    private var wasCancelled = false
    private var wasExpired = false
    private var settled = false
    private var request: Task<Void, Never>?

    init(backends: BackendProcesses, configuration: PostgresConnection.Configuration) {
        self.backends = backends
        self.configuration = configuration
    }

    var cancelled: Bool { lock.withLock { wasCancelled } }
    var expired: Bool { lock.withLock { wasExpired } }

    /// Learns the leased connection's server process: known already, or asked for by a
    /// statement sent ahead of the read's own (it runs first and is not waited for).
    func attach(to connection: PostgresConnection, _ s: PostgresSession) {
        if let process = backends.process(of: connection.id) { return found(process) }
        let (backends, id) = (backends, connection.id)
        s.send("SELECT pg_backend_pid()::text", alone: true).whenSuccess { result in
            guard let text = try? result.rows.first?.text(0), let process = Int32(text) else { return }
            backends.note(process, of: id)
            self.found(process)
        }
    }

    private func found(_ process: Int32) {
        lock.withLock {
            self.process = process
            if wasCancelled || wasExpired { requestCancel(process) }
        }
    }

    /// The task's cancellation handler.
    func cancel() {
        lock.withLock {
            wasCancelled = true
            if let process { requestCancel(process) }
        }
    }

    /// The read's deadline has passed: its statement is stopped the same way
    /// (docs/STORAGE.md#deadlines).
    func expire() {
        lock.withLock {
            wasExpired = true
            if let process { requestCancel(process) }
        }
    }

    /// Called with the lock held.
    private func requestCancel(_ process: Int32) {
        guard request == nil, !settled else { return }
        let configuration = configuration
        request = Task {
            let logger = Logger(label: "quarry.postgres.cancel")
            guard
                let connection = try? await PostgresConnection.connect(
                    configuration: configuration, id: 0, logger: logger)
            else { return }
            _ = try? await connection.query("SELECT pg_cancel_backend(\(process))", logger: logger)
            try? await connection.close()
        }
    }

    /// Waits for the cancel request, if one went out, and lets no other go out; whether one
    /// did (its connection is then closed rather than given back to the pool, and forgotten).
    func settle(_ connection: PostgresConnection) async -> Bool {
        let request = lock.withLock {
            settled = true
            return self.request
        }
        guard let request else { return false }
        await request.value
        backends.note(nil, of: connection.id)
        return true
    }
}
