/// Clinger's fast path from a decimal's digits to a double: when the digits form an integer up
/// to 2^53 and the power of ten is within ±22, both are exact doubles, so one multiplication or
/// division rounds correctly. Shared by the JSON reader, the stores' record reader and the
/// where-clause readers (`DecimalText`).
package enum ExactDecimal {
    /// `mantissa × 10^exponent`, negated when `negative`; nil outside the fast path's range
    /// (parse the text instead).
    package static func value(mantissa: UInt64, exponent: Int, negative: Bool) -> Double? {
        guard mantissa <= 1 << 53, exponent >= -22, exponent <= 22 else { return nil }
        let m = Double(mantissa)
        let magnitude = exponent < 0 ? m / powersOf10[-exponent] : m * powersOf10[exponent]
        return negative ? -magnitude : magnitude
    }

    /// 10^0 ... 10^22: every one is exactly representable as a double.
    private static let powersOf10: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
