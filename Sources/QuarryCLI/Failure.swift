import ArgumentParser
import Quarry

/// Why a command stopped, which decides its exit status and how it is reported.
enum Failure: Error {
    /// The query is invalid or cannot run; diagnostics are located in `source`.
    case query(Diagnostic, source: String)
    /// An option value or combination that parsing alone could not reject.
    case usage(String)
    /// The data file is unreadable or malformed.
    case data(DataFileError)
    /// What went wrong was reported as it happened (a failed query of `bench`, a line of the
    /// shell); only the exit status is left.
    case reported(ExitStatus)

    var status: ExitStatus {
        switch self {
        case .query: return .queryFailed
        case .usage: return .usage
        case .data: return .badData
        case .reported(let status): return status
        }
    }

    /// Text on stderr, compiler style; or with `json`, the object of
    /// docs/ARCHITECTURE.md#diagnostic-output on stdout. Usage errors are always text, in
    /// ArgumentParser's own form.
    func report(to console: Console, json: Bool, style: Style = .plain, command: ParsableCommand.Type) {
        switch self {
        case .usage(let message):
            var text = "Error: \(message)\n"
            text += "Usage: " + QuarryCommand.usageString(for: command).trimmingLeadingWord("Usage: ") + "\n"
            text += "  See 'quarry \(command._commandName) --help' for more information.\n"
            console.error.write(text)
        case .query(let diagnostics, let source):
            let text = SourceText(source)
            if json {
                console.output.write(Self.jsonReport(diagnostics.all.map { text.jsonObject($0) }))
            } else {
                console.error.write(style.diagnostics(diagnostics.all.map(text.render).joined()))
            }
        case .reported:
            return
        case .data(let e):
            if json {
                console.output.write(Self.jsonReport([Self.jsonObject(e)]))
            } else {
                var text = "error[\(e.code)]: \(Self.message(e))\n --> \(e.file)"
                if let line = e.line, let column = e.column { text += ":\(line):\(column)" }
                console.error.write(style.diagnostics(text + "\n"))
            }
        }
    }

    static func jsonReport(_ errors: [[(String, JSONScalar)]]) -> String {
        let items = errors.map { fields in
            "{" + fields.map { "\(JSONText.quote($0.0)):\($0.1.json)" }.joined(separator: ",") + "}"
        }
        return "{\"ok\":false,\"errors\":[" + items.joined(separator: ",") + "]}\n"
    }

    /// The message with the class, object and field it concerns.
    private static func message(_ e: DataFileError) -> String {
        var context: [String] = []
        if let c = e.className { context.append("class '\(c)'") }
        if let n = e.objectIndex { context.append("object #\(n)" + (e.objectId.map { " (objectId '\($0)')" } ?? "")) }
        if let f = e.field { context.append("field '\(f)'") }
        return context.isEmpty ? e.message : context.joined(separator: ", ") + ": " + e.message
    }

    private static func jsonObject(_ e: DataFileError) -> [(String, JSONScalar)] {
        var fields: [(String, JSONScalar)] = [
            ("code", .string(e.code)), ("message", .string(message(e))),
            ("file", .string(e.file)),
        ]
        if let line = e.line { fields.append(("line", .int(line))) }
        if let column = e.column { fields.append(("column", .int(column))) }
        if let c = e.className { fields.append(("class", .string(c))) }
        if let n = e.objectIndex { fields.append(("object", .int(n))) }
        if let id = e.objectId { fields.append(("objectId", .string(id))) }
        if let f = e.field { fields.append(("field", .string(f))) }
        return fields
    }
}

extension String {
    fileprivate func trimmingLeadingWord(_ word: String) -> String {
        hasPrefix(word) ? String(dropFirst(word.count)) : self
    }
}
