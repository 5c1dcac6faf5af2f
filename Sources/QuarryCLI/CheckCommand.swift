import ArgumentParser
import Quarry

/// `quarry check`: is the query valid? Prints its canonical form.
struct CheckCommand: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a query and print its canonical form.",
        discussion: """
            Without --data only the syntax and the dialect's own rules are checked. With \
            --data (and --class when the file holds several classes), class and field names \
            and field types are checked against the data too.

            With --json the answer is one JSON object on stdout: \
            {"ok":true,"dialect":…,"canonical":…} or \
            {"ok":false,"errors":[{"code","message","line","column","offset","length"}]}.

            Examples:
              quarry check "age > 20 AND name LIKE 'J%'"
              quarry check --dialect predicate --arg '"J"' 'name BEGINSWITH[c] %@'
              quarry check --data data.json --class Contact "adress.city = 'Dallas'"
            """)

    @Option(help: "The query language.")
    var dialect: Dialect = .sql

    @Option(help: "Compatibility profile whose rules the query must follow.")
    var profile: Profile = .exact

    @OptionGroup var data: SchemaOptions

    @OptionGroup var bindings: BindingOptions

    @Flag(help: "Print the answer (or the errors) as one JSON document on stdout.")
    var json = false

    @OptionGroup var color: ColorOption

    @OptionGroup var query: QueryOperand

    var reportsJSON: Bool { json }
    var colorChoice: ColorChoice { color.choice }
}

extension CheckCommand {
    func execute(_ console: Console) throws(Failure) {
        try bindings.requireDialect(dialect)
        let text = try query.read(from: console)
        let source = try data.load(console, query: query.text)
        let compiled = try Compilation.compile(
            text, dialect: dialect, className: data.className(in: source),
            schema: source?.schema, profile: profile, bindings: bindings)
        // What running would check first (patterns, variables, classes): check passes only
        // what run accepts.
        let variables = Set(try bindings.predicateVariables()?.keys.map { $0 } ?? [])
        do throws(Diagnostic) {
            try QueryCheck.check(compiled, schema: source?.schema, variables: variables)
        } catch {
            throw .query(error, source: text)
        }
        // The canonical form is a courtesy: a query the dialect reads, it also writes.
        let canonical = try? dialect.print(compiled, schema: source?.schema)
        if json {
            var fields: [(String, JSONScalar)] = [("dialect", .string(dialect.rawValue))]
            if let canonical { fields.append(("canonical", .string(canonical))) }
            console.output.write(
                "{\"ok\":true," + fields.map { "\(JSONText.quote($0.0)):\($0.1.json)" }.joined(separator: ",") + "}\n")
        } else if let canonical {
            console.output.write(canonical + "\n")
        } else {
            console.output.write("ok\n")
        }
    }
}
