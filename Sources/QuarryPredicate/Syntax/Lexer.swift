import QuarryCore

/// Splits a predicate format string into tokens, working on its UTF-8 bytes.
///
/// Everything inside quotes is literal (Apple: quoting `%@`, `%K` or `$x` turns substitution
/// off). Unknown backslash escapes are kept as written so that regex and LIKE patterns
/// (`'\d+'`, `'a\*'`) reach their operator unchanged.
struct Lexer {
    let bytes: [UInt8]
    var pos = 0
    /// Whether the previous token can end an operand; decides whether `.5` is a number.
    private var afterOperand = false

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static func tokenize(_ bytes: [UInt8]) throws(Diagnostic) -> [Token] {
        var lexer = Lexer(bytes)
        var tokens: [Token] = []
        while true {
            let t = try lexer.next()
            tokens.append(t)
            if t.kind == .end { return tokens }
        }
    }

    func peek(_ ahead: Int = 0) -> UInt8? {
        let i = pos + ahead
        return i < bytes.count ? bytes[i] : nil
    }

    mutating func next() throws(Diagnostic) -> Token {
        while let b = peek(), b == 0x20 || (b >= 0x09 && b <= 0x0D) { pos += 1 }
        let start = pos
        guard let b = peek() else { return Token(kind: .end, range: SourceRange(offset: pos, length: 0)) }
        let kind = try lexToken(startingWith: b)
        afterOperand = kind.endsOperand
        return Token(kind: kind, range: SourceRange(offset: start, length: pos - start))
    }

    private mutating func lexToken(startingWith b: UInt8) throws(Diagnostic) -> TokenKind {
        let start = pos
        switch b {
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            return .string(try lexString(quote: b))
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try lexNumber()
        case UInt8(ascii: "."):
            if !afterOperand, let d = peek(1), isDigit(d) { return try lexNumber() }
            pos += 1
            return .symbol(.dot)
        case UInt8(ascii: "#"):
            pos += 1
            guard startsIdentifier(at: pos) else {
                throw Diagnostic(
                    .lex.unexpectedCharacter,
                    "expected a name after '#' (it escapes a reserved word, as in #size)",
                    at: SourceRange(offset: start, length: 1))
            }
            return .identifier(lexIdentifierText())
        case UInt8(ascii: "$"):
            pos += 1
            guard startsIdentifier(at: pos) else {
                throw Diagnostic(
                    .lex.invalidVariable, "expected a variable name after '$'",
                    at: SourceRange(offset: start, length: 1))
            }
            return .variable(lexIdentifierText())
        case UInt8(ascii: "@"):
            pos += 1
            guard startsIdentifier(at: pos) else {
                throw Diagnostic(
                    .lex.unexpectedCharacter,
                    "expected a collection operator such as @count after '@'",
                    at: SourceRange(offset: start, length: 1))
            }
            return .collectionOperator(lexIdentifierText())
        case UInt8(ascii: "%"):
            return try lexArgument()
        default:
            if startsIdentifier(at: pos) { return lexWord() }
            return try lexSymbol(b)
        }
    }

    // MARK: - Words

    private mutating func lexIdentifierText() -> String {
        let start = pos
        while let n = identifierPartLength(at: pos) { pos += n }
        return String(decoding: bytes[start..<pos], as: UTF8.self)
    }

    /// Bytes of the identifier character at `i` (ASCII fast path), or nil.
    private func identifierPartLength(at i: Int) -> Int? {
        guard i < bytes.count else { return nil }
        if bytes[i] < 0x80 { return isIdentifierPart(bytes[i]) ? 1 : nil }
        guard let (scalar, n) = decodeScalar(bytes, at: i), scalar.isIdentifierPart else { return nil }
        return n
    }

    private func startsIdentifier(at i: Int) -> Bool {
        guard i < bytes.count else { return false }
        if bytes[i] < 0x80 { return isIdentifierStart(bytes[i]) }
        guard let (scalar, _) = decodeScalar(bytes, at: i) else { return false }
        return scalar.isIdentifierStart
    }

    private mutating func lexWord() -> TokenKind {
        let start = pos
        let text = lexIdentifierText()
        // Keywords are ASCII and at most 15 bytes: an inline string, no allocation.
        if pos - start <= 15 {
            let upper = String(decoding: bytes[start..<pos].lazy.map(upperASCII), as: UTF8.self)
            if upper == "UTI", let k = lexUTISuffix() { return .keyword(k) }
            if let k = Keyword.byWord[upper] { return .keyword(k) }
        }
        return .identifier(text)
    }

    /// `UTI-CONFORMS-TO` and `UTI-EQUALS` are the only words with dashes.
    private mutating func lexUTISuffix() -> Keyword? {
        for (suffix, k) in [("-CONFORMS-TO", Keyword.utiConformsTo), ("-EQUALS", .utiEquals)] {
            let s = Array(suffix.utf8)
            guard pos + s.count <= bytes.count else { continue }
            let matches = zip(bytes[pos..<(pos + s.count)], s).allSatisfy { upperASCII($0) == $1 }
            let boundary = pos + s.count == bytes.count || !isIdentifierPart(bytes[pos + s.count])
            if matches && boundary {
                pos += s.count
                return k
            }
        }
        return nil
    }

    // MARK: - Symbols

    private mutating func lexSymbol(_ b: UInt8) throws(Diagnostic) -> TokenKind {
        let start = pos
        let n = peek(1)
        func two(_ s: Symbol) -> TokenKind { pos += 2; return .symbol(s) }
        func one(_ s: Symbol) -> TokenKind { pos += 1; return .symbol(s) }
        switch b {
        case UInt8(ascii: "("): return one(.leftParen)
        case UInt8(ascii: ")"): return one(.rightParen)
        case UInt8(ascii: "{"): return one(.leftBrace)
        case UInt8(ascii: "}"): return one(.rightBrace)
        case UInt8(ascii: "["): return one(.leftBracket)
        case UInt8(ascii: "]"): return one(.rightBracket)
        case UInt8(ascii: ","): return one(.comma)
        case UInt8(ascii: "+"): return one(.plus)
        case UInt8(ascii: "-"): return one(.minus)
        case UInt8(ascii: "/"): return one(.slash)
        case UInt8(ascii: "*"): return n == UInt8(ascii: "*") ? two(.doubleStar) : one(.star)
        case UInt8(ascii: "="):
            if n == UInt8(ascii: "=") { return two(.doubleEqual) }
            if n == UInt8(ascii: "<") { return two(.equalLess) }
            if n == UInt8(ascii: ">") { return two(.equalGreater) }
            return one(.equal)
        case UInt8(ascii: "!"): return n == UInt8(ascii: "=") ? two(.notEqual) : one(.bang)
        case UInt8(ascii: "<"):
            if n == UInt8(ascii: "=") { return two(.lessEqual) }
            if n == UInt8(ascii: ">") { return two(.lessGreater) }
            return one(.less)
        case UInt8(ascii: ">"): return n == UInt8(ascii: "=") ? two(.greaterEqual) : one(.greater)
        case UInt8(ascii: "&") where n == UInt8(ascii: "&"): return two(.ampersands)
        case UInt8(ascii: "|") where n == UInt8(ascii: "|"): return two(.pipes)
        case UInt8(ascii: ":") where n == UInt8(ascii: "="): return two(.assign)
        default:
            let hint: String
            switch b {
            case UInt8(ascii: "&"): hint = "; logical AND is '&&' or AND"
            case UInt8(ascii: "|"): hint = "; logical OR is '||' or OR"
            case UInt8(ascii: ":"): hint = "; assignment is ':='"
            case UInt8(ascii: "?"): hint = "; use %@ for an argument or $NAME for a variable"
            case UInt8(ascii: "`"): hint = "; quote strings with ' or \""
            default: hint = ""
            }
            // Report the whole scalar, not one byte of it.
            var end = start + 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            let text = String(decoding: bytes[start..<end], as: UTF8.self)
            throw Diagnostic(
                .lex.unexpectedCharacter, "unexpected character '\(text)'\(hint)",
                at: SourceRange(offset: start, length: end - start))
        }
    }
}

// MARK: - Character classes

@inline(__always) func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

/// ASCII letters and `_` (non-ASCII characters are decided by `Unicode.Scalar.isIdentifierStart`).
@inline(__always) func isIdentifierStart(_ b: UInt8) -> Bool {
    (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A || b == 0x5F
}

@inline(__always) func isIdentifierPart(_ b: UInt8) -> Bool { isIdentifierStart(b) || isDigit(b) }

@inline(__always) func hexValue(_ b: UInt8) -> UInt8? {
    switch b {
    case 0x30...0x39: return b - 0x30
    case 0x41...0x46: return b - 0x41 + 10
    case 0x61...0x66: return b - 0x61 + 10
    default: return nil
    }
}

@inline(__always) func upperASCII(_ b: UInt8) -> UInt8 {
    b >= 0x61 && b <= 0x7A ? b - 0x20 : b
}

extension TokenKind {
    /// Tokens after which a `.` is a path separator rather than the start of `.5`.
    var endsOperand: Bool {
        switch self {
        case .identifier, .integer, .real, .string, .argument, .percentLiteral, .variable,
            .collectionOperator:
            return true
        case .keyword(let k):
            switch k {
            case .self_, .null, .nil_, .true_, .yes, .false_, .no, .first, .last, .size: return true
            default: return false
            }
        case .symbol(let s):
            return s == .rightParen || s == .rightBracket || s == .rightBrace
        case .end:
            return false
        }
    }
}

extension Unicode.Scalar {
    /// Letters of any script start a name (`café`, `名前`); digits and combining marks continue it.
    var isIdentifierStart: Bool {
        value < 0x80 ? QuarryPredicate.isIdentifierStart(UInt8(value)) : properties.isAlphabetic
    }

    var isIdentifierPart: Bool {
        if value < 0x80 { return QuarryPredicate.isIdentifierPart(UInt8(value)) }
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .decimalNumber, .connectorPunctuation: return true
        default: return properties.isAlphabetic
        }
    }
}

/// The scalar whose UTF-8 encoding starts at `i` (the text is valid UTF-8) and its length.
func decodeScalar(_ bytes: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
    let b = bytes[i]
    let n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
    guard i + n <= bytes.count else { return nil }
    var value = n == 1 ? UInt32(b) : UInt32(b) & (0xFF >> (n + 1))
    for k in 1..<n { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
    return Unicode.Scalar(value).map { ($0, n) }
}
