import QuarryCore

/// One lexical unit of a where clause, with the UTF-8 bytes it spans.
///
/// Keywords are not a separate kind: `AND`, `LIKE`, `after`… are identifiers that the parser
/// recognizes case-insensitively where a keyword may stand, so that the date keywords
/// (`after`, `at or before`) and function names stay usable as column names.
public struct SQLToken: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// A name; `quoted` when written in backquotes (then never a keyword).
        case identifier(String, quoted: Bool)
        /// A single-quoted string, with `''` already turned into `'`.
        case string(String)
        /// An unsigned integer literal (a leading `-` is its own token).
        case integer(UInt64)
        /// An unsigned literal with a fraction or an exponent.
        case decimal(Double)
        case symbol(SQLSymbol)
        case end
    }

    public var kind: Kind
    public var range: SourceRange
    /// The keyword an unquoted identifier spells, if any.
    let keyword: SQLKeyword?

    public init(_ kind: Kind, _ range: SourceRange) {
        var keyword: SQLKeyword?
        if case .identifier(let text, quoted: false) = kind { keyword = SQLKeyword(text.utf8) }
        self.init(kind, range, keyword: keyword)
    }

    init(_ kind: Kind, _ range: SourceRange, keyword: SQLKeyword?) {
        self.kind = kind
        self.range = range
        self.keyword = keyword
    }
}

/// Punctuation and comparison symbols.
public enum SQLSymbol: String, Hashable, Sendable, CaseIterable {
    case leftParen = "("
    case rightParen = ")"
    case leftBracket = "["
    case rightBracket = "]"
    case comma = ","
    case dot = "."
    case minus = "-"
    case equal = "="
    case notEqual = "!="
    case notEqualSQL = "<>"
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    /// The guide's prose spells `>=` as `=>`; accepted as an alias.
    case greaterOrEqualAlias = "=>"
}
