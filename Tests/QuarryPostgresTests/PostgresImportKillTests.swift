import Foundation
import Quarry
import QuarryPostgres
import Testing

/// `quarry import --store postgresql://…` is one transaction: killed with SIGKILL in the
/// middle, it leaves the store as it was (PostgreSQL rolls back the dead session). The import
/// is stopped mid-way without timing: a prepared transaction holds one objectId of the file,
/// so the import waits on that row's lock with every earlier object written, uncommitted.
@Suite struct PostgresImportKillTests {
    static func quarry() throws -> String {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let path = dir.appendingPathComponent("quarry").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw PostgresServer.ServerError("\(path) is not built; run swift build --build-tests")
        }
        return path
    }

    @Test func killedMidImportLeavesTheStoreAsItWas() async throws {
        let server = try PostgresServer.shared.get()
        let url = try PostgresServer.database()
        let database = String(url.split(separator: "/")[2].prefix { $0 != "?" })
        let quarry = try Self.quarry()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qpg-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A first, finished import: acknowledged.
        let small = folder.appendingPathComponent("Item.ndjson")
        try (0..<50).map { #"{"objectId":"s\#($0)","n":\#($0)}"# }.joined(separator: "\n").write(
            to: small, atomically: true, encoding: .utf8)
        // posix_spawn and waitpid: Foundation's Process can miss a child's exit in a test process.
        try PostgresServer.exec(quarry, ["import", "--data", small.path, "--store", url])

        // Another transaction holds objectId l10000, prepared so that it outlives psql.
        let table = try server.psql("SELECT 'c' || id FROM quarry_classes WHERE name = 'Item'", database: database)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let hold = "hold_\(database)"
        try server.psql(
            "BEGIN; INSERT INTO \(table) (objectid, doc, raw) VALUES ('l10000', '{}', '{}'); PREPARE TRANSACTION '\(hold)'",
            database: database)

        let large = folder.appendingPathComponent("big.ndjson")
        let pad = String(repeating: "x", count: 200)
        try (0..<20_000).map { #"{"objectId":"l\#($0)","n":\#($0),"pad":"\#(pad)"}"# }.joined(separator: "\n")
            .write(to: large, atomically: true, encoding: .utf8)
        let second = try PostgresServer.spawn(
            quarry, ["import", "--data", large.path, "--class", "Item", "--store", url], output: "/dev/null")
        // Returns once the import's session waits on that lock (or fails after a minute).
        try server.psql(
            """
            SET statement_timeout = '60s';
            DO $$ BEGIN
              WHILE NOT EXISTS (SELECT 1 FROM pg_stat_activity
                                WHERE datname = current_database() AND wait_event_type = 'Lock') LOOP
                PERFORM pg_sleep(0.005);
                PERFORM pg_stat_clear_snapshot();
              END LOOP;
            END $$
            """, database: database)
        // The 10,000 objects before l10000 are in the table's heap, not committed.
        let written =
            Int(
                try server.psql("SELECT pg_relation_size('\(table)')", database: database)
                    .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        kill(second, SIGKILL)
        let status = PostgresServer.wait(second)
        #expect(status & 0x7f == SIGKILL, "the import ended by itself (status \(status)) instead of waiting")
        #expect(written > 2_000_000, "only \(written) bytes were written before the kill")
        // Let the dead import's session have its lock: it finds its client gone and rolls back.
        try server.psql("ROLLBACK PREPARED '\(hold)'", database: database)

        // Opening takes the writers' lock, which the dead import's session holds until it is gone.
        let store = try await PostgresStore.open(url: url)
        defer { store.close() }
        let items = try await store.query(Query(className: "Item", predicate: .constant(true))).records
        #expect(items.count == 50)
        #expect(items.map(\.objectId) == (0..<50).map { "s\($0)" })
        #expect(items.map { $0["n"] } == (0..<50).map { .int(Int64($0)) })
    }
}
