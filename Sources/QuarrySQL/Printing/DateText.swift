/// Epoch milliseconds as `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'`, the guide's second date pattern (UTC).
enum DateText {
    /// The years that pattern writes with four digits.
    static let printableRange: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999

    /// Nil outside years 1–9999, which the pattern cannot spell.
    static func iso(_ ms: Int64) -> String? {
        guard printableRange.contains(ms) else { return nil }
        let (days, msOfDay) = floorDivide(ms, 86_400_000)
        let (y, m, d) = civil(fromDays: days)
        let hour = msOfDay / 3_600_000, minute = msOfDay / 60_000 % 60
        let second = msOfDay / 1000 % 60, milli = msOfDay % 1000
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T" + pad(hour, 2) + ":" + pad(minute, 2)
            + ":" + pad(second, 2) + "." + pad(milli, 3) + "Z"
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b, r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    /// Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's `civil_from_days`).
    private static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    private static func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
