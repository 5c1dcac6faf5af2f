import Quarry
import QuarryCLI

/// Writes docs/DIAGNOSTICS.md from the diagnostic catalogues: every code, grouped by domain, with
/// its meaning, an example, the Parse code and the declaring module. `DiagnosticsDocTests` checks
/// the checked-in file against it; `make docs` rewrites the file.
enum DiagnosticsDoc {
    static let catalogues = DiagnosticCatalogue.library + [.sqliteStore, .postgresStore, .cli]

    static func markdown() -> String {
        var module: [DiagnosticCode: String] = [:]
        for catalogue in catalogues {
            for code in catalogue.codes { module[code] = catalogue.module }
        }
        let codes = catalogues.flatMap(\.codes)
        var out = """
            # Diagnostics

            <!-- Generated from the diagnostic catalogues (the modules' DiagnosticCodes.swift) by `make docs`; \
            edit those, not this file. -->

            Every error Quarry reports is a `Diagnostic`: a stable dotted code, which tools match on, a \
            message, and where the problem is — a source range in the query text, and for Parse REST \
            JSON also the JSON path and the error code Parse Server answers with. A front-end reports \
            every independent problem it finds: the first is thrown, the others follow in `related`, \
            and `all` lists them in order. `quarry check` prints them compiler-style:

            ```
            \(sample())```

            With `--json` each is an object with `code`, `message`, `line`, `column`, `offset` and \
            `length` (in Unicode scalars), and `path`, `parseCode` and `notes` when present.

            Codes are declared in code, one catalogue per module (`Sources/<module>/DiagnosticCodes.swift`), \
            as static members of their domain (`Diagnostic(.syntax.unexpectedToken, …)`); a code shared \
            by several modules is declared in QuarryCore's. To add one, declare it there with its meaning, \
            an example and its Parse code, list it in the module's `DiagnosticCatalogue`, and run \
            `make docs`.

            | Domain | Codes | About |
            |---|---|---|

            """
        for domain in DiagnosticCode.domains {
            let count = codes.filter { $0.domain == domain.name }.count
            out += "| [\(domain.name)](#\(domain.name)) | \(count) | \(domain.summary) |\n"
        }
        for domain in DiagnosticCode.domains {
            out += "\n## \(domain.name)\n\n\(domain.summary)\n"
            for code in codes.filter({ $0.domain == domain.name }).sorted(by: { $0.rawValue < $1.rawValue }) {
                out += "\n### \(code.rawValue)\n\n\(code.meaning)\n\n"
                out += "- Example: \(example(code.example))\n"
                out += "- Parse code: \(code.parseCode.map(String.init) ?? "none")\n"
                out += "- Declared in: \(module[code] ?? "?")\n"
            }
        }
        return out
    }

    /// How `quarry check` renders a diagnostic, from a real one.
    private static func sample() -> String {
        let text = "age > AND name = 'x'"
        do throws(Diagnostic) {
            _ = try Dialect.sql.compile(text, className: "")
            return "\(text) compiles\n"
        } catch {
            return SourceText(text).render(error)
        }
    }

    private static func example(_ e: DiagnosticCode.Example?) -> String {
        switch e {
        case .sql(let text)?: return "SQL \(codeSpan(text))"
        case .predicate(let text)?: return "NSPredicate \(codeSpan(text))"
        case .parseREST(let text)?: return "Parse REST \(codeSpan(text))"
        case .situation(let text)?: return text
        case nil: return "none"
        }
    }

    /// Inline code that may itself hold backquotes (SQL quoted names).
    private static func codeSpan(_ text: String) -> String {
        text.contains("`") ? "`` \(text) ``" : "`\(text)`"
    }
}
