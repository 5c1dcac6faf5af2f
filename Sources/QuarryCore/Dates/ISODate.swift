/// ISO-8601 date-times as Parse writes them (`2015-03-23T00:00:00.000Z`), as epoch milliseconds.
///
/// Accepted by `parse` (strict; years 0000-9999; the whole string must match):
///
///     yyyy-MM-dd                              midnight UTC
///     yyyy-MM-ddTHH:mm[:ss[.f…]][zone]        f: 1-9 digits, kept to the millisecond (truncated)
///     zone: Z | ±hh:mm | ±hhmm                absent: UTC
///
/// Seconds may be left out and a zone-less date-time is UTC, as in the ECMAScript date-time
/// string format that parse-server hands to `new Date(…)` (Quarry reads every zone-less date as
/// UTC). Out-of-range fields (`2015-02-30`, hour 24, minute 60, leap second 60) are rejected
/// rather than rolled over.
public enum ISODate {
    /// Epoch milliseconds of an ISO-8601 string, or nil if it is not one.
    public static func parse(_ text: String) -> Int64? {
        DateScanner.scan(text) { s in
            guard let ms = parse(&s), s.atEnd else { return nil }
            return ms
        }
    }

    /// `parse` over a string's UTF-8 bytes.
    public static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var s = DateScanner(bytes: bytes)
        guard let ms = parse(&s), s.atEnd else { return nil }
        return ms
    }

    /// Reads an ISO-8601 date or date-time at the scanner's position (no check for the end).
    static func parse(_ s: inout DateScanner) -> Int64? {
        guard let year = s.digits(exactly: 4), s.take(UInt8(ascii: "-")),
            let month = s.digits(exactly: 2), s.take(UInt8(ascii: "-")),
            let day = s.digits(exactly: 2),
            CivilDate.isValid(year: year, month: Int(month), day: Int(day))
        else { return nil }
        let midnight = CivilDate.epochMillis(year: year, month: Int(month), day: Int(day))
        guard s.take(UInt8(ascii: "T")) else { return midnight }

        guard let hour = s.digits(exactly: 2), hour <= 23, s.take(UInt8(ascii: ":")),
            let minute = s.digits(exactly: 2), minute <= 59
        else { return nil }
        var second: Int64 = 0, millisecond: Int64 = 0
        if s.take(UInt8(ascii: ":")) {
            guard let sec = s.digits(exactly: 2), sec <= 59 else { return nil }
            second = sec
            if s.take(UInt8(ascii: ".")) {
                guard let ms = fractionMillis(&s) else { return nil }
                millisecond = ms
            }
        }
        guard let offset = zoneOffsetMillis(&s) else { return nil }
        return midnight + hour * CivilDate.msPerHour + minute * CivilDate.msPerMinute
            + second * CivilDate.msPerSecond + millisecond - offset
    }

    /// 1-9 fraction digits as whole milliseconds (digits past the third are truncated).
    private static func fractionMillis(_ s: inout DateScanner) -> Int64? {
        let start = s.index
        guard let value = s.digits(min: 1, max: 9) else { return nil }
        if let next = s.peek, DateScanner.isDigit(next) { return nil }  // more than 9 digits
        var ms = value
        var count = s.index - start
        while count < 3 { ms *= 10; count += 1 }
        while count > 3 { ms /= 10; count -= 1 }
        return ms
    }

    /// The zone designator's offset east of UTC in ms: `Z`, `±hh:mm`, `±hhmm`, or none (UTC).
    private static func zoneOffsetMillis(_ s: inout DateScanner) -> Int64? {
        if s.atEnd { return 0 }
        if s.take(UInt8(ascii: "Z")) { return 0 }
        return numericOffsetMillis(&s)
    }

    /// `±hh:mm` or `±hhmm` (hours 0-23, minutes 0-59) as ms east of UTC.
    static func numericOffsetMillis(_ s: inout DateScanner) -> Int64? {
        let start = s.index
        let sign: Int64
        if s.take(UInt8(ascii: "+")) {
            sign = 1
        } else if s.take(UInt8(ascii: "-")) {
            sign = -1
        } else {
            return nil
        }
        guard let hours = s.digits(exactly: 2), hours <= 23 else { s.index = start; return nil }
        _ = s.take(UInt8(ascii: ":"))
        guard let minutes = s.digits(exactly: 2), minutes <= 59 else { s.index = start; return nil }
        return sign * (hours * CivilDate.msPerHour + minutes * CivilDate.msPerMinute)
    }

    /// `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC. Years outside 0000-9999 (which no parser here reads
    /// back) use the ECMAScript extended form, a sign and at least six digits.
    public static func format(_ ms: Int64) -> String {
        // Floor division, written so that Int64.min cannot overflow: msOfDay is 0 ..< msPerDay
        // also before 1970.
        let remainder = ms % CivilDate.msPerDay
        let days = ms / CivilDate.msPerDay - (remainder < 0 ? 1 : 0)
        let msOfDay = remainder < 0 ? remainder + CivilDate.msPerDay : remainder
        let (year, month, day) = CivilDate.civil(fromDays: days)

        var out: [UInt8] = []
        out.reserveCapacity(27)
        // Zero-padded decimal, most significant digit first, without temporaries.
        func append(_ value: Int64, width: Int) {
            var scale: Int64 = 1, digits = 1
            while digits < width || value / scale >= 10 { scale *= 10; digits += 1 }
            while scale > 0 {
                out.append(UInt8(truncatingIfNeeded: value / scale % 10) + 0x30)
                scale /= 10
            }
        }
        if year >= 0 && year <= 9999 {
            append(year, width: 4)
        } else {
            out.append(year < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            append(abs(year), width: 6)
        }
        out.append(UInt8(ascii: "-")); append(Int64(month), width: 2)
        out.append(UInt8(ascii: "-")); append(Int64(day), width: 2)
        out.append(UInt8(ascii: "T")); append(msOfDay / CivilDate.msPerHour, width: 2)
        out.append(UInt8(ascii: ":")); append(msOfDay / CivilDate.msPerMinute % 60, width: 2)
        out.append(UInt8(ascii: ":")); append(msOfDay / CivilDate.msPerSecond % 60, width: 2)
        out.append(UInt8(ascii: ".")); append(msOfDay % 1000, width: 3)
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }
}
