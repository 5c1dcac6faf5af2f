/// A forward reader over the UTF-8 bytes of a date string, shared by the date parsers.
///
/// Only valid inside `DateScanner.scan`, which lends it the string's contiguous bytes without
/// copying. Failed reads leave the position where it was, so callers can try alternatives.
struct DateScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    /// Runs `body` over the UTF-8 bytes of `text` (copying only if the string is not contiguous).
    static func scan<R>(_ text: String, _ body: (inout DateScanner) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable({ buffer -> R in
            var scanner = DateScanner(bytes: buffer)
            return body(&scanner)
        }) {
            return result
        }
        return Array(text.utf8).withUnsafeBufferPointer { buffer in
            var scanner = DateScanner(bytes: buffer)
            return body(&scanner)
        }
    }

    var atEnd: Bool { index >= bytes.count }

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Consumes `byte` if it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Consumes `literal` (ASCII) if it is next, ignoring ASCII case when asked.
    mutating func take(_ literal: [UInt8], ignoringCase: Bool = false) -> Bool {
        guard bytes.count - index >= literal.count else { return false }
        for (k, expected) in literal.enumerated() {
            let actual = bytes[index + k]
            if ignoringCase ? Self.lower(actual) != Self.lower(expected) : actual != expected {
                return false
            }
        }
        index += literal.count
        return true
    }

    /// Consumes between `min` and `max` ASCII digits (as many as there are, up to `max`) and
    /// returns their value; nil (and nothing consumed) if fewer than `min` are there.
    /// `max` must be at most 18 so the value fits an Int64.
    mutating func digits(min: Int, max: Int) -> Int64? {
        var value: Int64 = 0
        var count = 0
        while count < max, index + count < bytes.count {
            let b = bytes[index + count]
            guard b >= 0x30, b <= 0x39 else { break }
            value = value * 10 + Int64(b - 0x30)
            count += 1
        }
        guard count >= min else { return nil }
        index += count
        return value
    }

    /// Consumes exactly `count` ASCII digits (a longer run is left to the next token to reject).
    mutating func digits(exactly count: Int) -> Int64? {
        digits(min: count, max: count)
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }

    static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
}
