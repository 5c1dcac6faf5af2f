// Byte- and scalar-level character classes shared by the lexer and the printer, so that what
// the printer writes unquoted is exactly what the lexer reads back as one identifier.

enum CharacterClasses {
    /// Decodes the scalar starting at `i` of valid UTF-8 (the bytes come from a Swift String).
    @inline(__always)
    static func scalar(in bytes: [UInt8], at i: Int) -> (Unicode.Scalar, length: Int) {
        let b0 = UInt32(bytes[i])
        let length: Int
        var value: UInt32
        if b0 < 0x80 {
            return (Unicode.Scalar(UInt8(b0)), 1)
        } else if b0 < 0xE0 {
            length = 2; value = b0 & 0x1F
        } else if b0 < 0xF0 {
            length = 3; value = b0 & 0x0F
        } else {
            length = 4; value = b0 & 0x07
        }
        var j = 1
        while j < length, i + j < bytes.count {
            value = value << 6 | UInt32(bytes[i + j] & 0x3F)
            j += 1
        }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", j)
    }

    static func isWhitespace(_ s: Unicode.Scalar) -> Bool {
        s.properties.isWhitespace
    }

    static func isIdentifierStart(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII {
            let v = s.value
            return (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) || v == 0x5F
        }
        return s.properties.isAlphabetic
    }

    static func isIdentifierContinue(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII { return isIdentifierStart(s) || (s.value >= 0x30 && s.value <= 0x39) }
        switch s.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .decimalNumber: return true
        default: return s.properties.isAlphabetic
        }
    }

    /// Whether `name` reads back as one unquoted identifier that is not a reserved word.
    static func isPlainIdentifier(_ name: String) -> Bool {
        var first = true
        for s in name.unicodeScalars {
            if first ? !isIdentifierStart(s) : !isIdentifierContinue(s) { return false }
            first = false
        }
        return !first && !Keyword.isReserved(name)
    }
}

/// The words the parser reads as keywords where one may stand, matched in any ASCII case
/// (`ıs`, with a dotless i, is not `IS`). The lexer finds each unquoted identifier's word once
/// (`SQLToken.keyword`), so that the parser compares a byte, not text.
enum SQLKeyword: UInt8, CaseIterable {
    // Reserved: a fixed meaning wherever they stand (first, see `isReserved`).
    case and, or, not, `is`, null, like, `in`, between, `true`, `false`
    // Keywords only in the position that expects them (`after`, `distance`… stay column names).
    case after, before, at, escape, distance, within

    /// The word in capitals.
    var spelling: String { String(describing: self).uppercased() }

    var isReserved: Bool { rawValue <= SQLKeyword.false.rawValue }

    /// The keyword `bytes` spell, in any ASCII case.
    init?(_ bytes: some Collection<UInt8>) {
        guard let packed = Self.packed(bytes), let i = Self.words.firstIndex(of: packed) else { return nil }
        // Raw values count up in `allCases` order (`allCases` itself makes an array each time).
        self.init(rawValue: UInt8(i))
    }

    /// Every keyword's spelling packed by `packed`, in `allCases` order.
    private static let words: [UInt64] = allCases.map { packed($0.spelling.utf8)! }

    /// Up to 8 bytes in one integer, ASCII lowercase letters in capitals; nil for a longer or
    /// empty word (no keyword is one).
    private static func packed(_ bytes: some Collection<UInt8>) -> UInt64? {
        guard bytes.count > 0, bytes.count <= 8 else { return nil }
        var word: UInt64 = 0
        var shift: UInt64 = 0
        for b in bytes {
            word |= UInt64(b &- 0x61 < 26 ? b - 0x20 : b) << shift
            shift += 8
        }
        return word
    }
}

/// Names compared as the parser compares keywords.
enum Keyword {
    static func isReserved(_ name: String) -> Bool { SQLKeyword(name.utf8)?.isReserved ?? false }

    /// Whether two names are equal up to ASCII case.
    static func equalsIgnoringCase(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return zip(a.utf8, b.utf8).allSatisfy { x, y in
            x == y || (x | 0x20 == y | 0x20 && x | 0x20 >= 0x61 && x | 0x20 <= 0x7A)
        }
    }
}
