import Foundation
import NIOCore
import PostgresNIO

/// The statements each of the pool's connections has prepared (docs/STORAGE.md#prepared-statements):
/// a query's statement text is sent unnamed the first time a connection sends it and prepared
/// the second, so that the server parses it once and may keep its plan; a statement the
/// connection has prepared is then executed by name. At most `capacity` a connection, the least
/// recently used deallocated first.
final class PreparedStatements: @unchecked Sendable {
    private let lock = NSLock()
    private var connections: [PostgresConnection.ID: ConnectionStatements] = [:]
    /// Connections whose statements are kept before those of closed ones are dropped.
    private static let connectionsKept = 16

    /// The statements of `connection` (a pooled connection keeps its id while it lives).
    func of(_ connection: PostgresConnection) -> ConnectionStatements {
        lock.withLock {
            if let known = connections[connection.id] { return known }
            if connections.count >= Self.connectionsKept {
                // A closed connection's statements died with its session.
                connections = connections.filter { !$0.value.connection.isClosed }
            }
            let statements = ConnectionStatements(connection)
            connections[connection.id] = statements
            return statements
        }
    }
}

/// One connection's prepared statements, keyed by their text. Read by the session using the
/// connection and written on its event loop when a preparation fails, hence the lock.
final class ConnectionStatements: @unchecked Sendable {
    let connection: PostgresConnection
    private let lock = NSLock()
    private var prepared: [String: Entry] = [:]
    /// Texts sent once, unprepared.
    private var seen: Set<String> = []
    private var clock: UInt64 = 0
    static let capacity = 64
    /// Texts remembered as sent once; past that, the set starts again.
    static let seenCapacity = 256

    private final class Entry {
        let statement: EventLoopFuture<PostgresNIO.PreparedQuery>
        var lastUse: UInt64
        init(_ statement: EventLoopFuture<PostgresNIO.PreparedQuery>, _ lastUse: UInt64) {
            self.statement = statement
            self.lastUse = lastUse
        }
    }

    init(_ connection: PostgresConnection) { self.connection = connection }

    /// The prepared statement to execute `sql` with, or nil when it is to be sent unnamed (the
    /// connection's first sending of the text). The second sending prepares it: the
    /// preparation's answer is one more round trip, once.
    func statement(_ sql: String) -> EventLoopFuture<PostgresNIO.PreparedQuery>? {
        var evicted: EventLoopFuture<PostgresNIO.PreparedQuery>?
        let statement: EventLoopFuture<PostgresNIO.PreparedQuery>? = lock.withLock {
            clock += 1
            if let known = prepared[sql] {
                known.lastUse = clock
                return known.statement
            }
            if seen.insert(sql).inserted {
                if seen.count > Self.seenCapacity { seen = [sql] }
                return nil
            }
            seen.remove(sql)
            if prepared.count >= Self.capacity, let oldest = prepared.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                prepared[oldest.key] = nil
                evicted = oldest.value.statement
            }
            let preparing = connection.prepare(query: sql)
            prepared[sql] = Entry(preparing, clock)
            return preparing
        }
        // Deallocating is sent behind whatever the connection runs now, unwaited.
        evicted?.whenSuccess { _ = $0.deallocate() }
        return statement
    }

    /// Forgets `statement` (a preparation or an execution of it failed): the text is sent
    /// unnamed again, and prepared again on its next use after that.
    func forget(_ sql: String, _ statement: EventLoopFuture<PostgresNIO.PreparedQuery>) {
        lock.withLock {
            if prepared[sql]?.statement === statement { prepared[sql] = nil }
        }
    }

    /// How many statements the connection holds prepared (or is preparing).
    var count: Int { lock.withLock { prepared.count } }
}
