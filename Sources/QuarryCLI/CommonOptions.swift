import ArgumentParser
import Quarry

extension Dialect: ExpressibleByArgument {}
extension Profile: ExpressibleByArgument {}

/// The query operand shared by every subcommand.
struct QueryOperand: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "The query text, or '-' to read it from standard input.",
        discussion: "Put '--' before a query that starts with '-'.",
        valueName: "query"))
    var text: String

    /// The query text, read from standard input for `-`.
    func read(from console: Console) throws(Failure) -> String {
        guard text == "-" else { return text }
        let bytes: [UInt8]
        do {
            bytes = try console.readInput()
        } catch {
            throw .query(Diagnostic(.input.read, "\(error)"), source: "")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes) else {
            throw .query(Diagnostic(.input.encoding, "standard input is not valid UTF-8"), source: "")
        }
        // A trailing newline from `echo` or a file is not part of the query.
        var trimmed = Substring(text)
        while trimmed.last == "\n" || trimmed.last == "\r\n" || trimmed.last == "\r" { trimmed.removeLast() }
        return String(trimmed)
    }
}

/// `--arg` and `--var`: values for NSPredicate placeholders and `$NAME` variables.
struct BindingOptions: ParsableArguments {
    @Option(name: .customLong("arg"), parsing: .unconditionalSingleValue, help: ArgumentHelp(
        "A JSON value for the next NSPredicate placeholder (%@, %K, %d, …), in order; repeat for each.",
        discussion: "%K takes a string naming a key path. Typed values use Parse's wrappers: '{\"__type\":\"Date\",\"iso\":\"2015-03-23T00:00:00Z\"}'.",
        valueName: "json"))
    var arguments: [String] = []

    @Option(name: .customLong("var"), parsing: .unconditionalSingleValue, help: ArgumentHelp(
        "Binds the variable $NAME to a JSON value; repeat for each.",
        valueName: "name=json"))
    var variables: [String] = []
}

/// `--data FILE [--class NAME]` for the commands that run queries against data (run, explain,
/// bench).
struct DataOptions: ParsableArguments {
    @Option(name: .customLong("data"), help: ArgumentHelp("The data file.", valueName: "file"))
    var file: String

    @Option(name: .customLong("class"), help: ArgumentHelp(
        "The class to query (optional when the data holds one class).", valueName: "name"))
    var className: String?

    func load() throws(Failure) -> DataSource { try DataSource.load(file, className: className) }
}

/// Optional `--data FILE [--class NAME]` for the commands that only compile (check, translate):
/// with data, class names, field names and types are checked too.
struct SchemaOptions: ParsableArguments {
    @Option(name: .customLong("data"), help: ArgumentHelp(
        "A data file whose classes and fields the query is checked against.", valueName: "file"))
    var file: String?

    @Option(name: .customLong("class"), help: ArgumentHelp(
        "The class the query is evaluated on (optional when the data holds one class).",
        valueName: "name"))
    var className: String?

    func load() throws(Failure) -> DataSource? {
        try file.map { path throws(Failure) in try DataSource.load(path, className: className) }
    }

    /// The class to compile under: the data's, else `--class`, else none (a syntax check).
    func className(in source: DataSource?) -> String { source?.className ?? className ?? "" }
}
