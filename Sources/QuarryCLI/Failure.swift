import ArgumentParser
import QuarryCore

/// Why a command stopped, which decides its exit status and how it is reported.
enum Failure: Error {
    /// The query is invalid or cannot run; diagnostics are located in `source`.
    case query(Diagnostics, source: String)
    /// An option value or combination that parsing alone could not reject.
    case usage(String)
    /// The data file is unreadable or malformed; located diagnostics are located in `text`.
    case data(Diagnostics, file: String, text: String?)

    var status: ExitStatus {
        switch self {
        case .query: return .queryFailed
        case .usage: return .usage
        case .data: return .badData
        }
    }

    /// Text on stderr, compiler style; or with `json`, the DESIGN §5 object on stdout.
    /// Usage errors are always text, in ArgumentParser's own form.
    func report(to console: Console, json: Bool, command: ParsableCommand.Type) {
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
                console.error.write(diagnostics.all.map(text.render).joined())
            }
        case .data(let diagnostics, let file, let source):
            let text = SourceText(source ?? "")
            if json {
                console.output.write(Self.jsonReport(diagnostics.all.map { d in
                    [("file", JSONScalar.string(file))] + (source == nil ? Self.unlocated(d) : text.jsonObject(d))
                }))
            } else {
                console.error.write(diagnostics.all.map { d in
                    source == nil ? Self.renderUnlocated(d, file: file) : Self.render(d, in: text, file: file)
                }.joined())
            }
        }
    }

    static func jsonReport(_ errors: [[(String, JSONScalar)]]) -> String {
        let items = errors.map { fields in
            "{" + fields.map { "\(JSONText.quote($0.0)):\($0.1.json)" }.joined(separator: ",") + "}"
        }
        return "{\"ok\":false,\"errors\":[" + items.joined(separator: ",") + "]}\n"
    }

    private static func unlocated(_ d: Diagnostic) -> [(String, JSONScalar)] {
        SourceText("").jsonObject(Diagnostic(d.code, d.message, notes: d.notes, path: d.path, parseCode: d.parseCode))
    }

    private static func renderUnlocated(_ d: Diagnostic, file: String) -> String {
        "error[\(d.code)]: \(d.message)\n --> \(file)\n" + d.notes.map { "  = note: \($0)\n" }.joined()
    }

    /// A data-file diagnostic, with the file name in the location line.
    private static func render(_ d: Diagnostic, in text: SourceText, file: String) -> String {
        let rendered = text.render(d)
        return rendered.replacingFirst(" --> ", with: " --> \(file):")
    }
}

extension String {
    fileprivate func trimmingLeadingWord(_ word: String) -> String {
        hasPrefix(word) ? String(dropFirst(word.count)) : self
    }

    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        var i = startIndex
        while i < endIndex {
            if self[i...].hasPrefix(target) {
                return String(self[..<i]) + replacement + String(self[index(i, offsetBy: target.count)...])
            }
            i = index(after: i)
        }
        return self
    }
}
