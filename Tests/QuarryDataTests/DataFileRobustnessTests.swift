import Foundation
import Testing
@testable import QuarryData
import QuarryCore
import QuarryTestSupport

/// Damaged input must give a located error, never a crash or a hang.
@Suite struct DataFileRobustnessTests {
    private static let sample =
        FileManager.default.contents(
            atPath: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Samples/sample.json").path) ?? Data()

    @Test func mutatedFilesFailWithALocatedErrorOrLoad() throws {
        let original = [UInt8](Self.sample)
        try #require(!original.isEmpty)
        let interesting: [UInt8] = Array(#"{}[]",:"\0-eE.+ntf"#.utf8) + [0x00, 0x0A, 0xC3, 0xFF, 0x80]
        var rng = SplitMix64(seed: 99)
        var failures = 0
        for _ in 0..<400 {
            var bytes = original
            for _ in 0...(rng.next() % 3) {
                let at = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 3 {
                case 0: bytes[at] = interesting[Int(rng.next() % UInt64(interesting.count))]
                case 1: bytes.remove(at: at)
                default: bytes.insert(interesting[Int(rng.next() % UInt64(interesting.count))], at: at)
                }
            }
            do {
                _ = try DataFile.load(bytes: bytes, fileName: "m.json", className: "M")
            } catch {
                failures += 1
                #expect(error.line != nil && error.column != nil, "\(error)")
                #expect((error.offset ?? -1) >= 0 && (error.offset ?? Int.max) <= bytes.count, "\(error)")
                #expect(!error.message.isEmpty)
            }
        }
        #expect(failures > 200)  // most mutations break the file; the rest must still load
    }

    @Test func truncatedFilesFailAtTheEnd() throws {
        let original = [UInt8](Self.sample)
        for cut in stride(from: 1, to: original.count - 2, by: 97) {
            var caught: DataFileError?
            do { _ = try DataFile.load(bytes: Array(original[..<cut]), fileName: "t.json", className: "T") } catch {
                caught = error
            }
            let e = try #require(caught, "a file cut at \(cut) bytes loaded")
            #expect(e.offset ?? 0 <= cut)
        }
    }

    /// Every prefix of a small file of each layout, cut byte by byte (a cut right after a class
    /// key's colon once trapped): a located error, never a crash.
    @Test func everyPrefixOfEachLayoutFails() throws {
        let files = [
            #"{"results":[{"objectId":"a","n":1}],"count":1}"#,
            #"{"Contact":[{"objectId":"a","n":1}],"City":[]}"#,
            #"[{"objectId":"a","tags":["x"]}]"#,
        ]
        for file in files {
            let bytes = Array(file.utf8)
            for cut in 1..<bytes.count {
                var caught: DataFileError?
                do { _ = try DataFile.load(bytes: Array(bytes[..<cut]), fileName: "p.json", className: "T") } catch {
                    caught = error
                }
                let e = try #require(caught, "\(file) cut at \(cut) bytes loaded")
                #expect(e.offset ?? 0 <= cut)
                #expect(e.line != nil, "\(e)")
            }
        }
    }
}
