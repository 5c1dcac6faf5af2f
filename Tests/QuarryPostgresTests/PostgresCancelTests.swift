import Foundation
import Quarry
import QuarryPostgres
import QuarryTestSupport
import Testing

/// A read whose task is cancelled while its statement runs has the statement cancelled by the
/// server and fails with `query.cancelled` (docs/STORAGE.md#postgresql-connections). The
/// statement is held mid-way without timing: a prepared transaction holds an exclusive lock on
/// the class's table, so the read's statement waits for it until cancelled.
@Suite struct PostgresCancelTests {
    @Test func aCancelledReadStopsItsStatement() async throws {
        let server = try PostgresServer.shared.get()
        let url = try PostgresServer.database()
        let database = String(url.split(separator: "/")[2].prefix { $0 != "?" })
        let store = try await PostgresStore.open(url: url)
        defer { store.close() }
        try await store.write(
            (0..<5).map { .save(Record(objectId: "i\($0)", fields: [("n", .int(Int64($0)))]), in: "Item") })
        let query = Query(className: "Item", predicate: .constant(true))
        // The pool's connections know their server processes once they have read.
        #expect(try await store.run(query, variables: [:]).objectIds.count == 5)
        let table = try server.psql("SELECT 'c' || id FROM quarry_classes WHERE name = 'Item'", database: database)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let hold = "hold_\(database)"
        try server.psql(
            "BEGIN; LOCK TABLE \(table) IN ACCESS EXCLUSIVE MODE; PREPARE TRANSACTION '\(hold)'", database: database)
        // Released below; here too when the test fails first, so that the read ends.
        defer { _ = try? server.psql("ROLLBACK PREPARED '\(hold)'", database: database) }
        let read = Task {
            await QueryOutcome { () async throws(Diagnostic) in try await store.run(query, variables: [:]) }
        }
        // Returns once the read's statement waits for the lock (or fails after a minute).
        try server.psql(Self.waitUntil("EXISTS", "Lock"), database: database)
        read.cancel()
        // The waiting statement goes away without the lock being released.
        try server.psql(Self.waitUntil("NOT EXISTS", "Lock"), database: database)
        try server.psql("ROLLBACK PREPARED '\(hold)'", database: database)
        #expect(await read.value == .failure("query.cancelled"))
        // The pool goes on serving reads.
        #expect(try await store.run(query, variables: [:]).objectIds.count == 5)
    }

    /// A psql block that polls `pg_stat_activity` until a backend of this database waits (or no
    /// longer waits) on `waitEvent`, failing after a minute.
    static func waitUntil(_ exists: String, _ waitEvent: String) -> String {
        """
        SET statement_timeout = '60s';
        DO $$ BEGIN
          WHILE NOT \(exists) (SELECT 1 FROM pg_stat_activity
                               WHERE datname = current_database() AND wait_event_type = '\(waitEvent)') LOOP
            PERFORM pg_sleep(0.005);
            PERFORM pg_stat_clear_snapshot();
          END LOOP;
        END $$
        """
    }
}
