import Foundation
import Quarry
import QuarrySQLite
import Testing

/// The import's read-ahead (docs/STORAGE.md#writes): the same objects in the same order as
/// `DataFile.stream`, the parse error after every object before it, and the caller's own
/// error stopping the parser.
@Suite struct ReadAheadTests {
    /// An NDJSON file of `count` objects (several batches), then `tail`.
    static func file(_ folder: StoreFile, count: Int, tail: String = "") throws -> String {
        let path = folder.folder.appendingPathComponent("people.ndjson").path
        var text = ""
        for n in 0..<count { text += "{\"objectId\":\"p\(n)\",\"n\":\(n)}\n" }
        try (text + tail).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func handsOverEveryObjectInOrder() throws {
        let folder = StoreFile()
        let path = try Self.file(folder, count: 5_000)
        var seen: [String] = []
        try ReadAhead.stream(path: path) { record, className in
            #expect(className == "people")
            seen.append(record.objectId)
        }
        #expect(seen == (0..<5_000).map { "p\($0)" })
    }

    @Test func parseErrorComesAfterTheObjectsBeforeIt() throws {
        let folder = StoreFile()
        let path = try Self.file(folder, count: 3_000, tail: "{\"objectId\":\"bad\",\n")
        var seen = 0
        var failure: (any Error)?
        do {
            try ReadAhead.stream(path: path) { _, _ in seen += 1 }
        } catch {
            failure = error
        }
        #expect(seen == 3_000)
        #expect(failure is DataFileError)
    }

    struct Stop: Error {}

    @Test func theCallersErrorStopsTheParser() throws {
        let folder = StoreFile()
        let path = try Self.file(folder, count: 20_000, tail: "not json\n")
        var seen = 0
        #expect(throws: Stop.self) {
            try ReadAhead.stream(path: path) { _, _ in
                seen += 1
                if seen == 700 { throw Stop() }
            }
        }
        #expect(seen == 700)
    }
}
