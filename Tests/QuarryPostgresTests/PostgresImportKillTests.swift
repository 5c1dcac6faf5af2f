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
        let first = Process()
        first.executableURL = URL(fileURLWithPath: quarry)
        first.arguments = ["import", "--data", small.path, "--store", url]
        first.standardOutput = FileHandle.nullDevice
        try first.run()
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)

        // A large second import, killed once its transaction has written a good part.
        let large = folder.appendingPathComponent("big.ndjson")
        let line = String(repeating: "x", count: 200)
        try (0..<200_000).map { #"{"objectId":"l\#($0)","n":\#($0),"pad":"\#(line)"}"# }.joined(separator: "\n")
            .write(to: large, atomically: true, encoding: .utf8)
        let second = Process()
        second.executableURL = URL(fileURLWithPath: quarry)
        second.arguments = ["import", "--data", large.path, "--class", "Item", "--store", url]
        second.standardOutput = FileHandle.nullDevice
        try second.run()
        let store = try await PostgresStore.open(url: url)
        defer { store.close() }
        // The heap grows with the uncommitted rows; another session sees none of them.
        while second.isRunning, try await store.relationBytes("Item") < 2 << 20 { usleep(5_000) }
        #expect(second.isRunning, "the import finished before it could be killed")
        kill(second.processIdentifier, SIGKILL)
        second.waitUntilExit()

        let items = try await store.query(Query(className: "Item", predicate: .constant(true))).records
        #expect(items.map(\.objectId) == (0..<50).map { "s\($0)" })
        #expect(items.map { $0["n"] } == (0..<50).map { .int(Int64($0)) })
    }
}
