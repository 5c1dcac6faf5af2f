import QuarryCore

/// Turns where-clause text into tokens, reading UTF-8 bytes. Stops at the first lexical error.
struct SQLLexer {
    private let bytes: [UInt8]
    private var i = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// All tokens, ending with `.end`.
    static func tokens(_ bytes: [UInt8]) throws(Diagnostic) -> [SQLToken] {
        var lexer = SQLLexer(bytes)
        var out: [SQLToken] = []
        // About a token per four bytes in a typical clause; growing from empty reallocated
        // five times for a clause of three conditions.
        out.reserveCapacity(min(bytes.count / 4 + 2, 256))
        while true {
            let t = try lexer.next()
            out.append(t)
            if t.kind == .end { return out }
        }
    }

    mutating func next() throws(Diagnostic) -> SQLToken {
        skipWhitespace()
        guard i < bytes.count else { return SQLToken(.end, SourceRange(offset: i, length: 0), keyword: nil) }
        let start = i
        let b = bytes[i]
        switch b {
        case UInt8(ascii: "'"): return try string()
        case UInt8(ascii: "`"): return try quotedIdentifier()
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case UInt8(ascii: "("): return symbol(.leftParen, 1)
        case UInt8(ascii: ")"): return symbol(.rightParen, 1)
        case UInt8(ascii: "["): return symbol(.leftBracket, 1)
        case UInt8(ascii: "]"): return symbol(.rightBracket, 1)
        case UInt8(ascii: ","): return symbol(.comma, 1)
        case UInt8(ascii: "."): return symbol(.dot, 1)
        case UInt8(ascii: "-"): return symbol(.minus, 1)
        case UInt8(ascii: "="):
            return peek(1) == UInt8(ascii: ">") ? symbol(.greaterOrEqualAlias, 2) : symbol(.equal, 1)
        case UInt8(ascii: "!") where peek(1) == UInt8(ascii: "="):
            return symbol(.notEqual, 2)
        case UInt8(ascii: "<"):
            if peek(1) == UInt8(ascii: "=") { return symbol(.lessOrEqual, 2) }
            if peek(1) == UInt8(ascii: ">") { return symbol(.notEqualSQL, 2) }
            return symbol(.less, 1)
        case UInt8(ascii: ">"):
            return peek(1) == UInt8(ascii: "=") ? symbol(.greaterOrEqual, 2) : symbol(.greater, 1)
        default:
            let (s, length) = CharacterClasses.scalar(in: bytes, at: i)
            if CharacterClasses.isIdentifierStart(s) { return identifier() }
            let range = SourceRange(offset: start, length: length)
            throw Diagnostic(.lex.unexpectedCharacter, Self.unexpectedMessage(s), at: range)
        }
    }

    private static func unexpectedMessage(_ s: Unicode.Scalar) -> String {
        let shown =
            s.properties.generalCategory == .control || s.properties.isWhitespace
            ? "U+" + String(s.value, radix: 16, uppercase: true)
            : "'\(s)'"
        var message = "unexpected character \(shown)"
        switch s {
        case "\"": message += "; string literals use single quotes ('…') and quoted names backquotes (`…`)"
        case "!": message += "; did you mean '!='?"
        default: break
        }
        return message
    }

    private func peek(_ k: Int) -> UInt8? { i + k < bytes.count ? bytes[i + k] : nil }

    private mutating func symbol(_ s: SQLSymbol, _ length: Int) -> SQLToken {
        defer { i += length }
        return SQLToken(.symbol(s), SourceRange(offset: i, length: length), keyword: nil)
    }

    private mutating func skipWhitespace() {
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x20 || (b >= 0x09 && b <= 0x0D) { i += 1; continue }
            if b < 0x80 { return }
            let (s, length) = CharacterClasses.scalar(in: bytes, at: i)
            guard CharacterClasses.isWhitespace(s) else { return }
            i += length
        }
    }

    private mutating func identifier() -> SQLToken {
        let start = i
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 {
                // ASCII without decoding a scalar: letters, digits and `_`.
                guard b &- 0x61 < 26 || b &- 0x41 < 26 || b &- 0x30 < 10 || b == 0x5F else { break }
                i += 1
                continue
            }
            let (s, length) = CharacterClasses.scalar(in: bytes, at: i)
            guard CharacterClasses.isIdentifierContinue(s) else { break }
            i += length
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        return SQLToken(
            .identifier(text, quoted: false), SourceRange(offset: start, length: i - start),
            keyword: SQLKeyword(bytes[start..<i]))
    }

    /// `` `weird name` `` with ```` `` ```` for a literal backquote.
    private mutating func quotedIdentifier() throws(Diagnostic) -> SQLToken {
        let start = i
        let text = try delimited(
            by: UInt8(ascii: "`"), code: .lex.unterminatedIdentifier,
            what: "quoted name", closing: "`")
        let range = SourceRange(offset: start, length: i - start)
        if text.isEmpty {
            throw Diagnostic(.syntax.invalidIdentifier, "a quoted name cannot be empty", at: range)
        }
        if text.utf8.contains(UInt8(ascii: ".")) {
            // Key paths are dotted names; a dot inside one name could never be addressed.
            throw Diagnostic(
                .syntax.invalidIdentifier,
                "a quoted name cannot contain '.'; write a path as `a`.`b`", at: range)
        }
        return SQLToken(.identifier(text, quoted: true), range, keyword: nil)
    }

    private mutating func string() throws(Diagnostic) -> SQLToken {
        let start = i
        let text = try delimited(
            by: UInt8(ascii: "'"), code: .lex.unterminatedString,
            what: "string", closing: "'")
        return SQLToken(.string(text), SourceRange(offset: start, length: i - start), keyword: nil)
    }

    /// Reads from the opening delimiter through the closing one; a doubled delimiter stands for
    /// itself. An unterminated literal is reported at its opening delimiter.
    private mutating func delimited(
        by quote: UInt8, code: DiagnosticCode, what: String,
        closing: String
    ) throws(Diagnostic) -> String {
        let open = i
        i += 1
        var content: [UInt8] = []
        var segmentStart = i
        while i < bytes.count {
            if bytes[i] == quote {
                content.append(contentsOf: bytes[segmentStart..<i])
                if peek(1) == quote {
                    content.append(quote)
                    i += 2
                    segmentStart = i
                    continue
                }
                i += 1
                return String(decoding: content, as: UTF8.self)
            }
            i += 1
        }
        throw Diagnostic(
            code, "unterminated \(what): no closing \(closing) before the end of the query",
            at: SourceRange(offset: open, length: 1),
            notes: ["a \(closing) inside a \(what) is written twice: \(closing)\(closing)"])
    }

    /// `digits [. digits] [(e|E) [+|-] digits]`; an integer must fit 64 bits.
    private mutating func number() throws(Diagnostic) -> SQLToken {
        let start = i
        var isDecimal = false
        skipDigits()
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            isDecimal = true
            i += 1
            guard skipDigits() else {
                throw Diagnostic(
                    .lex.invalidNumber, "expected a digit after the decimal point",
                    at: SourceRange(offset: start, length: i - start))
            }
        }
        if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
            isDecimal = true
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard skipDigits() else {
                throw Diagnostic(
                    .lex.invalidNumber, "expected the digits of the exponent",
                    at: SourceRange(offset: start, length: i - start))
            }
        }
        if i < bytes.count {
            let (s, length) = CharacterClasses.scalar(in: bytes, at: i)
            if CharacterClasses.isIdentifierContinue(s) {
                throw Diagnostic(
                    .lex.invalidNumber, "unexpected '\(s)' after a number",
                    at: SourceRange(offset: i, length: length))
            }
        }
        let range = SourceRange(offset: start, length: i - start)
        if isDecimal {
            let end = i
            let read = bytes.withUnsafeBufferPointer {
                DecimalText.double(UnsafeBufferPointer(rebasing: $0[start..<end]))
            }
            guard let d = read, d.isFinite else {
                throw Diagnostic(
                    .lex.numberOutOfRange,
                    "the number \(String(decoding: bytes[start..<end], as: UTF8.self)) is too large for a double",
                    at: range)
            }
            return SQLToken(.decimal(d), range, keyword: nil)
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let u = UInt64(text) else {
            throw Diagnostic(
                .lex.numberOutOfRange,
                "the integer \(text) does not fit in 64 bits", at: range)
        }
        return SQLToken(.integer(u), range, keyword: nil)
    }

    @discardableResult
    private mutating func skipDigits() -> Bool {
        let start = i
        while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") { i += 1 }
        return i > start
    }
}
