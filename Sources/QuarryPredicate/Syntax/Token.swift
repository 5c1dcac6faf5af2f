import QuarryCore

/// One lexical unit of a predicate format string, with the bytes it covers.
struct Token: Equatable {
    var kind: TokenKind
    var range: SourceRange
}

enum TokenKind: Equatable {
    /// A key name; `#name` escapes a reserved word into an identifier.
    case identifier(String)
    case keyword(Keyword)
    /// The magnitude of an integer literal; the sign is a separate `-` token.
    case integer(UInt64)
    case real(Double)
    case string(String)
    /// `%@`, `%K`, `%d`, … (not `%%`, which is `percentLiteral`).
    case argument(ArgumentSpec)
    /// `%%`: a literal percent sign, consuming no argument.
    case percentLiteral
    /// `$NAME`
    case variable(String)
    /// `@count`, `@sum`, …: a collection operator.
    case collectionOperator(String)
    case symbol(Symbol)
    case end
}

/// Punctuation and operators.
enum Symbol: String, Equatable {
    case leftParen = "(", rightParen = ")"
    case leftBrace = "{", rightBrace = "}"
    case leftBracket = "[", rightBracket = "]"
    case comma = ",", dot = "."
    case equal = "=", doubleEqual = "==", notEqual = "!=", lessGreater = "<>"
    case less = "<", lessEqual = "<=", equalLess = "=<"
    case greater = ">", greaterEqual = ">=", equalGreater = "=>"
    case ampersands = "&&", pipes = "||", bang = "!"
    case plus = "+", minus = "-", star = "*", slash = "/", doubleStar = "**"
    case assign = ":="
}

/// A printf-style or object argument placeholder.
struct ArgumentSpec: Equatable {
    enum Kind: Equatable {
        /// `%@`: any value, or a query for `key IN %@`.
        case object
        /// `%K`: a key path.
        case keyPath
        /// `%d %i %u %x %o` and their length-modified forms: an integer.
        case integer
        /// `%f %g %e`: a number.
        case real
    }
    var kind: Kind
    /// As written, e.g. `%lld`, for messages.
    var text: String
}

/// Apple's reserved words. Case-insensitive; `#word` turns one back into an identifier.
/// (`FUNCTION` is not reserved: it is syntax only when a `(` follows.)
enum Keyword: String, CaseIterable, Equatable {
    case and = "AND", or = "OR", not = "NOT", in_ = "IN"
    case all = "ALL", any = "ANY", some = "SOME", none = "NONE"
    case like = "LIKE", matches = "MATCHES", contains = "CONTAINS"
    case beginsWith = "BEGINSWITH", endsWith = "ENDSWITH", between = "BETWEEN"
    case null = "NULL", nil_ = "NIL", self_ = "SELF"
    case true_ = "TRUE", yes = "YES", false_ = "FALSE", no = "NO"
    case first = "FIRST", last = "LAST", size = "SIZE"
    case anyKey = "ANYKEY", subquery = "SUBQUERY", fetch = "FETCH", cast = "CAST"
    case truePredicate = "TRUEPREDICATE", falsePredicate = "FALSEPREDICATE"
    case caseInsensitive = "CASEINSENSITIVE", ci = "CI"
    case utiConformsTo = "UTI-CONFORMS-TO", utiEquals = "UTI-EQUALS"

    /// The keyword a word spells (ASCII case-insensitively), if any; `UTI` starts the two
    /// dashed operators.
    static func spelled(by word: String) -> Keyword? {
        byWord[String(decoding: word.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)]
    }

    /// Upper-cased spelling → keyword, for the words made of identifier characters.
    static let byWord: [String: Keyword] = {
        var table: [String: Keyword] = [:]
        for k in allCases where k != .utiConformsTo && k != .utiEquals { table[k.rawValue] = k }
        return table
    }()
}

extension TokenKind {
    /// How the token reads in a message: `'AND'`, `a string`, `the end of the predicate`.
    var display: String {
        switch self {
        case .identifier(let s): return "'\(s)'"
        case .keyword(let k): return "'\(k.rawValue)'"
        case .integer(let n): return "'\(n)'"
        case .real(let d): return "'\(d)'"
        case .string: return "a string"
        case .argument(let a): return "'\(a.text)'"
        case .percentLiteral: return "'%%'"
        case .variable(let v): return "'$\(v)'"
        case .collectionOperator(let o): return "'@\(o)'"
        case .symbol(let s): return "'\(s.rawValue)'"
        case .end: return "the end of the predicate"
        }
    }
}
