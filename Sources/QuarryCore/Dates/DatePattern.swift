/// A java.text.SimpleDateFormat pattern compiled once into tokens and matched strictly: the
/// whole string must match, every field must be in range, nothing rolls over.
///
/// Supported letters (enough for the Backendless list): `y` (4 digits), `M`/`MM` (number),
/// `MMM`+ (English month name, full or short), `d`, `D`, `w`, `H`, `m`, `s`, `SSS`
/// (exactly three digits: Java would read `.25` as 25 ms, a silent wrong answer), `E`
/// (English weekday name, full or short, not checked against the date), `z`/`Z` (zone).
/// Quoted text is literal (`''` is a quote); other non-letters are literal.
///
/// Number widths: a field next to another number field (`yyyyMMdd`) takes exactly its letter
/// count of digits, as Java does for abutting fields; otherwise it takes 1 to its natural width
/// (2, or 3 for `D`), so `M` and `MM` both read `3` and `03`. Years are always 4 digits.
/// Unlike Java, there is no leniency about spaces: a literal space matches one space.
struct DatePattern: Sendable {
    enum Field: Sendable { case year, month, day, dayOfYear, weekOfYear, hour, minute, second, millisecond }

    enum Token: Equatable, Sendable {
        case literal([UInt8])
        case number(Field, minDigits: Int, maxDigits: Int)
        case monthName
        case weekdayName
        /// `z`/`Z`: a zone abbreviation, `GMT`, `GMT±hh:mm`, `GMT±hhmm`, or `±hhmm`/`±hh:mm`.
        case zone
        /// `z`/`Z` right after a literal `GMT`: only `±hhmm` or `±hh:mm`.
        case offset
    }

    let source: String
    let tokens: [Token]

    private static let gmt = Array("GMT".utf8)

    /// Compiles `pattern`; nil if it uses a letter or count this matcher does not support.
    init?(_ pattern: String) {
        guard let tokens = Self.compile(Array(pattern.utf8)) else { return nil }
        self.source = pattern
        self.tokens = tokens
    }

    private static func compile(_ p: [UInt8]) -> [Token]? {
        var tokens: [Token] = []
        func appendLiteral(_ bytes: [UInt8]) {
            if case .literal(let previous)? = tokens.last {
                tokens[tokens.count - 1] = .literal(previous + bytes)
            } else {
                tokens.append(.literal(bytes))
            }
        }
        let quote = UInt8(ascii: "'")
        var i = 0
        while i < p.count {
            let c = p[i]
            if c == quote {
                if i + 1 < p.count, p[i + 1] == quote { appendLiteral([quote]); i += 2; continue }
                // Quoted text runs to the next lone quote; a doubled quote inside is one quote.
                var text: [UInt8] = []
                var j = i + 1
                var closed = false
                while j < p.count {
                    if p[j] == quote {
                        if j + 1 < p.count, p[j + 1] == quote { text.append(quote); j += 2; continue }
                        closed = true
                        break
                    }
                    text.append(p[j])
                    j += 1
                }
                guard closed else { return nil }
                appendLiteral(text)
                i = j + 1
                continue
            }
            guard DateScanner.isLetter(c) else { appendLiteral([c]); i += 1; continue }
            var count = 1
            while i + count < p.count, p[i + count] == c { count += 1 }
            i += count
            guard let token = letterToken(c, count) else { return nil }
            tokens.append(token)
        }
        return resolved(tokens)
    }

    private static func letterToken(_ letter: UInt8, _ count: Int) -> Token? {
        func number(_ field: Field, natural: Int) -> Token {
            .number(field, minDigits: 1, maxDigits: Swift.max(count, natural))
        }
        switch letter {
        case UInt8(ascii: "y"): return count >= 3 ? .number(.year, minDigits: 4, maxDigits: 4) : nil
        case UInt8(ascii: "M"): return count >= 3 ? .monthName : number(.month, natural: 2)
        case UInt8(ascii: "d"): return number(.day, natural: 2)
        case UInt8(ascii: "D"): return number(.dayOfYear, natural: 3)
        case UInt8(ascii: "w"): return number(.weekOfYear, natural: 2)
        case UInt8(ascii: "H"): return number(.hour, natural: 2)
        case UInt8(ascii: "m"): return number(.minute, natural: 2)
        case UInt8(ascii: "s"): return number(.second, natural: 2)
        case UInt8(ascii: "S"): return count == 3 ? .number(.millisecond, minDigits: 3, maxDigits: 3) : nil
        case UInt8(ascii: "E"): return .weekdayName
        case UInt8(ascii: "z"), UInt8(ascii: "Z"): return .zone
        default: return nil
        }
    }

    /// Second pass: abutting number fields take exactly their letter count of digits, and a
    /// zone right after a literal `GMT` is just the offset.
    private static func resolved(_ tokens: [Token]) -> [Token] {
        var out = tokens
        func isNumber(_ k: Int) -> Bool {
            guard k >= 0, k < tokens.count, case .number = tokens[k] else { return false }
            return true
        }
        for (k, token) in tokens.enumerated() {
            switch token {
            case .number(let field, _, let maxDigits) where isNumber(k - 1) || isNumber(k + 1):
                out[k] = .number(field, minDigits: maxDigits, maxDigits: maxDigits)
            case .zone:
                if k > 0, case .literal(let text) = tokens[k - 1], text.count >= 3,
                    Array(text.suffix(3)) == gmt
                {
                    out[k] = .offset
                }
            default: break
            }
        }
        return out
    }

    /// The fields a match read; unset ones keep Java's defaults (1970-01-01 00:00 UTC).
    struct Fields {
        var year: Int64 = 1970, month = 1, day = 1
        var dayOfYear: Int?
        var weekOfYear: Int?
        var hour = 0, minute = 0, second = 0, millisecond = 0
        var offsetMillis: Int64 = 0
    }

    /// Epoch ms if the whole of `text` matches this pattern and is a real instant.
    func match(_ text: String) -> Int64? {
        DateScanner.scan(text) { match(&$0) }
    }

    /// Matches from the scanner's position to the end of its bytes.
    func match(_ s: inout DateScanner) -> Int64? {
        var f = Fields()
        for token in tokens {
            switch token {
            case .literal(let bytes):
                guard s.take(bytes) else { return nil }
            case .number(let field, let minDigits, let maxDigits):
                guard let value = s.digits(min: minDigits, max: maxDigits) else { return nil }
                let v = Int(value)
                switch field {
                case .year: f.year = value
                case .month: f.month = v
                case .day: f.day = v
                case .dayOfYear: f.dayOfYear = v
                case .weekOfYear: f.weekOfYear = v
                case .hour: f.hour = v
                case .minute: f.minute = v
                case .second: f.second = v
                case .millisecond: f.millisecond = v
                }
            case .monthName:
                guard let month = DateNames.take(DateNames.months, &s) else { return nil }
                f.month = month + 1
            case .weekdayName:
                guard DateNames.take(DateNames.weekdays, &s) != nil else { return nil }
            case .zone:
                guard let offset = Self.zone(&s) else { return nil }
                f.offsetMillis = offset
            case .offset:
                guard let offset = ISODate.numericOffsetMillis(&s) else { return nil }
                f.offsetMillis = offset
            }
        }
        guard s.atEnd, let day = Self.dayNumber(f),
            f.hour <= 23, f.minute <= 59, f.second <= 59, f.millisecond <= 999
        else { return nil }
        return day * CivilDate.msPerDay + Int64(f.hour) * CivilDate.msPerHour
            + Int64(f.minute) * CivilDate.msPerMinute + Int64(f.second) * CivilDate.msPerSecond
            + Int64(f.millisecond) - f.offsetMillis
    }

    /// `GMT` with an optional offset, a zone abbreviation, or a bare RFC-822 offset.
    private static func zone(_ s: inout DateScanner) -> Int64? {
        if s.take(gmt, ignoringCase: true) {
            guard let next = s.peek, next == UInt8(ascii: "+") || next == UInt8(ascii: "-") else { return 0 }
            return ISODate.numericOffsetMillis(&s)
        }
        return DateNames.takeZoneAbbreviation(&s) ?? ISODate.numericOffsetMillis(&s)
    }

    /// Days since 1970-01-01 of the date the fields name, or nil if it does not exist.
    private static func dayNumber(_ f: Fields) -> Int64? {
        if let dayOfYear = f.dayOfYear {
            let length = CivilDate.isLeapYear(f.year) ? 366 : 365
            guard dayOfYear >= 1, dayOfYear <= length else { return nil }
            return CivilDate.days(year: f.year, month: 1, day: 1) + Int64(dayOfYear - 1)
        }
        if let week = f.weekOfYear { return isoWeekMonday(year: f.year, week: week) }
        guard CivilDate.isValid(year: f.year, month: f.month, day: f.day) else { return nil }
        return CivilDate.days(year: f.year, month: f.month, day: f.day)
    }

    /// The Monday of ISO-8601 week `week` of week-based year `year`.
    ///
    /// Java's `w` follows the locale (US: weeks start on Sunday, week 1 holds 1 January), so
    /// `2015-W13` means a Sunday or a Monday depending on the server. Quarry picks ISO-8601,
    /// the locale-free standard the `yyyy-'W'w` notation comes from: week 1 is the week holding
    /// 4 January, weeks start on Monday, and a year has 52 or 53 weeks.
    static func isoWeekMonday(year: Int64, week: Int) -> Int64? {
        let january4 = CivilDate.days(year: year, month: 1, day: 4)
        let firstMonday = january4 - Int64(CivilDate.isoWeekday(days: january4) - 1)
        // A year has 53 weeks when it starts on a Thursday, or is a leap year starting on a
        // Wednesday (then 31 December is a Thursday).
        let january1Weekday = CivilDate.isoWeekday(days: january4 - 3)
        let weeks = january1Weekday == 4 || (january1Weekday == 3 && CivilDate.isLeapYear(year)) ? 53 : 52
        guard week >= 1, week <= weeks else { return nil }
        return firstMonday + Int64(week - 1) * 7
    }
}
