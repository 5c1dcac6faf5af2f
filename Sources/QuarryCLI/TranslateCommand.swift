import ArgumentParser
import Quarry

/// `quarry translate`: the same query in another dialect.
struct TranslateCommand: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "translate",
        abstract: "Translate a query from one dialect into another.",
        discussion: """
            A construct the target dialect cannot express is an error \
            (translate.inexpressible) naming it; nothing is dropped silently.
            """)

    @Option(name: [.customLong("from"), .customLong("dialect")], help: "The query's language.")
    var from: Dialect = .sql

    @Option(help: "The language to write.")
    var to: Dialect

    @Option(name: .customLong("data"), help: ArgumentHelp(
        "A data file whose classes and fields the query is checked against.", valueName: "file"))
    var dataFile: String?

    @Option(name: .customLong("class"), help: ArgumentHelp(
        "The class the query is evaluated on (optional when the data holds one class).",
        valueName: "name"))
    var className: String?

    @OptionGroup var bindings: BindingOptions

    @Flag(help: "Report errors as JSON on stdout: {\"ok\":false,\"errors\":[…]}.")
    var json = false

    @OptionGroup var query: QueryOperand

    var reportsJSON: Bool { json }
}
