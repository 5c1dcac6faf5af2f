/// Decimal numbers read from their bytes as `Double(String)` reads them, bit for bit.
package enum DecimalText {
    /// `Double(text)` for the text of `bytes`: `exact` where it answers, `Double(String)` for
    /// everything else (exponents, longer digit runs, other spellings).
    package static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        exact(bytes) ?? Double(String(decoding: bytes, as: UTF8.self))
    }

    /// A plain decimal (`-97.2`, `3`, `0.125`, an optional sign, digits on both sides of any
    /// point) whose digits form an integer up to 2^53 with at most 22 after the point, by
    /// `ExactDecimal`; nil for any other text, which the caller parses.
    package static func exact(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        var negative = false
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var fraction = 0
        var point = false
        while i < bytes.count {
            let b = bytes[i]
            if b &- 0x30 < 10 {
                // 19 digits cannot overflow; ExactDecimal refuses what is beyond 2^53.
                guard digits < 19 else { return nil }
                mantissa = mantissa * 10 + UInt64(b &- 0x30)
                digits += 1
                if point { fraction += 1 }
            } else if b == UInt8(ascii: "."), !point {
                point = true
            } else {
                return nil
            }
            i += 1
        }
        guard digits > 0, !point || fraction > 0 else { return nil }
        return ExactDecimal.value(mantissa: mantissa, exponent: -fraction, negative: negative)
    }
}
