import Foundation
import Quarry
import QuarrySQLite
import QuarryTestSupport
import Testing

/// Crash safety: a child process writing to the store is killed with SIGKILL mid-write;
/// reopening the store loses nothing the child had acknowledged and holds no partial object
/// (every transaction is there whole or not at all).
@Suite(.serialized) struct DurabilityTests {
    /// Built beside the test bundle (`swift build --build-tests` builds every product).
    static func executable(_ name: String) throws -> String {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let path = dir.appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw HelperMissing(path: path)
        }
        return path
    }

    struct HelperMissing: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path) is not built; run swift build --build-tests" }
    }

    @Test func killedMidWriteBurstLosesNothingAcknowledged() throws {
        let file = StoreFile()
        let child = Process()
        child.executableURL = URL(fileURLWithPath: try Self.executable("StoreWriteBurst"))
        child.arguments = [file.path, "100000"]
        let out = Pipe()
        child.standardOutput = out
        try child.run()
        // Read acknowledgements until enough have come, then kill without warning.
        var acknowledged = -1
        var pending = Data()
        let reader = out.fileHandleForReading
        while acknowledged < 40 {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                if line.hasPrefix("ack "), let n = Int(line.dropFirst(4)) { acknowledged = n }
            }
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(acknowledged >= 40)

        let store = try file.open()
        let stored = try store.query(Query(className: "Burst", predicate: .constant(true))).records
        let batches = Dictionary(grouping: stored) { $0["batch"] }
        // Whole batches only, each object exactly as written, and every acknowledged one there.
        for (_, records) in batches {
            guard case .int(let n)? = records.first?["batch"] else {
                Issue.record("an object without its batch"); continue
            }
            #expect(records == BurstBatch.records(Int(n)))
        }
        #expect(batches.count > acknowledged)
        for n in 0...acknowledged { #expect(batches[.int(Int64(n))] != nil, "batch \(n) was acknowledged") }
    }

    @Test func killedMidImportLeavesTheStoreAsItWas() throws {
        let file = StoreFile()
        let quarry = try Self.executable("quarry")
        // A first, finished import: acknowledged.
        let small = file.folder.appendingPathComponent("Item.ndjson")
        try (0..<50).map { #"{"objectId":"s\#($0)","n":\#($0)}"# }.joined(separator: "\n").write(
            to: small, atomically: true, encoding: .utf8)
        let first = Process()
        first.executableURL = URL(fileURLWithPath: quarry)
        first.arguments = ["import", "--data", small.path, "--store", "sqlite:" + file.path]
        first.standardOutput = FileHandle.nullDevice
        try first.run()
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)

        // A large second import, killed once its transaction has written a good part.
        let large = file.folder.appendingPathComponent("big.ndjson")
        let line = String(repeating: "x", count: 200)
        try (0..<60_000).map { #"{"objectId":"l\#($0)","n":\#($0),"pad":"\#(line)"}"# }.joined(separator: "\n")
            .write(to: large, atomically: true, encoding: .utf8)
        let second = Process()
        second.executableURL = URL(fileURLWithPath: quarry)
        second.arguments = ["import", "--data", large.path, "--class", "Item", "--store", "sqlite:" + file.path]
        second.standardOutput = FileHandle.nullDevice
        try second.run()
        let wal = file.path + "-wal"
        while second.isRunning, ((try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0) < 1 << 20
        {
            usleep(2_000)
        }
        #expect(second.isRunning, "the import finished before it could be killed")
        kill(second.processIdentifier, SIGKILL)
        second.waitUntilExit()

        let store = try file.open()
        let items = try store.query(Query(className: "Item", predicate: .constant(true))).records
        #expect(items.map(\.objectId) == (0..<50).map { "s\($0)" })
        #expect(items.map { $0["n"] } == (0..<50).map { .int(Int64($0)) })
    }
}
