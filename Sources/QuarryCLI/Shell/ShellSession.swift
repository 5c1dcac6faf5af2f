import Foundation
import Quarry

/// What the shell's dot-commands change.
struct ShellSettings {
    var dialect: Dialect
    var profile: Profile
    var format: OutputFormat
    /// `--json`: answers and errors as JSON documents on stdout.
    var json: Bool
    var colorChoice: ColorChoice
    var explain = ExplainMode.off
    var timer = false

    enum ExplainMode: String, CaseIterable {
        case off, on, analyze
    }
}

/// One `quarry shell` session over data loaded once: each line is a query or a dot-command
/// (docs/ARCHITECTURE.md#the-shell).
struct ShellSession {
    enum Target {
        case memory(DataSource, Engine)
        case store(StoreSource)
    }

    let target: Target
    let console: Console
    let interactive: Bool
    var settings: ShellSettings
    var className: String
    /// `--index` and `.index` keys added in this session.
    var indexes: [String] = []
    /// Lines that failed (queries or dot-commands).
    var failures = 0

    init(target: Target, console: Console, interactive: Bool, settings: ShellSettings) {
        self.target = target
        self.console = console
        self.interactive = interactive
        self.settings = settings
        switch target {
        case .memory(let source, _): className = source.className
        case .store(let store): className = store.className
        }
    }

    var prompt: String { "quarry \(className)> " }

    var schema: any Schema {
        switch target {
        case .memory(let source, _): return source.schema
        case .store(let store): return store.schema
        }
    }

    func banner() -> String {
        let classes = schema.classNames.joined(separator: ", ")
        return "quarry \(QuarryCommand.version) shell on \(classes). "
            + "Each line is a \(settings.dialect) query on \(className); .help lists the commands.\n"
    }

    /// Handles one line; false when the shell should end (`.quit`).
    mutating func handle(_ bytes: [UInt8]) -> Bool {
        let line = String(decoding: bytes, as: UTF8.self)
        guard line.utf8.elementsEqual(bytes) else {
            report(.query(Diagnostic(.input.encoding, "the line is not valid UTF-8"), source: ""))
            return true
        }
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed.hasPrefix("--") || trimmed.hasPrefix("#") { return true }
        do throws(Failure) {
            if trimmed.hasPrefix(".") { return try command(trimmed) }
            try query(line)
        } catch {
            report(error)
        }
        return true
    }

    /// A failed line: reported, counted, and the shell goes on.
    mutating func report(_ failure: Failure) {
        failures += 1
        switch failure {
        case .usage(let message):
            if settings.json {
                console.output.write(Failure.jsonReport([[("code", .string("usage")), ("message", .string(message))]]))
            } else {
                console.error.write(errorStyle.red("error") + ": \(message)\n")
            }
        default:
            failure.report(to: console, json: settings.json, style: errorStyle, command: ShellCommand.self)
        }
    }

    var errorStyle: Style {
        Style.choose(settings.colorChoice, terminal: console.errorIsTerminal, environment: console.environment)
    }

    var outputStyle: Style {
        Style.choose(settings.colorChoice, terminal: console.outputIsTerminal, environment: console.environment)
    }

    /// Compiles and runs (or explains) a query, and prints the answer.
    func query(_ text: String) throws(Failure) {
        let cap = Limits.default.maxQueryLength
        if text.utf8.count > cap {
            throw .query(
                Diagnostic(
                    .limit.queryLength,
                    "the line holds more than \(cap) bytes; the limit is \(cap) (Limits.maxQueryLength)"),
                source: "")
        }
        let start = ContinuousClock.now
        let compiled = try Compilation.compile(
            text, dialect: settings.dialect, className: className, schema: schema, profile: settings.profile)
        let compiledAt = ContinuousClock.now
        if settings.explain != .off {
            try explain(compiled, text)
        } else {
            let result: QueryResult
            do throws(Diagnostic) {
                switch target {
                case .memory(_, let engine): result = try engine.run(compiled)
                case .store(let store): result = try store.store.query(compiled)
                }
            } catch {
                throw .query(error, source: text)
            }
            let ranAt = ContinuousClock.now
            switch result {
            case .count(let n):
                console.output.write(settings.json ? "{\"count\":\(n)}\n" : "\(n)\n")
            case .records(let records):
                let fieldOrder = Array(schema.fieldNames(in: className).dropFirst())
                ResultPrinter.print(
                    records, as: settings.format, fieldOrder: fieldOrder, style: outputStyle, to: console.output)
            }
            if settings.timer {
                console.error.write(
                    "time: compile \(Self.millis(compiledAt - start)) ms, run \(Self.millis(ranAt - compiledAt)) ms, "
                        + "print \(Self.millis(ContinuousClock.now - ranAt)) ms\n")
            }
            return
        }
        if settings.timer {
            console.error.write("time: \(Self.millis(ContinuousClock.now - start)) ms\n")
        }
    }

    private func explain(_ compiled: Query, _ text: String) throws(Failure) {
        let json = settings.json || settings.format == .json
        switch target {
        case .memory(_, let engine):
            do throws(Diagnostic) {
                let report = try engine.explain(compiled, analyze: settings.explain == .analyze)
                console.output.write((json ? report.json : report.description) + "\n")
            } catch {
                throw .query(error, source: text)
            }
        case .store(let store):
            if settings.explain == .analyze {
                throw .usage(".explain analyze runs on the in-memory engine; it is not available with --store")
            }
            do throws(Diagnostic) {
                let explanation = try store.store.explanation(compiled)
                console.output.write((json ? JSONWriter.string(explanation.json) : explanation.text) + "\n")
            } catch {
                throw .query(error, source: text)
            }
        }
    }

    static func millis(_ d: Duration) -> String {
        let ms = Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) * 1e-15
        return String(format: "%.3f", ms)
    }
}
