import ArgumentParser

/// `quarry`: the root command; its subcommands do the work.
struct QuarryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quarry",
        abstract: "Validate, translate and run where-clauses (SQL-92, NSPredicate, Parse REST JSON).",
        discussion: """
            QUERY may be '-' to read it from standard input; '--' ends the options, so a query \
            may start with '-'. The default dialect is sql.

            Exit status: 0 success; 1 the query is invalid or cannot run (a diagnostic on \
            stderr); 2 usage error; 3 the data file is unreadable or malformed.

            Shell completion: quarry --generate-completion-script bash|zsh|fish.
            """,
        version: QuarryCommand.version,
        subcommands: [
            CheckCommand.self, RunCommand.self, TranslateCommand.self, ExplainCommand.self, ImportCommand.self,
            ServeCommand.self,
            BenchCommand.self,
            ShellCommand.self,
        ])

    /// What `quarry --version` prints.
    static let version = "0.12.0"
}

/// A subcommand that runs against an injected console instead of the process's streams.
protocol ConsoleCommand: ParsableCommand {
    /// Whether failures are reported as JSON on stdout (`--json`) rather than text on stderr.
    var reportsJSON: Bool { get }
    /// `--color`: whether diagnostics on stderr are coloured.
    var colorChoice: ColorChoice { get }
    func execute(_ console: Console) throws(Failure)
}

extension ConsoleCommand {
    var colorChoice: ColorChoice { .auto }
}
