import ArgumentParser
import Quarry

/// `quarry translate`: the same query in another dialect.
struct TranslateCommand: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "translate",
        abstract: "Translate a query from one dialect into another.",
        discussion: """
            A construct the target dialect cannot express is an error \
            (translate.inexpressible) naming it; nothing is dropped silently. Null and array rules \
            differ between the dialects; with --data (and --class) a test on a field the data \
            shows to hold single values can translate where it otherwise could not.

            Examples:
              quarry translate --to json "age >= 21 AND name IN ('a', 'b')"
              quarry translate --from json --to sql '{"age":{"$gt":20}}'
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

extension TranslateCommand {
    func execute(_ console: Console) throws(Failure) {
        try bindings.requireDialect(from)
        let text = try query.read(from: console)
        let source = try dataFile.map { path throws(Failure) in try DataSource.load(path, className: className) }
        let compiled = try Compilation.compile(
            text, dialect: from, className: source?.className ?? className ?? "",
            schema: source?.database, profile: .exact, bindings: bindings)
        do throws(Diagnostics) {
            console.output.write(try to.print(compiled, schema: source?.database) + "\n")
        } catch {
            throw .query(error, source: text)
        }
    }
}
