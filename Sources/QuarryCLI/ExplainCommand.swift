import ArgumentParser
import Quarry

/// `quarry explain`: the plan the engine would run for a query, as a tree.
struct ExplainCommand: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Show how a query would run: rewrites, inner queries, index use, filter order.",
        discussion: """
            The plan is printed as a tree: the rewrites the normalizer applied, the inner \
            queries run first and the rows they may contribute, where rows come from (a full \
            scan or an index), the filters in evaluation order with their cost and expected \
            pass rate, the order and the page. --analyze runs the query and adds the rows each \
            step saw and the time it took. --json prints {"analyzed":…,"plan":{…}}.

            Examples:
              quarry explain --data data.json --class Contact "age > 20 AND name LIKE 'J%'"
              quarry explain --data data.json --class Contact --index age --analyze "age = 42"
              quarry explain --store sqlite:people.db --class Person --json "age = 42"
            """)

    @OptionGroup var data: DataOptions

    @Option(help: "The query language.")
    var dialect: Dialect = .sql

    @Option(help: "Compatibility profile: default and maximum limits, inner-query limits, accepted constructs.")
    var profile: Profile = .exact

    @OptionGroup var indexes: IndexOptions

    @OptionGroup var deadline: DeadlineOption

    @OptionGroup var bindings: BindingOptions

    @Flag(help: "Run the query and show the rows and time of each step.")
    var analyze = false

    @Flag(help: "Print the answer (the plan, or the errors) as one JSON document on stdout.")
    var json = false

    @OptionGroup var color: ColorOption

    @OptionGroup var query: QueryOperand

    var reportsJSON: Bool { json }
    var colorChoice: ColorChoice { color.choice }
}

extension ExplainCommand {
    func execute(_ console: Console) throws(Failure) {
        try bindings.requireDialect(dialect)
        let text = try query.read(from: console)
        try data.requireOneStandardInput(query: query.text)
        if let store = try data.openStore() {
            return try explain(text, on: store, console)
        }
        let source = try data.load(console, limits: deadline.limits)
        let compiled = try Compilation.compile(
            text, dialect: dialect, className: source.className, schema: source.schema,
            profile: profile, bindings: bindings)
        let engine = try indexes.engine(source)
        let report: ExplainReport
        do throws(Diagnostic) {
            report = try engine.explain(compiled, analyze: analyze)
        } catch {
            throw .query(error, source: text)
        }
        console.output.write((json ? report.json : report.description) + "\n")
    }

    /// The store's plan: the SQL sent (placeholders only), the residual, SQLite's plan.
    private func explain(_ text: String, on store: StoreSource, _ console: Console) throws(Failure) {
        if analyze { throw .usage("--analyze runs on the in-memory engine; it is not available with --store") }
        let compiled = try Compilation.compile(
            text, dialect: dialect, className: store.className, schema: store.schema, profile: profile,
            bindings: bindings)
        try store.declare(indexes.specs)
        let explanation: BackendExplanation
        do throws(Diagnostic) {
            explanation = try store.store.explanation(compiled)
        } catch {
            throw .query(error, source: text)
        }
        console.output.write((json ? JSONWriter.string(explanation.json) : explanation.text) + "\n")
    }
}
