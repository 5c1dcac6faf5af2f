// The store benchmark (docs/STORAGE.md#benchmarks): Quarry's store backends against the same
// queries hand-written in each database's SQL and against the in-memory engine, and Quarry's
// import against each database's bulk load.
//
//     quarry-bench-store --data FILE --work DIR [--database sqlite]… [--repeat N] [--queries DIR]
import Foundation

var dataFile: String?
var work: String?
var names: [String] = []
var repeats = 3
var queries = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../queries").standardized.path
var arguments = CommandLine.arguments.dropFirst()
func usage(_ problem: String) -> Never {
    FileHandle.standardError.write(
        Data(
            "error: \(problem)\nusage: quarry-bench-store --data FILE --work DIR [--database NAME]… [--repeat N] [--queries DIR]\n"
                .utf8))
    exit(2)
}
while let option = arguments.popFirst() {
    guard let value = arguments.popFirst() else { usage("\(option) needs a value") }
    switch option {
    case "--data": dataFile = value
    case "--work": work = value
    case "--database": names.append(value)
    case "--queries": queries = value
    case "--repeat":
        guard let n = Int(value), n > 0 else { usage("--repeat takes a positive count, not '\(value)'") }
        repeats = n
    default: usage("unknown option \(option)")
    }
}
guard let dataFile, let work else { usage("--data and --work are required") }
try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)

/// Every database the benchmark knows, by name.
let known: [String: () -> any BenchDatabase] = [
    "sqlite": { SQLiteBenchDatabase(directory: work) }
]
var databases: [any BenchDatabase] = []
for name in names.isEmpty ? ["sqlite"] : names {
    guard let make = known[name] else { usage("unknown database '\(name)' (known: \(known.keys.sorted()))") }
    databases.append(make())
}
let bench = StoreBench(dataFile: dataFile, queriesDirectory: queries, className: "Person", repeats: repeats)
do {
    let mismatches = try await bench.run(databases)
    if mismatches > 0 {
        FileHandle.standardError.write(Data("error: \(mismatches) answers differ in size (≠ above)\n".utf8))
        exit(1)
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
