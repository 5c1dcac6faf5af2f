import ArgumentParser
import Quarry

/// `quarry shell`: load the data once, then run queries typed at a prompt or piped in, one a
/// line, the way the sqlite3 shell is used (docs/ARCHITECTURE.md#the-shell).
struct ShellCommand: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "shell",
        abstract: "Load the data once, then run queries typed at a prompt or piped in, one a line.",
        discussion: """
            Each line is a query in the current dialect, on the current class; lines starting \
            with '.' are commands (.help lists them): .dialect, .class, .profile, .format, \
            .explain, .index, .timer, .quit. An error in one line is reported and the shell goes \
            on. On a terminal the prompt has line editing (arrows, Home/End, Ctrl-A/E/K/U/W) and \
            history (up/down, kept in ~/.quarry_history or $QUARRY_HISTORY; empty: none).

            From a pipe or file the shell prints no prompt and exits at the end of input with \
            status 1 if any line failed, else 0.

            Examples:
              quarry shell --data Samples/sample.json --class Contact
              printf 'age > 30\\n.format csv\\nname LIKE %s\\n' "'J%'" | quarry shell --data d.json
            """)

    @OptionGroup var data: DataOptions

    @Option(help: "The query language to start with.")
    var dialect: Dialect = .sql

    @Option(help: "Compatibility profile to start with.")
    var profile: Profile = .exact

    @Option(
        help: ArgumentHelp(
            "Output format to start with: ndjson, json, table, box, csv or markdown (default: table on a terminal, else ndjson).",
            valueName: "format"))
    var format: OutputFormat?

    @OptionGroup var indexes: IndexOptions

    @OptionGroup var deadline: DeadlineOption

    @Flag(help: "Print every answer (and every error) as one JSON document a line on stdout.")
    var json = false

    @OptionGroup var color: ColorOption

    var reportsJSON: Bool { json }
    var colorChoice: ColorChoice { color.choice }

    func validate() throws {
        if json, let format, format != .json {
            throw ValidationError("--json prints JSON; it cannot be used with --format \(format).")
        }
    }
}

extension ShellCommand {
    func execute(_ console: Console) throws(Failure) {
        if data.file == "-" {
            throw .usage("the shell reads its queries from standard input; give --data a file")
        }
        let target: ShellSession.Target
        if let store = try data.openStore() {
            try store.declare(indexes.specs)
            target = .store(store)
        } else {
            let source = try data.load(console, limits: deadline.limits)
            target = .memory(source, try indexes.engine(source))
        }
        let lines = console.lines()
        defer { lines.close() }
        var session = ShellSession(
            target: target, console: console, interactive: lines.isInteractive,
            settings: ShellSettings(
                dialect: dialect, profile: profile,
                format: json ? .json : format ?? .defaultFor(terminal: console.outputIsTerminal),
                json: json, colorChoice: color.choice))
        if lines.isInteractive { console.output.write(session.banner()) }
        while let line = lines.next(prompt: session.prompt) {
            let goOn = session.handle(line)
            console.output.flush()
            console.error.flush()
            guard goOn else { break }
        }
        if session.failures > 0 && !lines.isInteractive { throw .reported(.queryFailed) }
    }
}
