import QuarryCore

// Literal tokens: `%…` arguments, quoted strings with their escapes, and numbers in every base.

extension Lexer {
    // MARK: - Arguments

    mutating func lexArgument() throws(Diagnostic) -> TokenKind {
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
            Diagnostic(
                .lex.invalidArgument,
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

    mutating func lexString(quote: UInt8) throws(Diagnostic) -> String {
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
            .lex.unterminatedString,
            "unterminated string: the \(q) that opens it is never closed",
            at: SourceRange(offset: open, length: bytes.count - open),
            notes: notes)
    }

    /// After `\u`: four hex digits (with a following `\uXXXX` low surrogate when needed) or `{hex}`.
    private mutating func lexUnicodeEscape(escapeStart: Int) throws(Diagnostic) -> Unicode.Scalar {
        func invalid(_ lexer: Lexer, _ why: String) -> Diagnostic {
            Diagnostic(
                .lex.invalidEscape, why,
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
                throw invalid(
                    self,
                    "a high surrogate \\u\(String(high, radix: 16, uppercase: true)) must be followed by a low surrogate \\uDC00…\\uDFFF"
                )
            }
            pos += 2
            let low = try fourHex(invalid)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw invalid(
                    self,
                    "expected a low surrogate \\uDC00…\\uDFFF after \\u\(String(high, radix: 16, uppercase: true))")
            }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
        }
        guard let s = Unicode.Scalar(high) else {
            throw invalid(
                self, "a lone low surrogate \\u\(String(high, radix: 16, uppercase: true)) is not a character")
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

    mutating func lexNumber() throws(Diagnostic) -> TokenKind {
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
                throw Diagnostic(
                    .lex.invalidNumber, "expected digits after the exponent 'e'",
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
                throw Diagnostic(.lex.numberOutOfRange, "\(text) is too large for a number", at: range)
            }
            return .real(d)
        }
        guard let n = UInt64(text) else {
            throw Diagnostic(
                .lex.numberOutOfRange,
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
            throw Diagnostic(
                .lex.invalidNumber,
                "expected \(name) digits after '\(String(decoding: bytes[start..<(start + 2)], as: UTF8.self))'",
                at: SourceRange(offset: start, length: pos - start))
        }
        try rejectTrailingLetters(start: start)
        if overflow {
            throw Diagnostic(
                .lex.numberOutOfRange, "\(name) literal does not fit in 64 bits",
                at: SourceRange(offset: start, length: pos - start))
        }
        return .integer(value)
    }

    /// `12abc` and `0x1G` are one bad token, not a number followed by a name.
    private mutating func rejectTrailingLetters(start: Int) throws(Diagnostic) {
        guard let c = peek(), isIdentifierPart(c) else { return }
        while let c = peek(), isIdentifierPart(c) { pos += 1 }
        throw Diagnostic(
            .lex.invalidNumber,
            "'\(String(decoding: bytes[start..<pos], as: UTF8.self))' is not a number",
            at: SourceRange(offset: start, length: pos - start))
    }
}
