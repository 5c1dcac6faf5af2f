import ArgumentParser
import Quarry

/// The `quarry` command line as a function: parse the arguments, run the command against the
/// given console, return the exit status. Never traps on any input.
///
/// ```swift
/// let status = QuarryTool.run(["check", "age > 20"], console: .standard())
/// ```
public enum QuarryTool {
    /// The command line as the process received it, bytes and all: an argument that is not
    /// valid UTF-8 fails with `input.encoding` (status 1) as standard input does, instead of
    /// running with U+FFFD in place of the bad bytes.
    public static func run(rawArguments: [[UInt8]], console: Console) -> Int32 {
        var arguments: [String] = []
        for (i, bytes) in rawArguments.enumerated() {
            let argument = String(decoding: bytes, as: UTF8.self)
            guard argument.utf8.elementsEqual(bytes) else {
                let d = Diagnostic(.input.encoding, "argument \(i + 1) is not valid UTF-8")
                console.error.write(SourceText("").render(d))
                return ExitStatus.queryFailed.rawValue
            }
            arguments.append(argument)
        }
        return run(arguments, console: console)
    }

    public static func run(_ arguments: [String], console: Console) -> Int32 {
        if let unknown = DidYouMean.unknownSubcommand(arguments) {
            console.error.write(unknown)
            return ExitStatus.usage.rawValue
        }
        let parsed: ParsableCommand
        do {
            parsed = try QuarryCommand.parseAsRoot(arguments)
        } catch {
            return reportParserOutcome(error, console: console)
        }
        guard let command = parsed as? any ConsoleCommand else {
            // ArgumentParser's own commands (`quarry help run`, the bare root) only print.
            do {
                var builtIn = parsed
                try builtIn.run()
                return ExitStatus.success.rawValue
            } catch {
                return reportParserOutcome(error, console: console)
            }
        }
        do throws(Failure) {
            try command.execute(console)
            return ExitStatus.success.rawValue
        } catch {
            let style = Style.choose(
                command.colorChoice, terminal: console.errorIsTerminal, environment: console.environment)
            error.report(to: console, json: command.reportsJSON, style: style, command: type(of: command))
            return error.status.rawValue
        }
    }

    /// Help and version requests go to stdout with status 0; parse errors to stderr with
    /// status 2 (ArgumentParser says 64, EX_USAGE; docs/ARCHITECTURE.md#exit-statuses says 2).
    private static func reportParserOutcome(_ error: Error, console: Console) -> Int32 {
        let text = QuarryCommand.fullMessage(for: error, columns: console.columns)
        let code = QuarryCommand.exitCode(for: error)
        if code == .success {
            console.output.write(text.hasSuffix("\n") || text.isEmpty ? text : text + "\n")
            return ExitStatus.success.rawValue
        }
        if !text.isEmpty { console.error.write(text.hasSuffix("\n") ? text : text + "\n") }
        return code == .validationFailure ? ExitStatus.usage.rawValue : ExitStatus.queryFailed.rawValue
    }
}
