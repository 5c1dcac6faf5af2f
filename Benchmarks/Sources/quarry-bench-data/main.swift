// Writes the benchmark data set (SyntheticData) as a data file `quarry --data` reads:
//
//     quarry-bench-data [--rows N] [--seed S] [--class Person|City] --output FILE
//
// The file holds {"City": [...], "Person": [...]}, one object a line; with --class, only that
// class, as NDJSON.
import Foundation
import QuarryTestSupport

var rows = 1_000_000
var seed: UInt64 = 42
var output: String?
var onlyClass: String?
var arguments = CommandLine.arguments.dropFirst()
func usage(_ problem: String) -> Never {
    FileHandle.standardError.write(
        Data(
            "error: \(problem)\nusage: quarry-bench-data [--rows N] [--seed S] [--class Person|City] --output FILE\n"
                .utf8))
    exit(2)
}
while let option = arguments.popFirst() {
    guard let value = arguments.popFirst() else { usage("\(option) needs a value") }
    switch option {
    case "--rows":
        guard let n = Int(value), n >= 0 else { usage("--rows takes a count, not '\(value)'") }
        rows = n
    case "--seed":
        guard let s = UInt64(value) else { usage("--seed takes a non-negative integer, not '\(value)'") }
        seed = s
    case "--output": output = value
    case "--class":
        guard value == "Person" || value == "City" else { usage("--class takes Person or City, not '\(value)'") }
        onlyClass = value
    default: usage("unknown option \(option)")
    }
}
guard let output else { usage("--output is required") }
let data = SyntheticData(rows: rows, seed: seed)
do {
    if let onlyClass {
        try data.writeNDJSON(className: onlyClass, toFile: output)
    } else {
        try data.write(toFile: output)
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
print("wrote \(onlyClass ?? "Person and City") objects of \(data.rows) people to \(output)")
