import QuarryCore

/// Receives the values the reader recognizes, so that one reader builds either tree
/// (`JSON` fast, `JSONNode` with ranges). Specialized at compile time: no dynamic dispatch.
protocol JSONTreeBuilder {
    associatedtype Node
    func null(_ range: SourceRange) -> Node
    func bool(_ value: Bool, _ range: SourceRange) -> Node
    func int(_ value: Int64, _ range: SourceRange) -> Node
    func double(_ value: Double, _ range: SourceRange) -> Node
    func string(_ value: String, _ range: SourceRange) -> Node
    func array(_ items: ArraySlice<Node>, _ range: SourceRange) -> Node
    func object(_ keys: ArraySlice<ParsedKey>, _ values: ArraySlice<Node>, _ range: SourceRange) -> Node
}

struct ParsedKey {
    var name: String
    var range: SourceRange
    /// `JSONObject.fingerprint(name)`: lets objects find repeated keys by comparing integers.
    var fingerprint: UInt64
}

/// A strict RFC 8259 reader over UTF-8 bytes. Iterative (an explicit stack of open containers),
/// so the depth limit, not the thread's stack, bounds nesting. Offsets in diagnostics are
/// indexes into `buf`.
///
/// Error codes: `json.syntax` (structure, unexpected or missing tokens), `json.number`,
/// `json.string` (escapes, control characters, unterminated), `json.utf8`, `json.depth`.
struct JSONReader<Builder: JSONTreeBuilder> {
    let buf: UnsafeBufferPointer<UInt8>
    var pos: Int
    let end: Int
    let maxDepth: Int
    /// Containers the caller has already opened around the values it asks for (the data-file
    /// loader reads the outer layers itself); they count against `maxDepth`.
    let outerDepth: Int
    let builder: Builder

    // Shared stacks: a container's children sit on top of these until it closes, so each
    // closed container costs one exactly-sized allocation.
    private var values: [Builder.Node] = []
    private var keys: [ParsedKey] = []
    private var frames: [Frame] = []
    private var scratch: [UInt8] = []

    private struct Frame {
        var isObject: Bool
        var start: Int
        var valueBase: Int
        var keyBase: Int
    }

    init(
        _ buf: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, maxDepth: Int, outerDepth: Int = 0,
        builder: Builder
    ) {
        self.buf = buf
        self.pos = start
        self.end = end
        self.maxDepth = maxDepth
        self.outerDepth = outerDepth
        self.builder = builder
    }

    // MARK: Documents

    /// One value filling the whole range, surrounded by optional whitespace.
    mutating func parseDocument() throws(Diagnostic) -> Builder.Node {
        skipWhitespace()
        let node = try parseValue()
        skipWhitespace()
        if pos < end { throw unexpected("the end of the input after the JSON value") }
        return node
    }

    /// One value starting at `pos` (whitespace first is skipped); leaves `pos` just after it.
    mutating func parseValue() throws(Diagnostic) -> Builder.Node {
        skipWhitespace()
        outer: while true {
            guard var node = try beginValue() else { continue outer }
            // Attach the value to the open containers, closing every one that ends here.
            while let frame = frames.last {
                values.append(node)
                skipWhitespace()
                guard pos < end else {
                    throw unexpected(
                        frame.isObject
                            ? "',' or '}' after an object member"
                            : "',' or ']' after an array element")
                }
                let c = buf[pos]
                if c == UInt8(ascii: ",") {
                    pos += 1
                    skipWhitespace()
                    if frame.isObject {
                        try parseKeyAndColon(afterComma: true)
                    } else if pos < end && buf[pos] == UInt8(ascii: "]") {
                        throw unexpected("a value after ','", note: " (JSON does not allow trailing commas)")
                    }
                    continue outer
                }
                if c == UInt8(ascii: frame.isObject ? "}" : "]") {
                    pos += 1
                    let range = SourceRange(offset: frame.start, length: pos - frame.start)
                    if frame.isObject {
                        node = builder.object(keys[frame.keyBase...], values[frame.valueBase...], range)
                        keys.removeLast(keys.count - frame.keyBase)
                    } else {
                        node = builder.array(values[frame.valueBase...], range)
                    }
                    values.removeLast(values.count - frame.valueBase)
                    frames.removeLast()
                    continue
                }
                throw unexpected(
                    frame.isObject
                        ? "',' or '}' after an object member"
                        : "',' or ']' after an array element")
            }
            return node
        }
    }

    /// A scalar or an empty container; nil after opening a non-empty container (then `pos` is
    /// at its first value).
    private mutating func beginValue() throws(Diagnostic) -> Builder.Node? {
        guard pos < end else { throw unexpected("a value") }
        let start = pos
        switch buf[pos] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let isObject = buf[pos] == UInt8(ascii: "{")
            if outerDepth + frames.count >= maxDepth {
                throw Diagnostic(
                    .json.depth,
                    "arrays and objects are nested deeper than the limit of \(maxDepth)",
                    at: SourceRange(offset: pos, length: 1))
            }
            pos += 1
            skipWhitespace()
            if pos < end && buf[pos] == UInt8(ascii: isObject ? "}" : "]") {
                pos += 1
                let range = SourceRange(offset: start, length: pos - start)
                return isObject ? builder.object([], [], range) : builder.array([], range)
            }
            frames.append(Frame(isObject: isObject, start: start, valueBase: values.count, keyBase: keys.count))
            if isObject { try parseKeyAndColon(afterComma: false) }
            return nil
        case UInt8(ascii: "\""):
            let s = try parseString()
            return builder.string(s, SourceRange(offset: start, length: pos - start))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return builder.bool(true, SourceRange(offset: start, length: 4))
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return builder.bool(false, SourceRange(offset: start, length: 5))
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return builder.null(SourceRange(offset: start, length: 4))
        default:
            throw unexpected("a value")
        }
    }

    private mutating func parseKeyAndColon(afterComma: Bool) throws(Diagnostic) {
        guard pos < end, buf[pos] == UInt8(ascii: "\"") else {
            if afterComma && pos < end && buf[pos] == UInt8(ascii: "}") {
                throw unexpected("a string key after ','", note: " (JSON does not allow trailing commas)")
            }
            throw unexpected(afterComma ? "a string key after ','" : "a string key or '}'")
        }
        let start = pos
        let name = try parseString()
        // Without escapes the literal's bytes are the key's: no need to walk the String.
        let raw = UnsafeBufferPointer(rebasing: buf[(start + 1)..<(pos - 1)])
        let fingerprint =
            raw.contains(UInt8(ascii: "\\"))
            ? JSONObject.fingerprint(name.utf8)
            : JSONObject.fingerprint(raw)
        keys.append(
            ParsedKey(
                name: name, range: SourceRange(offset: start, length: pos - start),
                fingerprint: fingerprint))
        skipWhitespace()
        guard pos < end, buf[pos] == UInt8(ascii: ":") else { throw unexpected("':' after the object key") }
        pos += 1
        skipWhitespace()
    }

    private mutating func expectLiteral(_ word: StaticString) throws(Diagnostic) {
        let n = word.utf8CodeUnitCount
        let w = word.utf8Start
        guard end - pos >= n else { throw unexpected("a value") }
        for i in 0..<n where buf[pos + i] != w[i] { throw unexpected("a value") }
        pos += n
    }

    @inline(__always) mutating func skipWhitespace() {
        while pos < end {
            switch buf[pos] {
            case 0x20, 0x0A, 0x0D, 0x09: pos += 1
            default: return
            }
        }
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(Diagnostic) -> Builder.Node {
        let start = pos
        let negative = buf[pos] == UInt8(ascii: "-")
        if negative { pos += 1 }
        guard pos < end, isDigit(buf[pos]) else {
            throw Diagnostic(
                .json.number, "expected a digit after '-' but found \(describeFound())",
                at: foundRange())
        }
        var mantissa: UInt64 = 0
        var significant = 0  // digits held in `mantissa`, leading zeros excluded
        var exact = true  // every significant digit fits in `mantissa`
        var scale = 0  // decimal exponent implied by the digits' positions

        if buf[pos] == UInt8(ascii: "0") {
            pos += 1
            if pos < end && isDigit(buf[pos]) {
                while pos < end && isDigit(buf[pos]) { pos += 1 }
                throw Diagnostic(
                    .json.number, "a number may not have leading zeros",
                    at: SourceRange(offset: start, length: pos - start))
            }
        } else {
            while pos < end, isDigit(buf[pos]) {
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(buf[pos] &- 48)
                    significant += 1
                } else {
                    exact = false
                    scale += 1
                }
                pos += 1
            }
        }

        var isInteger = true
        if pos < end && buf[pos] == UInt8(ascii: ".") {
            isInteger = false
            pos += 1
            guard pos < end, isDigit(buf[pos]) else {
                throw Diagnostic(
                    .json.number,
                    "expected a digit after the decimal point but found \(describeFound())",
                    at: foundRange())
            }
            while pos < end, isDigit(buf[pos]) {
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(buf[pos] &- 48)
                    if mantissa != 0 { significant += 1 }
                    scale -= 1
                } else {
                    exact = false
                }
                pos += 1
            }
        }

        var exponent = 0
        if pos < end && (buf[pos] == UInt8(ascii: "e") || buf[pos] == UInt8(ascii: "E")) {
            isInteger = false
            pos += 1
            var expNegative = false
            if pos < end && (buf[pos] == UInt8(ascii: "+") || buf[pos] == UInt8(ascii: "-")) {
                expNegative = buf[pos] == UInt8(ascii: "-")
                pos += 1
            }
            guard pos < end, isDigit(buf[pos]) else {
                throw Diagnostic(
                    .json.number,
                    "expected a digit in the exponent but found \(describeFound())",
                    at: foundRange())
            }
            while pos < end, isDigit(buf[pos]) {
                // Clamped: beyond this every double is 0 or infinite anyway.
                if exponent < 100_000 { exponent = exponent * 10 + Int(buf[pos] &- 48) }
                pos += 1
            }
            if expNegative { exponent = -exponent }
        }

        let range = SourceRange(offset: start, length: pos - start)
        if isInteger && exact {
            if !negative, mantissa <= UInt64(Int64.max) { return builder.int(Int64(mantissa), range) }
            if negative, mantissa != 0, mantissa <= UInt64(Int64.max) + 1 {
                return builder.int(Int64(truncatingIfNeeded: 0 &- mantissa), range)
            }
        }

        let e = scale + exponent
        let value: Double
        if exact, let fast = ExactDecimal.value(mantissa: mantissa, exponent: e, negative: negative) {
            value = fast
        } else {
            let text = String(decoding: UnsafeBufferPointer(rebasing: buf[start..<pos]), as: UTF8.self)
            guard let parsed = Double(text) else {
                throw Diagnostic(.json.number, "'\(text)' is not a representable number", at: range)
            }
            value = parsed
        }
        guard value.isFinite else {
            throw Diagnostic(.json.number, "the number is too large for a double", at: range)
        }
        return builder.double(value, range)
    }

    @inline(__always) private func isDigit(_ b: UInt8) -> Bool { b &- 48 < 10 }

    // MARK: Strings

    /// A string literal at `pos` (the opening quote); leaves `pos` after the closing quote.
    mutating func parseString() throws(Diagnostic) -> String {
        let quote = pos
        pos += 1
        let start = pos
        while pos < end {
            let b = buf[pos]
            if b == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: buf[start..<pos]), as: UTF8.self)
                pos += 1
                return s
            }
            if b == UInt8(ascii: "\\") { return try parseEscapedString(quote: quote, start: start) }
            if b < 0x20 { throw controlCharacter() }
            if b < 0x80 { pos += 1 } else { try skipUTF8Scalar() }
        }
        throw unterminated(quote)
    }

    /// The slow path, from the first backslash on: the text is rebuilt in `scratch`.
    private mutating func parseEscapedString(quote: Int, start: Int) throws(Diagnostic) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: buf[start..<pos])
        while pos < end {
            let b = buf[pos]
            if b == UInt8(ascii: "\"") {
                pos += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if b == UInt8(ascii: "\\") {
                try parseEscape(quote: quote)
            } else if b < 0x20 {
                throw controlCharacter()
            } else if b < 0x80 {
                scratch.append(b)
                pos += 1
            } else {
                let s = pos
                try skipUTF8Scalar()
                scratch.append(contentsOf: buf[s..<pos])
            }
        }
        throw unterminated(quote)
    }

    private mutating func parseEscape(quote: Int) throws(Diagnostic) {
        let at = pos
        pos += 1
        guard pos < end else { throw unterminated(quote) }
        let c = buf[pos]
        pos += 1
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(c)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try hex4(escapeAt: at)
            var scalar = UInt32(unit)
            if (0xD800...0xDBFF).contains(unit) {
                // A high surrogate is only valid as the first half of a \uD8xx\uDCxx pair.
                guard end - pos >= 6, buf[pos] == UInt8(ascii: "\\"), buf[pos + 1] == UInt8(ascii: "u") else {
                    throw loneSurrogate(at: at, unit: unit)
                }
                let secondAt = pos
                pos += 2
                let low = try hex4(escapeAt: secondAt)
                guard (0xDC00...0xDFFF).contains(low) else { throw loneSurrogate(at: at, unit: unit) }
                scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw loneSurrogate(at: at, unit: unit)
            }
            appendUTF8(scalar)
        default:
            let width = 1 + scalarWidth(at: at + 1)
            throw Diagnostic(
                .json.string,
                "invalid escape sequence: expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX",
                at: SourceRange(offset: at, length: width))
        }
    }

    private mutating func hex4(escapeAt at: Int) throws(Diagnostic) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard pos < end, let d = hexValue(buf[pos]) else {
                throw Diagnostic(
                    .json.string, "expected 4 hexadecimal digits after '\\u'",
                    at: SourceRange(offset: at, length: pos - at + (pos < end ? 1 : 0)))
            }
            unit = unit << 4 | UInt16(d)
            pos += 1
        }
        return unit
    }

    private func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - 48
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - 87
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - 55
        default: return nil
        }
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Steps over one multi-byte UTF-8 scalar, rejecting what Unicode's table 3-7 rejects:
    /// overlong forms, surrogates, values above U+10FFFF, bad or missing continuation bytes.
    private mutating func skipUTF8Scalar() throws(Diagnostic) {
        let width = utf8Width(at: pos)
        guard width > 0 else {
            let bad = firstInvalidUTF8Byte(at: pos) ?? pos
            throw Diagnostic(
                .json.utf8,
                "invalid UTF-8: unexpected byte 0x\(hexByte(buf[bad]))",
                at: SourceRange(offset: bad, length: 1))
        }
        pos += width
    }

    /// The length of the valid UTF-8 scalar at `i`, or 0 when it is not valid.
    func utf8Width(at i: Int) -> Int {
        if buf[i] < 0x80 { return 1 }
        guard let lead = Self.utf8Lead(buf[i]), firstInvalidUTF8Byte(at: i) == nil else { return 0 }
        return lead.need + 1
    }

    /// Where the multi-byte sequence starting at `i` goes wrong: the lead byte itself (not a
    /// lead byte, or the input ends too early) or the first continuation byte that does not
    /// fit; nil when the sequence is valid.
    private func firstInvalidUTF8Byte(at i: Int) -> Int? {
        guard let lead = Self.utf8Lead(buf[i]) else { return i }
        guard end - i > lead.need else { return i }
        if !(lead.lo...lead.hi).contains(buf[i + 1]) { return i + 1 }
        for k in stride(from: 2, through: lead.need, by: 1) where buf[i + k] & 0xC0 != 0x80 { return i + k }
        return nil
    }

    /// For a lead byte: how many continuation bytes follow and the range of the first one
    /// (narrowed to exclude overlong forms, surrogates and values above U+10FFFF).
    private static func utf8Lead(_ b0: UInt8) -> (need: Int, lo: UInt8, hi: UInt8)? {
        switch b0 {
        case 0xC2...0xDF: return (1, 0x80, 0xBF)
        case 0xE0: return (2, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: return (2, 0x80, 0xBF)
        case 0xED: return (2, 0x80, 0x9F)
        case 0xF0: return (3, 0x90, 0xBF)
        case 0xF1...0xF3: return (3, 0x80, 0xBF)
        case 0xF4: return (3, 0x80, 0x8F)
        default: return nil
        }
    }

    private func scalarWidth(at i: Int) -> Int {
        guard i < end else { return 0 }
        return max(1, utf8Width(at: i))
    }

    // MARK: Diagnostics

    private func controlCharacter() -> Diagnostic {
        let b = buf[pos]
        let what =
            b == 0x0A
            ? "a line break must be written \\n inside a string"
            : b == 0x09
                ? "a tab must be written \\t inside a string"
                : "the control character U+\(hex4Digits(UInt32(b))) must be escaped inside a string"
        return Diagnostic(.json.string, what, at: SourceRange(offset: pos, length: 1))
    }

    private func unterminated(_ quote: Int) -> Diagnostic {
        Diagnostic(
            .json.string, "unterminated string: expected a closing '\"' before the end of the input",
            at: SourceRange(offset: quote, length: 1))
    }

    private func loneSurrogate(at: Int, unit: UInt16) -> Diagnostic {
        let which =
            unit < 0xDC00
            ? "a high surrogate must be followed by a low surrogate escape \\uDC00-\\uDFFF"
            : "a low surrogate must follow a high surrogate escape \\uD800-\\uDBFF"
        return Diagnostic(
            .json.string, "lone surrogate \\u\(hex4Digits(UInt32(unit))): \(which)",
            at: SourceRange(offset: at, length: 6))
    }

    func unexpected(_ expectation: String, note: String = "") -> Diagnostic {
        Diagnostic(.json.syntax, "expected \(expectation) but found \(describeFound())\(note)", at: foundRange())
    }

    /// The token at `pos`, as a reader would name it.
    func describeFound() -> String {
        guard pos < end else { return "the end of the input" }
        let b = buf[pos]
        if isWordByte(b) {
            return "'\(String(decoding: UnsafeBufferPointer(rebasing: buf[pos..<wordEnd()]), as: UTF8.self))'"
        }
        switch b {
        case UInt8(ascii: "/"): return "'/' (JSON has no comments)"
        case UInt8(ascii: "'"): return "a single quote (JSON strings use double quotes)"
        case 0..<0x20, 0x7F: return "the control character U+\(hex4Digits(UInt32(b)))"
        case 0x20..<0x7F: return "'\(Character(Unicode.Scalar(b)))'"
        default:
            let width = utf8Width(at: pos)
            guard width > 0 else { return "the invalid UTF-8 byte 0x\(hexByte(b))" }
            let s = String(decoding: UnsafeBufferPointer(rebasing: buf[pos..<pos + width]), as: UTF8.self)
            let scalar = s.unicodeScalars.first?.value ?? 0
            return "'\(s)' (U+\(hex4Digits(scalar)))"
        }
    }

    /// The range of the token `describeFound` names.
    func foundRange() -> SourceRange {
        guard pos < end else { return SourceRange(offset: pos, length: 0) }
        if isWordByte(buf[pos]) { return SourceRange(offset: pos, length: wordEnd() - pos) }
        return SourceRange(offset: pos, length: max(1, utf8Width(at: pos)))
    }

    private func isWordByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"):
            return true
        default:
            return false
        }
    }

    private func wordEnd() -> Int {
        var e = pos
        while e < end && e - pos < 24 && isWordByte(buf[e]) { e += 1 }
        return e
    }
}

func hexByte(_ b: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(b >> 4)], digits[Int(b & 0xF)]])
}

func hex4Digits(_ v: UInt32) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return s.count >= 4 ? s : String(repeating: "0", count: 4 - s.count) + s
}
