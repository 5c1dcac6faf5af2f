import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Quarry
import QuarrySQLite
import Testing

/// A real `quarry serve --store sqlite:…` process, killed with SIGKILL while four clients send
/// it writes (single creates and transactional batches of five): reopening the store finds
/// every acknowledged object exactly as sent, every batch whole or absent, and no object that
/// is not whole.
@Suite struct KilledServerTests {
    static let pad = String(repeating: "p", count: 300)

    @Test func killedMidWriteBurstLosesNothingAcknowledged() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("burst.db").path
        let server = try ServedProcess(arguments: [
            "serve", "--store", "sqlite:" + store, "--port", "0", "--app-id", "app", "--master-key", "m",
        ])
        let acknowledged = Acknowledgements()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    // The client's own shutdown may fail once the server is gone: only the store matters.
                    try? await TestClient.withClient(host: "127.0.0.1", port: server.port) { client in
                        await Self.write(writer, to: client, into: acknowledged)
                    }
                }
            }
            // Kill once enough writes are acknowledged, with more on their way.
            while await acknowledged.count < 200 { try await Task.sleep(for: .milliseconds(5)) }
            server.kill()
            try await group.waitForAll()
        }
        #expect(server.wasKilled)

        let records = try await SQLiteStore(path: store).run(Query(className: "Burst"), variables: [:]).records
        let stored = Dictionary(records.map { ($0.objectId, $0) }, uniquingKeysWith: { a, _ in a })
        for record in records {
            guard case .int(let n)? = record["n"] else {
                Issue.record("an object without its n: \(record)")
                continue
            }
            #expect(record["check"] == .int(n * 7) && record["pad"] == .string(Self.pad), "object \(n) is partial")
        }
        let batches = Dictionary(grouping: records.compactMap { $0["batch"] }, by: { $0 })
        for (batch, members) in batches { #expect(members.count == 5, "batch \(batch) is not whole") }
        let acks = await acknowledged.ids
        #expect(acks.count >= 200)
        for (id, n) in acks { #expect(stored[id]?["n"] == .int(n), "acknowledged object \(n) (\(id)) is lost") }
    }

    /// Writes until the server dies; each objectId a 2xx answer names is acknowledged.
    static func write(_ writer: Int, to client: TestClient, into acknowledged: Acknowledgements) async {
        let headers: HTTPFields = [
            HTTPField.Name("X-Parse-Application-Id")!: "app", HTTPField.Name("X-Parse-Master-Key")!: "m",
        ]
        for round in 0..<100_000 {
            let n = Int64(writer * 1_000_000 + round * 10)
            func object(_ n: Int64, batch: Int64? = nil) -> String {
                let batchField = batch.map { #","batch":\#($0)"# } ?? ""
                return #"{"n":\#(n),"check":\#(n * 7),"pad":"\#(pad)"\#(batchField)}"#
            }
            let single = round % 2 == 0
            let body =
                single
                ? object(n)
                : #"{"transaction":true,"requests":["#
                    + (0..<5).map {
                        #"{"method":"POST","path":"/parse/classes/Burst","body":\#(object(n + Int64($0), batch: n))}"#
                    }
                    .joined(separator: ",") + "]}"
            let uri = single ? "/parse/classes/Burst" : "/parse/batch"
            guard
                let response = try? await client.execute(
                    TestClient.Request(uri, method: .post, headers: headers, body: ByteBuffer(string: body))),
                response.status.kind == .successful, let bytes = response.body.map({ Array($0.readableBytesView) }),
                let json = try? JSONParser().parse(bytes)
            else { return }
            if single, let id = json["objectId"]?.stringValue {
                await acknowledged.add(id, n)
            } else if case .array(let answers) = json {
                for (i, answer) in answers.enumerated() {
                    if let id = answer["success"]?["objectId"]?.stringValue { await acknowledged.add(id, n + Int64(i)) }
                }
            }
        }
    }

    actor Acknowledgements {
        private(set) var ids: [(String, Int64)] = []
        var count: Int { ids.count }
        func add(_ id: String, _ n: Int64) { ids.append((id, n)) }
    }
}

/// `quarry serve` in a child process (built beside the test bundle), on the port it announces.
final class ServedProcess: @unchecked Sendable {
    let process: Process
    let port: Int

    init(arguments: [String]) throws {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let quarry = dir.appendingPathComponent("quarry").path
        guard FileManager.default.isExecutableFile(atPath: quarry) else { throw Missing(what: quarry) }
        process = Process()
        process.executableURL = URL(fileURLWithPath: quarry)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line is "quarry serve: listening on http://HOST:PORT".
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let colon = text.lastIndex(of: ":"),
            let port = Int(text[text.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            process.terminate()
            throw Missing(what: "the listening line (got '\(text)')")
        }
        self.port = port
    }

    func kill() { Foundation.kill(process.processIdentifier, SIGKILL) }

    var wasKilled: Bool {
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    }

    struct Missing: Error, CustomStringConvertible {
        var what: String
        var description: String { "\(what) is missing; run swift build --build-tests" }
    }
}
