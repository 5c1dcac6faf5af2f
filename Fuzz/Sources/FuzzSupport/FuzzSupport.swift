import CLibFuzzer
@_exported import Quarry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs libFuzzer over `test` with the process's command line (`-max_total_time=…`, corpus
/// directories) and exits with its status. `test` returns 0; a trap in it is a finding. A
/// harness also exports `test` as `LLVMFuzzerTestOneInput`, for when the linker picks
/// libFuzzer's own `main` over the harness's.
public func fuzz(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, test))
}

/// What the harnesses share: the input as query text, and a small database whose classes and
/// fields the queries are compiled and run against.
public enum FuzzInput {
    /// The input as UTF-8 text; nil when it is not valid UTF-8 (the CLI rejects such input
    /// before any front-end sees it).
    public static func text(_ data: UnsafePointer<UInt8>, _ size: Int) -> String? {
        let bytes = UnsafeBufferPointer(start: data, count: size)
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    /// Limits for fuzzing: the untrusted preset without a deadline (a time limit would make
    /// the engine and the reference disagree by chance; libFuzzer's -timeout finds hangs).
    public static let limits: Limits = {
        var limits = Limits.untrusted
        limits.deadlineSeconds = nil
        return limits
    }()

    public static let database: Database = {
        let json = """
            {"Contact": [
              {"objectId": "c1", "name": "Ann", "age": 31, "score": 7.5, "tags": ["a", "b"], "vip": true,
               "born": {"__type": "Date", "iso": "1990-01-02T03:04:05Z"},
               "home": {"__type": "GeoPoint", "latitude": 10, "longitude": 20},
               "address": {"__type": "Pointer", "className": "Address", "objectId": "a1"},
               "meta": {"level": 3, "notes": ["x"]}},
              {"objectId": "c2", "name": "bob", "age": null, "tags": [], "score": -1},
              {"objectId": "c3", "name": "Cid", "age": 40, "tags": ["b"], "vip": false,
               "address": {"__type": "Pointer", "className": "Address", "objectId": "a2"}}
            ],
            "Address": [
              {"objectId": "a1", "city": "Dallas", "zip": 75201},
              {"objectId": "a2", "city": "Tokyo", "zip": 1000001}
            ]}
            """
        return try! DataFile.load(bytes: Array(json.utf8), fileName: "fuzz.json", className: "Contact")
    }()

    /// Compiles `text` in `dialect` on Contact with the database as schema; on success prints
    /// it back and compiles the printed text again (printing must never trap either).
    public static func compile(_ text: String, _ dialect: Dialect) -> Query? {
        let options = CompileOptions(schema: database, limits: limits)
        guard let query = try? dialect.compile(text, className: "Contact", options: options) else { return nil }
        if let printed = try? dialect.print(query, schema: database) {
            _ = try? dialect.compile(printed, className: "Contact", options: options)
        }
        return query
    }
}
