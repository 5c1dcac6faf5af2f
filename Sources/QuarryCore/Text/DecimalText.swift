/// Decimal numbers read from their bytes as `Double(String)` reads them, bit for bit.
package enum DecimalText {
    /// The powers of ten a double holds exactly.
    private static let exactPowers: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { x, _ in x * 10 } }

    /// `Double(text)` for the text of `bytes`. A plain decimal (`-97.2`, `3`, `0.125`) of at
    /// most 15 digits and 22 after the point is its digits as an integer divided by a power of
    /// ten, both exact in a double, so the one rounding of the division is the correctly
    /// rounded value `Double(String)` gives (Clinger's fast path); anything else (exponents,
    /// longer digit runs, other spellings) goes through `Double(String)` itself.
    package static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
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
                mantissa = mantissa &* 10 &+ UInt64(b &- 0x30)
                digits += 1
                if point { fraction += 1 }
            } else if b == UInt8(ascii: "."), !point {
                point = true
            } else {
                break
            }
            i += 1
        }
        guard i == bytes.count, digits > 0, digits <= 15, !point || fraction > 0, fraction <= 22 else {
            return Double(String(decoding: bytes, as: UTF8.self))
        }
        let value = Double(mantissa) / exactPowers[fraction]
        return negative ? -value : value
    }
}
