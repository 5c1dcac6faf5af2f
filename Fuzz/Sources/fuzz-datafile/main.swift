import Foundation
import FuzzSupport

// The data-file reader (JSON, NDJSON, Parse export layouts): any bytes load or fail with a
// `DataFileError`, and what loads builds an engine. The same bytes as a file go through the
// direct loader too (docs/STORAGE.md#direct-loading), which must load exactly what the record
// loader loads, with the same objects, or fail with the same error.

/// The file the direct loader reads, one per process.
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-datafile-\(getpid()).json").path

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let records = Result { () throws(DataFileError) in
        try DataFile.load(bytes: bytes, fileName: scratch, className: "T")
    }
    guard FileManager.default.createFile(atPath: scratch, contents: Data(bytes)) else { return 0 }
    let direct = Result { () throws(DataFileError) in
        try Engine.load(contentsOfFile: scratch, className: "T", limits: FuzzInput.limits, parallelism: .sequential)
    }
    switch (records, direct) {
    case (.success(let database), .success(let loaded)):
        let engine = Engine(database: database, limits: FuzzInput.limits)
        for className in database.classNames {
            let all = Query(className: className)
            guard (try? engine.run(all)) == (try? loaded.engine.run(all)) else {
                fatalError("the direct loader's \(className) differs from the record loader's")
            }
            _ = try? engine.run(
                Query(className: className, order: [.key(FieldPath("objectId"), .descending)], limit: 3))
        }
    case (.failure(let a), .failure(let b)):
        guard a == b else { fatalError("different errors: \(a) and \(b)") }
    case (.success, .failure(let b)):
        // The cell limit is the engine's: the record loader has none.
        guard b.code == "limit.sparse-class" else { fatalError("only the direct loader failed: \(b)") }
    case (.failure(let a), .success):
        fatalError("only the record loader failed: \(a)")
    }
    return 0
}

fuzz(fuzzOne)
