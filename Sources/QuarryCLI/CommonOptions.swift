import ArgumentParser
import Quarry

extension Dialect: ExpressibleByArgument {}
extension Profile: ExpressibleByArgument {}

/// The query operand shared by every subcommand.
struct QueryOperand: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "The query text, or '-' to read it from standard input.",
            discussion: "Put '--' before a query that starts with '-'.",
            valueName: "query"))
    var text: String

    /// The query text, read from standard input for `-`: never more than the length cap and
    /// one byte (an over-long query fails with `limit.query-length` after reading that much).
    func read(from console: Console) throws(Failure) -> String {
        guard text == "-" else { return text }
        let cap = Limits.default.maxQueryLength
        let bytes: [UInt8]
        do {
            bytes = try console.readInput(cap + 1)
        } catch {
            throw .query(Diagnostic(.input.read, "\(error)"), source: "")
        }
        if bytes.count > cap {
            let shown = String(decoding: bytes.prefix(cap), as: UTF8.self)
            throw .query(
                Diagnostic(
                    .limit.queryLength,
                    "standard input holds more than \(cap) bytes; the limit is \(cap) (Limits.maxQueryLength)",
                    at: SourceRange(offset: shown.utf8.count, length: 0)), source: shown)
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
    @Option(
        name: .customLong("arg"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "A JSON value for the next NSPredicate placeholder (%@, %K, %d, …), in order; repeat for each.",
            discussion:
                "%K takes a string naming a key path. Typed values use Parse's wrappers: '{\"__type\":\"Date\",\"iso\":\"2015-03-23T00:00:00Z\"}'.",
            valueName: "json"))
    var arguments: [String] = []

    @Option(
        name: .customLong("var"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "Binds the variable $NAME to a JSON value; repeat for each.",
            valueName: "name=json"))
    var variables: [String] = []
}

/// `--data FILE | --store URL [--class NAME]` for the commands that run queries against data
/// (run, explain, bench): a data file loaded into the in-memory engine, or a store.
struct DataOptions: ParsableArguments {
    @Option(
        name: .customLong("data"),
        help: ArgumentHelp("The data file, or '-' to read it from standard input.", valueName: "file"))
    var file: String?

    @Option(
        name: .customLong("store"),
        help: ArgumentHelp(
            "A store made by 'quarry import' instead of a data file: sqlite:PATH or postgresql://….",
            valueName: "url"))
    var store: String?

    @Option(
        name: .customLong("class"),
        help: ArgumentHelp(
            "The class to query (optional when the data holds one class).", valueName: "name"))
    var className: String?

    func validate() throws {
        if file == nil, store == nil { throw ValidationError("Missing expected argument '--data <file>'") }
        if file != nil, store != nil {
            throw ValidationError("--data and --store cannot be used together; choose one.")
        }
    }

    func load(
        _ console: Console, limits: Limits = .default, parallelism: ScanParallelism = .automatic
    ) throws(Failure) -> DataSource {
        guard let file else { throw .usage("this command reads a data file: give --data") }
        return try DataSource.load(
            file, className: className, limits: limits, parallelism: parallelism, console: console)
    }

    /// Standard input holds one thing: the data (`--data -`) or the query (`-`).
    func requireOneStandardInput(query: String) throws(Failure) {
        if file == "-", query == "-" {
            throw .usage("--data - and the query '-' both read standard input; give one of them another way")
        }
    }

    /// The store `--store` names with the class settled, nil without `--store`; `parallelism`
    /// bounds the threads that decode a large answer (docs/STORAGE.md#reading-rows).
    func openStore(parallelism: ScanParallelism = .automatic) throws(Failure) -> StoreSource? {
        guard let store else { return nil }
        return try StoreSource.open(store, className: className, parallelism: parallelism)
    }
}

/// Optional `--data FILE [--class NAME]` for the commands that only compile (check, translate):
/// with data, class names, field names and types are checked too.
struct SchemaOptions: ParsableArguments {
    @Option(
        name: .customLong("data"),
        help: ArgumentHelp(
            "A data file whose classes and fields the query is checked against ('-': standard input).",
            valueName: "file"))
    var file: String?

    @Option(
        name: .customLong("class"),
        help: ArgumentHelp(
            "The class the query is evaluated on (optional when the data holds one class).",
            valueName: "name"))
    var className: String?

    func load(_ console: Console, query: String) throws(Failure) -> DataSource? {
        guard let file else { return nil }
        if file == "-", query == "-" {
            throw .usage("--data - and the query '-' both read standard input; give one of them another way")
        }
        return try DataSource.load(file, className: className, console: console)
    }

    /// The class to compile under: the data's, else `--class`, else none (a syntax check).
    func className(in source: DataSource?) -> String { source?.className ?? className ?? "" }
}

/// `--deadline SECONDS` for the commands that run queries (run, explain, bench): a query that
/// runs longer fails with `limit.deadline`. The default keeps one hostile query from holding a
/// core; 0 lifts it.
struct DeadlineOption: ParsableArguments {
    static let defaultSeconds = 10.0

    @Option(
        name: .customLong("deadline"),
        help: ArgumentHelp(
            "Stop a query that runs longer than this many seconds (0: no deadline).", valueName: "seconds"))
    var seconds: Double = DeadlineOption.defaultSeconds

    func validate() throws {
        guard seconds.isFinite, seconds >= 0 else {
            throw ValidationError("--deadline must be 0 or a positive number of seconds (got \(seconds)).")
        }
    }

    /// The default limits with this deadline.
    var limits: Limits {
        var limits = Limits.default
        limits.deadlineSeconds = seconds == 0 ? nil : seconds
        return limits
    }
}
