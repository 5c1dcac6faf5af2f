import FuzzSupport

// The data-file reader (JSON, NDJSON, Parse export layouts): any bytes load or fail with a
// `DataFileError`, and what loads builds an engine.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let database = try? DataFile.load(bytes: bytes, fileName: "fuzz.json", className: "T") else { return 0 }
    let engine = Engine(database: database, limits: FuzzInput.limits)
    for className in database.classNames {
        _ = try? engine.run(Query(className: className, order: [.key(FieldPath("objectId"), .descending)], limit: 3))
    }
    return 0
}

fuzz(fuzzOne)
