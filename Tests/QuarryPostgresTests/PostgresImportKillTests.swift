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
        let table = try PostgresServer.table(of: "Item", in: url)
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
        try await PostgresServer.untilLockWaiters(true, in: url)
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

    /// Upserts are sent without waiting (docs/STORAGE.md#postgresql-connections): one that
    /// PostgreSQL refuses fails the transaction with PostgreSQL's own error, even when the
    /// statement that meets the failure first is a later one (here the catalog's new field,
    /// which PostgreSQL answers only with "current transaction is aborted"), and nothing of the
    /// transaction is kept.
    @Test func aRefusedUpsertFailsTheImportWithItsOwnError() async throws {
        let server = try PostgresServer.shared.get()
        let url = try PostgresServer.database()
        let database = String(url.split(separator: "/")[2].prefix { $0 != "?" })
        let store = try await PostgresStore.open(url: url)
        defer { store.close() }
        try await store.write([.save(Record(objectId: "s0", fields: [("n", .int(0))]), in: "Item")])
        let table = try PostgresServer.table(of: "Item", in: url)
        try server.psql(
            """
            CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF NEW.objectid = 'l777' THEN RAISE EXCEPTION 'refused %', NEW.objectid; END IF;
              RETURN NEW;
            END $$;
            CREATE TRIGGER refuse BEFORE INSERT ON \(table) FOR EACH ROW EXECUTE FUNCTION refuse();
            """, database: database)
        let upsertRows = 2_000
        await #expect {
            try await store.transaction { t in
                for i in 0..<(2 * upsertRows) {
                    var fields: [(String, Value)] = [("n", .int(Int64(i)))]
                    // The first upsert is sent as object `upsertRows` is saved; the next one
                    // brings a new field, whose catalog statement is the first to run after
                    // the refused upsert.
                    if i > upsertRows { fields.append(("late", .bool(true))) }
                    try t.save(Record(objectId: "l\(i)", fields: fields), in: "Item")
                }
            }
        } throws: { error in
            (error as? Diagnostic)?.message.contains("refused l777") == true
        }
        let items = try await store.query(Query(className: "Item", predicate: .constant(true))).records
        #expect(items.map(\.objectId) == ["s0"])
        #expect(try await store.schema().fieldType("late", in: "Item") == nil)
    }
}
