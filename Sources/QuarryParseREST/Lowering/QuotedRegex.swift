/// The `\Q…\E` regexes Parse SDKs send for `hasPrefix`, `hasSuffix` and `containsString`.
///
/// The SDKs quote the text so that regex metacharacters in it are literal, and close and reopen
/// the quote around a literal `\E`: `a\Eb` is sent as `\Qa\E\\E\Qb\E`. The decoder recognises
/// exactly these shapes and lowers them to the IR's clearer `beginsWith` / `endsWith` /
/// `contains`; every other pattern stays a regex. The encoder writes the same shapes, so both
/// JSON → IR → JSON and IR → JSON → IR round trip.
///
/// One deliberate difference: PCRE's `$` also matches before a final newline, so the regex
/// `\Qabc\E$` matches "abc\n" while `endsWith "abc"` does not. We keep the SDK's intent
/// (a suffix test).
enum QuotedRegex {
    enum Shape: Equatable {
        case prefix, suffix, contains
    }

    /// The regex for a literal test, as the Parse SDKs write it.
    static func pattern(_ shape: Shape, _ literal: String) -> String {
        let quoted = "\\Q" + literal.replacing("\\E", with: "\\E\\\\E\\Q") + "\\E"
        switch shape {
        case .prefix: return "^" + quoted
        case .suffix: return quoted + "$"
        case .contains: return quoted
        }
    }

    /// The shape and literal text of a quoted pattern, or nil when the pattern is any other regex.
    static func parse(_ pattern: String) -> (Shape, String)? {
        let b = Array(pattern.utf8)
        var i = 0
        let anchoredStart = b.first == UInt8(ascii: "^")
        if anchoredStart { i = 1 }
        // Only patterns that start with a quote are the SDKs' literal tests.
        guard starts(b, at: i, with: quoteOpen) else { return nil }
        var literal: [UInt8] = []
        var anchoredEnd = false
        while i < b.count {
            if starts(b, at: i, with: quoteOpen) {
                guard let close = find(b, quoteClose, from: i + 2) else { return nil }
                literal += b[(i + 2)..<close]
                i = close + 2
            } else if b[i] == backslash, i + 1 < b.count, isPunctuation(b[i + 1]) {
                literal.append(b[i + 1])
                i += 2
            } else if b[i] == UInt8(ascii: "$"), i == b.count - 1 {
                anchoredEnd = true
                i += 1
            } else if isWordByte(b[i]) {
                literal.append(b[i])
                i += 1
            } else {
                return nil
            }
        }
        let text = String(decoding: literal, as: UTF8.self)
        switch (anchoredStart, anchoredEnd) {
        case (true, false): return (.prefix, text)
        case (false, true): return (.suffix, text)
        case (false, false): return (.contains, text)
        case (true, true): return nil
        }
    }

    private static let backslash = UInt8(ascii: "\\")
    private static let quoteOpen: [UInt8] = [backslash, UInt8(ascii: "Q")]
    private static let quoteClose: [UInt8] = [backslash, UInt8(ascii: "E")]

    private static func starts(_ b: [UInt8], at i: Int, with p: [UInt8]) -> Bool {
        i + p.count <= b.count && b[i..<(i + p.count)].elementsEqual(p)
    }

    private static func find(_ b: [UInt8], _ p: [UInt8], from start: Int) -> Int? {
        var i = start
        while i + p.count <= b.count {
            if b[i..<(i + p.count)].elementsEqual(p) { return i }
            i += 1
        }
        return nil
    }

    /// ASCII punctuation: a backslash before it means the character itself in PCRE.
    private static func isPunctuation(_ c: UInt8) -> Bool {
        (0x21...0x7E).contains(c) && !isWordByte(c)
    }

    /// Letters, digits and `_`: literal outside a quote.
    private static func isWordByte(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F
    }
}
