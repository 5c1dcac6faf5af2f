import ArgumentParser
import Quarry

/// `quarry run`: the matching objects of a data file.
struct RunCommand: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a query over a data file and print the matching objects.",
        discussion: """
            The data file holds {"ClassName":[objects…],…}, an array of objects, \
            {"results":[objects…]}, or NDJSON (one object a line), in Parse REST JSON.

            Objects are printed in result order as a table on a terminal and as NDJSON \
            (Parse REST JSON encoding, one object a line) otherwise, unless --ids, --count, \
            --format or --json says otherwise. --json prints one JSON document: \
            {"results":[…]}, {"count":N} or {"ids":[…]}, and errors as {"ok":false,"errors":[…]}. With --dialect json the query may be a \
            whole request body; --order, --limit, --skip, --keys and --include override its own.

            Examples:
              quarry run --data data.json --class Contact "address.city = 'Dallas'"
              quarry run --data data.json --class Contact --order -age --ids "age > 20"
              quarry run --data data.json --class Contact --dialect json '{"age":{"$gt":2}}'
              quarry run --store sqlite:people.db --class Person "age > 20"
            """)

    @OptionGroup var data: DataOptions

    @Option(help: "The query language.")
    var dialect: Dialect = .sql

    @Option(help: "Compatibility profile: default and maximum limits, inner-query limits, accepted constructs.")
    var profile: Profile = .exact

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Sort order: Parse style '-score,name' or SQL style 'score DESC, name'.",
            valueName: "spec"), transform: OrderSpec.parse)
    var order: [SortKey]?

    @Option(parsing: .unconditional, help: ArgumentHelp("Return at most this many objects.", valueName: "n"))
    var limit: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Skip this many objects first.", valueName: "n"))
    var skip: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Return only these fields (objectId, createdAt and updatedAt always come back).",
            valueName: "a,b"), transform: { try FieldList.parse($0, role: "key") })
    var keys: [FieldPath]?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Embed the objects these pointer fields point to (dot paths for nested ones).",
            valueName: "a,b"), transform: { try FieldList.parse($0, role: "include") })
    var include: [FieldPath]?

    @OptionGroup var bindings: BindingOptions

    @OptionGroup var indexes: IndexOptions

    @OptionGroup var deadline: DeadlineOption

    @OptionGroup var threads: ThreadsOption

    @Flag(help: "Print one objectId a line.")
    var ids = false

    @Flag(help: "Print the number of matches.")
    var count = false

    @Option(
        help: ArgumentHelp(
            "Output format: ndjson, json, table, box, csv or markdown (default: table on a terminal, else ndjson).",
            valueName: "format"))
    var format: OutputFormat?

    @Flag(help: "Print the answer (or the errors) as one JSON document on stdout.")
    var json = false

    @OptionGroup var color: ColorOption

    @OptionGroup var query: QueryOperand

    var reportsJSON: Bool { json }

    func validate() throws {
        let outputs = [ids ? "--ids" : nil, count ? "--count" : nil, format.map { _ in "--format" }].compactMap { $0 }
        if json, let format, format != .json {
            throw ValidationError("--json prints JSON; it cannot be used with --format \(format).")
        }
        if outputs.count > 1 {
            throw ValidationError("\(outputs.joined(separator: " and ")) cannot be used together; choose one output.")
        }
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more (got \(limit)).") }
        if let skip, skip < 0 { throw ValidationError("--skip must be 0 or more (got \(skip)).") }
    }
}

extension RunCommand {
    func execute(_ console: Console) throws(Failure) {
        try bindings.requireDialect(dialect)
        let text = try query.read(from: console)
        try data.requireOneStandardInput(query: query.text)
        let store = try data.openStore(parallelism: threads.parallelism)
        let source =
            store == nil ? try data.load(console, limits: deadline.limits, parallelism: threads.parallelism) : nil
        let className = store?.className ?? source!.className
        let schema: any Schema = store?.schema ?? source!.schema
        var compiled = try Compilation.compile(
            text, dialect: dialect, className: className, schema: schema,
            profile: profile, bindings: bindings)
        // Options given on the command line win over a JSON request body's own.
        if let order { compiled.order = order }
        if let limit { compiled.limit = limit }
        if let skip { compiled.skip = skip }
        if let keys { compiled.keys = keys }
        if let include { compiled.includes = include }
        if count { compiled.count = true }

        // The engine (or the store) answers exactly as the reference evaluator does.
        let result: QueryResult
        if let store {
            try store.declare(indexes.specs)
            do throws(Diagnostic) {
                result = try store.store.query(compiled)
            } catch {
                throw .query(error, source: text)
            }
        } else {
            let engine = try indexes.engine(source!)
            do throws(Diagnostic) {
                result = try engine.run(compiled)
            } catch {
                throw .query(error, source: text)
            }
        }
        let style = Style.choose(color.choice, terminal: console.outputIsTerminal, environment: console.environment)
        switch result {
        case .count(let n):
            console.output.write(json ? "{\"count\":\(n)}\n" : "\(n)\n")
        case .records(let records):
            if ids {
                return json
                    ? ResultPrinter.jsonIds(records, to: console.output)
                    : ResultPrinter.ids(records, to: console.output)
            }
            let chosen = json ? .json : format ?? .defaultFor(terminal: console.outputIsTerminal)
            let fieldOrder = Array(schema.fieldNames(in: className).dropFirst())
            ResultPrinter.print(records, as: chosen, fieldOrder: fieldOrder, style: style, to: console.output)
        }
    }
}
