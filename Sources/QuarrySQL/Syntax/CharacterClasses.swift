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

/// Words with a fixed meaning wherever they stand; everything else (`after`, `at`, `distance`,
/// `Within`, `ESCAPE`, unit names) is a keyword only in the position that expects it.
enum Keyword {
    static let reserved = ["AND", "OR", "NOT", "IS", "NULL", "LIKE", "IN", "BETWEEN", "TRUE", "FALSE"]

    static func isReserved(_ name: String) -> Bool {
        reserved.contains { equals(name, $0) }
    }

    /// Whether two names are equal up to ASCII case.
    static func equalsIgnoringCase(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return zip(a.utf8, b.utf8).allSatisfy { x, y in
            x == y || (x | 0x20 == y | 0x20 && x | 0x20 >= 0x61 && x | 0x20 <= 0x7A)
        }
    }

    /// Whether `text` is `upperWord` in any ASCII case, without allocating. Keywords match
    /// ASCII case-insensitively only: `ıs` (dotless i) is not `IS`.
    static func equals(_ text: String, _ upperWord: String) -> Bool {
        guard text.utf8.count == upperWord.utf8.count else { return false }
        // Over the two strings' bytes where both are contiguous (native strings always are):
        // iterating two UTF-8 views in step cost a tenth of compiling a short clause.
        let compared = text.utf8.withContiguousStorageIfAvailable { a in
            upperWord.utf8.withContiguousStorageIfAvailable { b in
                for i in 0..<a.count where (a[i] &- 0x61 < 26 ? a[i] - 0x20 : a[i]) != b[i] { return false }
                return true
            }
        }
        if let compared = compared ?? nil { return compared }
        return zip(text.utf8, upperWord.utf8).allSatisfy { a, b in
            (a >= 0x61 && a <= 0x7A ? a - 0x20 : a) == b
        }
    }
}
