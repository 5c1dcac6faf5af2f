import ArgumentParser
import Quarry

/// `quarry translate`: the same query in another dialect.
struct TranslateCommand: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "translate",
        abstract: "Translate a query from one dialect into another.",
        discussion: """
            The translation keeps the results, not just the syntax: the dialects treat null, \
            missing fields, arrays and values of other types differently, and the output states \
            the source's rules exactly. With --data (and --class) the data tells what each field \
            holds. Without it, each field is assumed to hold a single value of the type it is \
            compared with (an array where the query treats it as one), as the query's author \
            usually means; a note on stderr lists the assumptions. --exact assumes nothing (any \
            field may hold an array, or a date that SQL compares with numbers and strings), so \
            some translations come out longer or not at all. A construct the target dialect \
            cannot express is an error (translate.inexpressible) naming it; nothing is dropped or \
            approximated.

            Examples:
              quarry translate --to predicate "name LIKE 'J%' OR tags = 'hero'"
              quarry translate --data Samples/sample.json --class Contact \\
                --to json "age >= 21 AND name IN ('a', 'b')"
              quarry translate --data Samples/sample.json --class Contact \\
                --from json --to sql '{"age":{"$gt":20}}'

            With --json the answer is one JSON object on stdout: \
            {"ok":true,"from":…,"to":…,"translation":…,"assumed":…} ("assumed" only when \
            assumptions were made), or {"ok":false,"errors":[…]}.
            """)

    @Option(name: [.customLong("from"), .customLong("dialect")], help: "The query's language.")
    var from: Dialect = .sql

    @Option(help: "The language to write.")
    var to: Dialect

    @OptionGroup var data: SchemaOptions

    @Flag(help: "Without --data, assume nothing about the fields: exact on any data, but longer.")
    var exact = false

    @OptionGroup var bindings: BindingOptions

    @Flag(help: "Print the answer (or the errors) as one JSON document on stdout.")
    var json = false

    @OptionGroup var color: ColorOption

    @OptionGroup var query: QueryOperand

    var reportsJSON: Bool { json }
    var colorChoice: ColorChoice { color.choice }
}

extension TranslateCommand {
    func execute(_ console: Console) throws(Failure) {
        try bindings.requireDialect(from)
        let text = try query.read(from: console)
        let source = try data.load(console, query: query.text)
        let compiled = try Compilation.compile(
            text, dialect: from, className: data.className(in: source),
            schema: source?.schema, profile: .exact, bindings: bindings)
        let assumptions = exact || source != nil ? nil : FieldAssumptions(compiled)
        let translation: String
        do throws(Diagnostic) {
            let converted = try SemanticsConversion.convert(
                compiled, to: to.semantics, schema: source?.schema,
                assumptions: assumptions)
            translation = try to.printTranslation(converted, schema: source?.schema)
        } catch {
            throw .query(error, source: text)
        }
        let assumed = assumptions.flatMap { $0.fields.isEmpty ? nil : $0.summary }
        if json {
            // {"ok":true,"from":…,"to":…,"translation":…[,"assumed":…]}
            var fields: [(String, JSONScalar)] = [
                ("from", .string(from.rawValue)), ("to", .string(to.rawValue)), ("translation", .string(translation)),
            ]
            if let assumed { fields.append(("assumed", .string(assumed))) }
            console.output.write(
                "{\"ok\":true," + fields.map { "\(JSONText.quote($0.0)):\($0.1.json)" }.joined(separator: ",") + "}\n")
            return
        }
        console.output.write(translation + "\n")
        if let assumed {
            console.error.write(
                "note: assumed \(assumed) (--data reads the types from data; --exact assumes nothing)\n")
        }
    }
}
