import Foundation
import Quarry
import QuarryPostgres
import Testing

/// `quarry import --store postgresql://…` is one transaction: killed with SIGKILL in the
/// middle, it leaves the store as it was (PostgreSQL rolls back the dead session).
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
        let url = try PostgresServer.database()
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

        // A large second import, killed once its transaction has written a good part.
        let large = folder.appendingPathComponent("big.ndjson")
        let line = String(repeating: "x", count: 200)
        try (0..<200_000).map { #"{"objectId":"l\#($0)","n":\#($0),"pad":"\#(line)"}"# }.joined(separator: "\n")
            .write(to: large, atomically: true, encoding: .utf8)
        let second = try PostgresServer.spawn(
            quarry, ["import", "--data", large.path, "--class", "Item", "--store", url], output: "/dev/null")
        let store = try await PostgresStore.open(url: url)
        defer { store.close() }
        // The heap grows with the uncommitted rows; another session sees none of them.
        var status: Int32 = 0
        var running = true
        while running, try await store.relationBytes("Item") < 2 << 20 {
            try await Task.sleep(for: .milliseconds(5))
            running = waitpid(second, &status, WNOHANG) == 0
        }
        #expect(running, "the import finished before it could be killed")
        kill(second, SIGKILL)
        if running { _ = PostgresServer.wait(second) }

        let items = try await store.query(Query(className: "Item", predicate: .constant(true))).records
        #expect(items.map(\.objectId) == (0..<50).map { "s\($0)" })
        #expect(items.map { $0["n"] } == (0..<50).map { .int(Int64($0)) })
    }
}
