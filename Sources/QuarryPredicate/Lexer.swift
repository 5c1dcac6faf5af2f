import QuarryCore

/// Splits a predicate format string into tokens, working on its UTF-8 bytes.
///
/// Everything inside quotes is literal (Apple: quoting `%@`, `%K` or `$x` turns substitution
/// off). Unknown backslash escapes are kept as written so that regex and LIKE patterns
/// (`'\d+'`, `'a\*'`) reach their operator unchanged.
struct Lexer {
    private let bytes: [UInt8]
    private var pos = 0
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

    private func peek(_ ahead: Int = 0) -> UInt8? {
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
                throw Diagnostic("lex.unexpected-character",
                                 "expected a name after '#' (it escapes a reserved word, as in #size)",
                                 at: SourceRange(offset: start, length: 1))
            }
            return .identifier(lexIdentifierText())
        case UInt8(ascii: "$"):
            pos += 1
            guard startsIdentifier(at: pos) else {
                throw Diagnostic("lex.invalid-variable", "expected a variable name after '$'",
                                 at: SourceRange(offset: start, length: 1))
            }
            return .variable(lexIdentifierText())
        case UInt8(ascii: "@"):
            pos += 1
            guard startsIdentifier(at: pos) else {
                throw Diagnostic("lex.unexpected-character",
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

    // MARK: - Arguments

    private mutating func lexArgument() throws(Diagnostic) -> TokenKind {
        let start = pos
        pos += 1  // %
        var text = "%"
        func take(_ lexer: inout Lexer) -> UInt8? {
            guard let c = lexer.peek() else { return nil }
            lexer.pos += 1
            text.append(Character(Unicode.Scalar(c)))
            return c
        }
        let bad = { (lexer: Lexer) -> Diagnostic in
            Diagnostic("lex.invalid-argument",
                       "'\(String(decoding: lexer.bytes[start..<lexer.pos], as: UTF8.self))' is not an argument specifier; use %@ (value), %K (key path), %d %i %u %x (integer), %f %g %e (number) or %% (a percent sign)",
                       at: SourceRange(offset: start, length: Swift.max(1, lexer.pos - start)))
        }
        guard let c = take(&self) else { throw bad(self) }
        switch c {
        case UInt8(ascii: "%"): return .percentLiteral
        case UInt8(ascii: "@"): return .argument(ArgumentSpec(kind: .object, text: text))
        case UInt8(ascii: "K"): return .argument(ArgumentSpec(kind: .keyPath, text: text))
        case UInt8(ascii: "d"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "x"),
            UInt8(ascii: "X"), UInt8(ascii: "o"):
            return .argument(ArgumentSpec(kind: .integer, text: text))
        case UInt8(ascii: "f"), UInt8(ascii: "g"), UInt8(ascii: "G"), UInt8(ascii: "e"),
            UInt8(ascii: "E"):
            return .argument(ArgumentSpec(kind: .real, text: text))
        case UInt8(ascii: "l"):
            // %ld %li %lu %lx %lf %lld %lli %llu %llx
            if peek() == UInt8(ascii: "l") { _ = take(&self) }
            guard let d = take(&self) else { throw bad(self) }
            switch d {
            case UInt8(ascii: "d"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "x"),
                UInt8(ascii: "X"):
                return .argument(ArgumentSpec(kind: .integer, text: text))
            case UInt8(ascii: "f") where text == "%lf":
                return .argument(ArgumentSpec(kind: .real, text: text))
            default: throw bad(self)
            }
        case UInt8(ascii: "h"), UInt8(ascii: "q"):
            // %hi %hu %qi %qu %qx
            guard let d = take(&self) else { throw bad(self) }
            switch d {
            case UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "d"):
                return .argument(ArgumentSpec(kind: .integer, text: text))
            case UInt8(ascii: "x") where c == UInt8(ascii: "q"):
                return .argument(ArgumentSpec(kind: .integer, text: text))
            default: throw bad(self)
            }
        default:
            throw bad(self)
        }
    }

    // MARK: - Strings

    private mutating func lexString(quote: UInt8) throws(Diagnostic) -> String {
        let open = pos
        pos += 1
        var out: [UInt8] = []
        while true {
            guard let c = peek() else { throw unterminated(open: open, quote: quote) }
            if c == quote {
                pos += 1
                return String(decoding: out, as: UTF8.self)
            }
            if c != UInt8(ascii: "\\") {
                out.append(c)
                pos += 1
                continue
            }
            let escapeStart = pos
            pos += 1
            guard let e = peek() else { throw unterminated(open: open, quote: quote) }
            pos += 1
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "v"): out.append(0x0B)
            case UInt8(ascii: "a"): out.append(0x07)
            case UInt8(ascii: "0"): out.append(0x00)
            case UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: "\""): out.append(e)
            case UInt8(ascii: "u"):
                let scalar = try lexUnicodeEscape(escapeStart: escapeStart)
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                // Kept verbatim: `\d`, `\*`, `\.` belong to the regex or LIKE pattern.
                out.append(UInt8(ascii: "\\"))
                out.append(e)
            }
        }
    }

    private func unterminated(open: Int, quote: UInt8) -> Diagnostic {
        let q = quote == UInt8(ascii: "'") ? "'" : "\""
        let other = quote == UInt8(ascii: "'") ? "\"" : "'"
        var notes = ["add a closing \(q); to put a \(q) inside a string write \\\(q) or quote the string with \(other)"]
        // `'Big Daddy's'`: the apostrophe closed the string and this quote opened another.
        var j = open
        while j > 0, isIdentifierPart(bytes[j - 1]) { j -= 1 }
        if j < open, j > 0, bytes[j - 1] == quote {
            let p = SourceText(String(decoding: bytes, as: UTF8.self)).position(ofByte: j - 1)
            notes.insert("the \(q) at \(p.line):\(p.column) ended the string before it; write \\\(q) there", at: 0)
        }
        return Diagnostic(
            "lex.unterminated-string",
            "unterminated string: the \(q) that opens it is never closed",
            at: SourceRange(offset: open, length: bytes.count - open),
            notes: notes)
    }

    /// After `\u`: four hex digits (with a following `\uXXXX` low surrogate when needed) or `{hex}`.
    private mutating func lexUnicodeEscape(escapeStart: Int) throws(Diagnostic) -> Unicode.Scalar {
        func invalid(_ lexer: Lexer, _ why: String) -> Diagnostic {
            Diagnostic("lex.invalid-escape", why,
                       at: SourceRange(offset: escapeStart, length: Swift.max(2, lexer.pos - escapeStart)))
        }
        if peek() == UInt8(ascii: "{") {
            pos += 1
            var value: UInt32 = 0
            var digits = 0
            while let c = peek(), let h = hexValue(c) {
                pos += 1
                digits += 1
                if digits > 6 { throw invalid(self, "a \\u{…} escape has at most 6 hex digits") }
                value = value << 4 | UInt32(h)
            }
            guard digits > 0, peek() == UInt8(ascii: "}") else {
                throw invalid(self, "expected hex digits and '}' in a \\u{…} escape")
            }
            pos += 1
            guard let s = Unicode.Scalar(value) else {
                throw invalid(self, "\\u{\(String(value, radix: 16, uppercase: true))} is not a Unicode scalar value")
            }
            return s
        }
        let high = try fourHex(invalid)
        if (0xD800...0xDBFF).contains(high) {
            guard peek() == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "u") else {
                throw invalid(self, "a high surrogate \\u\(String(high, radix: 16, uppercase: true)) must be followed by a low surrogate \\uDC00…\\uDFFF")
            }
            pos += 2
            let low = try fourHex(invalid)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw invalid(self, "expected a low surrogate \\uDC00…\\uDFFF after \\u\(String(high, radix: 16, uppercase: true))")
            }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
        }
        guard let s = Unicode.Scalar(high) else {
            throw invalid(self, "a lone low surrogate \\u\(String(high, radix: 16, uppercase: true)) is not a character")
        }
        return s
    }

    private mutating func fourHex(_ invalid: (Lexer, String) -> Diagnostic) throws(Diagnostic) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let c = peek(), let h = hexValue(c) else {
                throw invalid(self, "expected four hex digits after \\u")
            }
            pos += 1
            value = value << 4 | UInt32(h)
        }
        return value
    }

    // MARK: - Numbers

    private mutating func lexNumber() throws(Diagnostic) -> TokenKind {
        let start = pos
        if peek() == UInt8(ascii: "0"), let p = peek(1) {
            let radix: UInt64?
            switch p | 0x20 {
            case UInt8(ascii: "x"): radix = 16
            case UInt8(ascii: "o"): radix = 8
            case UInt8(ascii: "b"): radix = 2
            default: radix = nil
            }
            if let radix { return try lexRadixInteger(radix: radix, start: start) }
        }
        var isReal = false
        while let c = peek(), isDigit(c) { pos += 1 }
        if peek() == UInt8(ascii: "."), let d = peek(1), isDigit(d) {
            isReal = true
            pos += 1
            while let c = peek(), isDigit(c) { pos += 1 }
        }
        if let e = peek(), e | 0x20 == UInt8(ascii: "e") {
            var ahead = 1
            if let s = peek(1), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { ahead = 2 }
            guard let d = peek(ahead), isDigit(d) else {
                pos += 1
                throw Diagnostic("lex.invalid-number", "expected digits after the exponent 'e'",
                                 at: SourceRange(offset: start, length: pos - start))
            }
            isReal = true
            pos += ahead
            while let c = peek(), isDigit(c) { pos += 1 }
        }
        try rejectTrailingLetters(start: start)
        let text = String(decoding: bytes[start..<pos], as: UTF8.self)
        let range = SourceRange(offset: start, length: pos - start)
        if isReal {
            guard let d = Double(text), d.isFinite else {
                throw Diagnostic("lex.number-out-of-range", "\(text) is too large for a number", at: range)
            }
            return .real(d)
        }
        guard let n = UInt64(text) else {
            throw Diagnostic("lex.number-out-of-range",
                             "\(text) does not fit in a 64-bit integer", at: range)
        }
        return .integer(n)
    }

    private mutating func lexRadixInteger(radix: UInt64, start: Int) throws(Diagnostic) -> TokenKind {
        pos += 2
        var value: UInt64 = 0
        var digits = 0
        var overflow = false
        while let c = peek(), let h = hexValue(c), UInt64(h) < radix {
            pos += 1
            digits += 1
            let (m, o1) = value.multipliedReportingOverflow(by: radix)
            let (s, o2) = m.addingReportingOverflow(UInt64(h))
            overflow = overflow || o1 || o2
            value = s
        }
        let name = radix == 16 ? "hex" : radix == 8 ? "octal" : "binary"
        guard digits > 0 else {
            pos = Swift.min(pos + (peek() == nil ? 0 : 1), bytes.count)
            throw Diagnostic("lex.invalid-number", "expected \(name) digits after '\(String(decoding: bytes[start..<(start + 2)], as: UTF8.self))'",
                             at: SourceRange(offset: start, length: pos - start))
        }
        try rejectTrailingLetters(start: start)
        if overflow {
            throw Diagnostic("lex.number-out-of-range", "\(name) literal does not fit in 64 bits",
                             at: SourceRange(offset: start, length: pos - start))
        }
        return .integer(value)
    }

    /// `12abc` and `0x1G` are one bad token, not a number followed by a name.
    private mutating func rejectTrailingLetters(start: Int) throws(Diagnostic) {
        guard let c = peek(), isIdentifierPart(c) else { return }
        while let c = peek(), isIdentifierPart(c) { pos += 1 }
        throw Diagnostic("lex.invalid-number",
                         "'\(String(decoding: bytes[start..<pos], as: UTF8.self))' is not a number",
                         at: SourceRange(offset: start, length: pos - start))
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
            throw Diagnostic("lex.unexpected-character", "unexpected character '\(text)'\(hint)",
                             at: SourceRange(offset: start, length: end - start))
        }
    }
}

// MARK: - Character classes

@inline(__always) private func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

/// ASCII letters and `_` (non-ASCII characters are decided by `Unicode.Scalar.isIdentifierStart`).
@inline(__always) func isIdentifierStart(_ b: UInt8) -> Bool {
    (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A || b == 0x5F
}

@inline(__always) func isIdentifierPart(_ b: UInt8) -> Bool { isIdentifierStart(b) || isDigit(b) }

@inline(__always) private func hexValue(_ b: UInt8) -> UInt8? {
    switch b {
    case 0x30...0x39: return b - 0x30
    case 0x41...0x46: return b - 0x41 + 10
    case 0x61...0x66: return b - 0x61 + 10
    default: return nil
    }
}

@inline(__always) private func upperASCII(_ b: UInt8) -> UInt8 {
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
