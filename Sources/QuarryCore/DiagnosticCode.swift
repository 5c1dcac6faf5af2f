/// The stable, dotted code of a diagnostic (`syntax.unexpected-token`): what tools match on.
///
/// Codes are declared once, in the catalogue file of the module that reports them
/// (`DiagnosticCodes.swift`), as static members of a domain: `.lex.unterminatedString`,
/// `.limit.nesting`. Each declaration carries the code's meaning, an example and the Parse error
/// code, from which docs/DIAGNOSTICS.md is generated. Two codes are equal when their raw values
/// are; the documentation is not part of the identity (a decoded code has none).
public struct DiagnosticCode: Hashable, Sendable, Codable, RawRepresentable, CustomStringConvertible {
    /// The dotted code as it appears in messages and `--json` output.
    public let rawValue: String
    /// What the code means: when it is reported and what to change.
    public let meaning: String
    /// An input that gets this code.
    public let example: Example?
    /// The number Parse Server answers with for the same mistake (102 invalid query, 107 invalid
    /// JSON, …), which the Parse REST front-end attaches; nil where Parse has none.
    public let parseCode: Int?

    public init(rawValue: String) {
        self.rawValue = rawValue
        self.meaning = ""
        self.example = nil
        self.parseCode = nil
    }

    /// A catalogue declaration; only the modules' `DiagnosticCodes.swift` files call this.
    package init(_ rawValue: String, meaning: String, example: Example, parseCode: Int? = nil) {
        self.rawValue = rawValue
        self.meaning = meaning
        self.example = example
        self.parseCode = parseCode
    }

    /// The domain: the part before the first dot (`lex`, `syntax`, `limit`, …).
    public var domain: Substring { rawValue.prefix { $0 != "." } }

    public var description: String { rawValue }

    public static func == (a: DiagnosticCode, b: DiagnosticCode) -> Bool { a.rawValue == b.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// An input that gets a code, in the dialect or situation where it is reported.
    public enum Example: Hashable, Sendable {
        /// A Backendless SQL where clause.
        case sql(String)
        /// An NSPredicate format string.
        case predicate(String)
        /// A Parse REST `where` JSON object.
        case parseREST(String)
        /// Anything that is not one query text: a data file, the command line, a run.
        case situation(String)
    }
}

/// The codes one module declares, for listing them all (docs/DIAGNOSTICS.md is generated from
/// the catalogues). Each module's `DiagnosticCodes.swift` ends with its catalogue.
public struct DiagnosticCatalogue: Sendable {
    /// The module that declares the codes, taken from the declaring file's `#fileID`.
    public let module: String
    public let codes: [DiagnosticCode]

    package init(_ codes: [DiagnosticCode], fileID: String = #fileID) {
        self.module = String(fileID.prefix { $0 != "/" })
        self.codes = codes
    }
}

// The domains. Each is a namespace that the modules' catalogues extend with static members, so a
// throw site reads `Diagnostic(.syntax.unexpectedToken, …)`.
extension DiagnosticCode {
    /// Every domain, in the order docs/DIAGNOSTICS.md lists them, with what its codes are about.
    public static let domains: [(name: String, summary: String)] = [
        ("lex", "Characters that do not form a token."),
        ("syntax", "Tokens in an order the grammar does not allow."),
        ("type", "Values of the wrong type for where they are used."),
        ("query", "Well-formed queries that name what does not exist or ask for what cannot be done."),
        ("date", "Dates and relative times that do not parse."),
        ("like", "SQL LIKE patterns."),
        ("geo", "Geo functions, coordinates and shapes."),
        ("regex", "Regular expressions."),
        ("predicate", "NSPredicate constructs."),
        ("argument", "Arguments substituted into an NSPredicate format string."),
        ("variable", "Variables without values."),
        ("profile", "Dialect profiles that do not accept a construct."),
        ("schema", "The class a query names, checked against a schema."),
        ("json", "JSON text and the Parse REST request."),
        ("data", "Parse REST JSON values and data files."),
        ("limit", "The bounds of `Limits` (docs/SEMANTICS.md), exceeded."),
        ("print", "Printing a query as an NSPredicate."),
        ("translate", "Writing a query in another dialect."),
        ("index", "Indexes the engine is asked to build."),
        ("input", "The command line's input."),
        ("sqlite", "The SQLite peer of `quarry bench`."),
        ("store", "The persistent SQLite store (docs/STORAGE.md)."),
    ]

    // One namespace per domain, for the members the catalogues declare.
    public enum Lex {}
    public enum Syntax {}
    public enum Query {}
    public enum TypeCheck {}
    public enum Limit {}
    public enum Date {}
    public enum Like {}
    public enum Geo {}
    public enum Regex {}
    public enum JSON {}
    public enum Data {}
    public enum Predicate {}
    public enum Argument {}
    public enum Variable {}
    public enum Profile {}
    public enum Schema {}
    public enum Print {}
    public enum Translate {}
    public enum Index {}
    public enum Input {}
    public enum SQLite {}
    public enum Store {}

    public static var lex: Lex.Type { Lex.self }
    public static var syntax: Syntax.Type { Syntax.self }
    public static var query: Query.Type { Query.self }
    public static var type: TypeCheck.Type { TypeCheck.self }
    public static var limit: Limit.Type { Limit.self }
    public static var date: Date.Type { Date.self }
    public static var like: Like.Type { Like.self }
    public static var geo: Geo.Type { Geo.self }
    public static var regex: Regex.Type { Regex.self }
    public static var json: JSON.Type { JSON.self }
    public static var data: Data.Type { Data.self }
    public static var predicate: Predicate.Type { Predicate.self }
    public static var argument: Argument.Type { Argument.self }
    public static var variable: Variable.Type { Variable.self }
    public static var profile: Profile.Type { Profile.self }
    public static var schema: Schema.Type { Schema.self }
    public static var print: Print.Type { Print.self }
    public static var translate: Translate.Type { Translate.self }
    public static var index: Index.Type { Index.self }
    public static var input: Input.Type { Input.self }
    public static var sqlite: SQLite.Type { SQLite.self }
    public static var store: Store.Type { Store.self }
}
