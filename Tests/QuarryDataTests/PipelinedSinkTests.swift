import Foundation
import QuarryCore
import QuarryData
import Testing

/// `PipelinedSink` makes the reader's calls on its target, on another thread, exactly as the
/// reader made them, and reports an object the target refused once reading is over.
@Suite struct PipelinedSinkTests {
    /// Writes every call down; refuses the object with objectId `refuse`.
    struct Recorder: DataFileSink {
        var calls: [String] = []
        var numbers: [String: Int] = [:]
        var refuse: String? = nil

        mutating func beginClass(_ name: String) {
            numbers = [:]
            calls.append("class \(name)")
        }
        mutating func expect(_ objects: Int) { calls.append("expect \(objects)") }
        mutating func field(named name: String) -> Int {
            if let n = numbers[name] { return n }
            // Numbered from 100 so that a reader number used as the target's would show.
            numbers[name] = 100 + numbers.count
            calls.append("field \(name)")
            return numbers[name]!
        }
        mutating func value(_ value: Value, field: Int) {
            let name = numbers.first { $0.value == field }?.key ?? "?"
            calls.append("\(name)=\(value)")
        }
        mutating func endObject(objectId: String) -> Bool {
            calls.append("end \(objectId)")
            return objectId != refuse
        }
    }

    /// A file of `count` objects whose fields come and go and change type.
    static func ndjson(_ count: Int) -> String {
        (0..<count).map { i in
            let id = "o\(i)"
            let extra = i % 3 == 0 ? #", "late\#(i % 5)": [\#(i), "x"]"# : ""
            return #"{"objectId": "\#(id)", "n": \#(i % 2 == 0 ? "\(i)" : "\(i).5"), "s": "v\#(i % 7)"\#(extra)}"#
        }.joined(separator: "\n")
    }

    static func read(_ text: String, into sink: inout some DataFileSink) throws -> DataFile.ReadOutcome {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pipelined-\(UUID().uuidString).ndjson"
        )
        .path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try DataFile.read(path: path, className: "T", into: &sink)
    }

    /// Many batches (8,192 calls each, reused once the builder is done with them) of objects
    /// whose keys vary: the target sees the calls a direct read makes, with its own field
    /// numbers.
    @Test func theTargetSeesTheCallsOfADirectRead() throws {
        let text = Self.ndjson(20_000)
        var direct = Recorder()
        guard case .streamed = try Self.read(text, into: &direct) else {
            Issue.record("the direct read stopped")
            return
        }
        var pipelined = PipelinedSink(Recorder(), depth: 2)
        guard case .streamed = try Self.read(text, into: &pipelined) else {
            Issue.record("the pipelined read stopped")
            return
        }
        let target = pipelined.target(as: Recorder.self)
        #expect(target.calls.count == direct.calls.count)
        let common = min(target.calls.count, direct.calls.count)
        if let i = (0..<common).first(where: { target.calls[$0] != direct.calls[$0] }) {
            Issue.record("call \(i): \(target.calls[i]), read directly: \(direct.calls[i])")
        }
        #expect(target.calls.count > 3 * 8_192)
    }

    /// A file that cannot be opened ends the builder too: its target is back, untouched.
    @Test func aMissingFileEndsTheBuilder() throws {
        var pipelined = PipelinedSink(Recorder())
        #expect(throws: DataFileError.self) {
            try DataFile.read(path: "/nonexistent/quarry-\(UUID().uuidString).ndjson", into: &pipelined)
        }
        #expect(pipelined.target(as: Recorder.self).calls.isEmpty)
    }

    /// A refusal deep in the file reaches the reader late; the read then falls back to the
    /// record loader, which reports the duplicate where it is.
    @Test func aRefusedObjectFallsBackToTheRecordLoader() throws {
        var pipelined = PipelinedSink(Recorder(refuse: "o5"))
        let outcome = try Self.read(Self.ndjson(15_000), into: &pipelined)
        guard case .records(let database) = outcome else {
            Issue.record("a refused object was not reported")
            return
        }
        #expect(database["T"]?.records.count == 15_000)
        // The builder stopped at the refusal and made no call after it.
        #expect(pipelined.target(as: Recorder.self).calls.last == "end o5")
    }
}
