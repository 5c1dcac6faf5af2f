import Quarry

/// The shell's dot-commands (docs/ARCHITECTURE.md#the-shell), as the sqlite3 shell has them.
extension ShellSession {
    static let commands: [(name: String, arguments: String, help: String)] = [
        (".class", "[NAME]", "Query this class; without NAME, list the classes"),
        (".dialect", "[sql|predicate|json]", "The query language of the next lines"),
        (".exit", "", "End the shell (as .quit)"),
        (".explain", "[on|off|analyze]", "Show the plan instead of the answer; analyze also runs the query"),
        (".format", "[ndjson|json|table|box|csv|markdown]", "How answers are printed (.mode is the same)"),
        (".help", "", "This list"),
        (".index", "[KEY[:hash|ordered|geo]]", "Index a key of the class; without KEY, list this session's"),
        (".mode", "[FORMAT]", "The same as .format, as in sqlite3"),
        (".profile", "[exact|parse|leancloud|maxleap|backendless]", "The compatibility profile"),
        (".quit", "", "End the shell"),
        (".show", "", "The current settings"),
        (".timer", "[on|off]", "Print how long each query took, on stderr"),
    ]

    /// Runs a dot-command; false for `.quit` and `.exit`.
    mutating func command(_ line: String) throws(Failure) -> Bool {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        let name = words[0], arguments = Array(words.dropFirst())
        func argument(_ allowed: String) throws(Failure) -> String? {
            guard arguments.count <= 1 else { throw .usage("\(name) takes one argument: \(allowed)") }
            return arguments.first
        }
        switch name {
        case ".quit", ".exit":
            return false
        case ".help":
            let width = Self.commands.map { $0.name.count + 1 + $0.arguments.count }.max() ?? 0
            for c in Self.commands {
                let head = c.arguments.isEmpty ? c.name : c.name + " " + c.arguments
                say(head + String(repeating: " ", count: width - head.count) + "  " + c.help)
            }
            say("Any other line is a query in the current dialect, on the current class.")
        case ".show":
            say(
                "class: \(className)\ndialect: \(settings.dialect)\nprofile: \(settings.profile)\n"
                    + "format: \(settings.format)\nexplain: \(settings.explain.rawValue)\n"
                    + "timer: \(settings.timer ? "on" : "off")\n"
                    + "indexes: \(indexes.isEmpty ? "none" : indexes.joined(separator: ", "))")
        case ".dialect":
            guard let value = try argument("sql, predicate or json") else { return say("\(settings.dialect)") }
            settings.dialect = try Self.choice(value, for: name)
        case ".profile":
            guard let value = try argument("a profile") else { return say("\(settings.profile)") }
            settings.profile = try Self.choice(value, for: name)
        case ".format", ".mode":
            guard let value = try argument("a format") else { return say("\(settings.format)") }
            let format: OutputFormat = try Self.choice(value, for: name)
            if settings.json, format != .json { throw .usage("--json keeps the format json") }
            settings.format = format
        case ".explain":
            guard let value = try argument("on, off or analyze") else {
                return say(settings.explain.rawValue)
            }
            guard let mode = ShellSettings.ExplainMode(rawValue: value) else {
                throw .usage("\(name) takes on, off or analyze (got '\(value)')")
            }
            settings.explain = mode
        case ".timer":
            guard let value = try argument("on or off") else { return say(settings.timer ? "on" : "off") }
            guard value == "on" || value == "off" else { throw .usage("\(name) takes on or off (got '\(value)')") }
            settings.timer = value == "on"
        case ".class":
            guard let value = try argument("a class name") else {
                let names = schema.classNames.map { $0 == className ? "\($0) (current)" : $0 }
                return say(names.joined(separator: "\n"))
            }
            guard schema.hasClass(value) else {
                let hint = DidYouMean.suggestion(for: value, among: schema.classNames).map { "; did you mean '\($0)'?" }
                throw .usage(
                    "there is no class '\(value)'\(hint ?? "; the classes are " + schema.classNames.joined(separator: ", "))"
                )
            }
            className = value
        case ".index":
            guard let spec = try argument("KEY or KEY:kind") else {
                return say(indexes.isEmpty ? "no index added in this session" : indexes.joined(separator: "\n"))
            }
            try addIndex(spec)
        default:
            let hint = DidYouMean.suggestion(for: name, among: Self.commands.map(\.name)).map {
                "did you mean '\($0)'? "
            }
            throw .usage("unknown command '\(name)'; \(hint ?? "")(.help lists the commands)")
        }
        return true
    }

    private mutating func addIndex(_ spec: String) throws(Failure) {
        switch target {
        case .memory(let source, let engine):
            let (key, kind) = try IndexOptions.parse(spec, schema: source.schema, className: className)
            do throws(Diagnostic) {
                try engine.createIndex(kind, on: key, in: className)
            } catch {
                throw .usage(".index \(spec): \(error.message)")
            }
            indexes.append("\(className).\(key):\(kind)")
        case .store(let store):
            var onClass = store
            onClass.className = className
            try onClass.declare([spec])
            indexes.append("\(className).\(spec)")
        }
    }

    /// A value of one of the option enums, or a usage error listing them.
    private static func choice<T: CaseIterable & RawRepresentable>(_ text: String, for name: String) throws(Failure)
        -> T where T.RawValue == String
    {
        guard let value = T(rawValue: text) else {
            throw .usage(
                "\(name) takes one of " + T.allCases.map(\.rawValue).joined(separator: ", ") + " (got '\(text)')")
        }
        return value
    }

    /// A line of information, on stdout.
    @discardableResult
    private func say(_ text: String) -> Bool {
        console.output.write(text + "\n")
        return true
    }
}
