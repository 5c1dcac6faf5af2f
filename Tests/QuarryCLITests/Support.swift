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
func quarry(_ arguments: [String], stdin: String = "") -> Outcome {
    let out = Capture(), err = Capture()
    let console = Console(output: out, error: err, readInput: { Array(stdin.utf8) }, columns: 80)
    let status = QuarryTool.run(arguments, console: console)
    return Outcome(status: status, out: out.text, err: err.text)
}
