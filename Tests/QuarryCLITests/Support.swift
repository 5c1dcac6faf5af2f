import Foundation
@testable import QuarryCLI

/// Collects what a command writes.
final class Capture: TextSink {
    var text = ""
    func write(_ text: String) { self.text += text }
}

/// The outcome of one in-process `quarry` invocation.
struct Outcome {
    var status: Int32
    var out: String
    var err: String
    var outLines: [String] { out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}

/// Runs `quarry ARGS` in-process with `stdin` as standard input; help wraps at 80 columns.
/// `terminal` makes the console say stdout and stderr are terminals.
func quarry(
    _ arguments: [String], stdin: String = "", terminal: Bool = false, environment: [String: String] = [:]
) -> Outcome {
    let out = Capture(), err = Capture()
    let console = Console(
        output: out, error: err, readInput: { Array(stdin.utf8.prefix($0)) }, columns: 80,
        outputIsTerminal: terminal, errorIsTerminal: terminal, environment: environment)
    let status = QuarryTool.run(arguments, console: console)
    return Outcome(status: status, out: out.text, err: err.text)
}

/// A data file in a fresh temporary directory, removed when the fixture goes away.
final class DataFixture {
    let directory: String
    let path: String

    init(_ contents: String, name: String = "data.json") throws {
        directory = NSTemporaryDirectory() + "quarry-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = directory + "/" + name
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// A small database: contacts with numbers, nulls, a missing field and pointers.
    static let contacts = """
        {"Contact": [
          {"objectId": "c1", "name": "Ann", "age": 31, "score": 7,
           "address": {"__type": "Pointer", "className": "Address", "objectId": "a1"}},
          {"objectId": "c2", "name": "bob", "age": 25, "score": 9},
          {"objectId": "c3", "name": "Cid", "age": 40, "score": 7,
           "address": {"__type": "Pointer", "className": "Address", "objectId": "a2"}},
          {"objectId": "c4", "name": "Dee", "age": null, "score": 8}
        ],
        "Address": [
          {"objectId": "a1", "city": "Dallas"},
          {"objectId": "a2", "city": "Austin"}
        ]}
        """
}
