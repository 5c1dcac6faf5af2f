/// Why a `$relativeTime` string was refused. `message` is parse-server's wording (a Parse
/// front-end reports it as "bad $relativeTime ($gt) value. <message>").
public struct RelativeTimeError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// Neither starts with `in` nor ends with `ago` (and is not `now`).
        case noDirection
        /// Starts with `in` and ends with `ago`.
        case bothDirections
        /// An odd number of words between `in`/`ago`.
        case danglingUnitOrNumber
        case notAnInteger
        case invalidInterval
        /// The offset is beyond ±8.64e15 ms, the range of an ECMAScript date (Quarry's addition;
        /// parse-server would build an invalid Date).
        case outOfRange
    }

    public let kind: Kind
    public let message: String
    /// The UTF-8 byte range of the offending word in the text, when one word is at fault.
    public let range: SourceRange?

    public var description: String { message }
}

/// Parse's `$relativeTime` phrases (`"in 2 days"`, `"3 hours ago"`, `"now"`), with
/// parse-server's semantics:
///
/// - the text is lowercased and split on spaces (only U+0020; runs of spaces are fine);
/// - it must start with `in` (future) or end with `ago` (past), not both, or be exactly `now`;
/// - between them come number/unit pairs, summed: `in 1 day 2 hours`;
/// - numbers are integers, possibly signed (`in -2 days` is two days ago); units are
///   `yr yrs year years` (365 days), `wk wks week weeks`, `d day days`, `hr hrs hour hours`,
///   `min mins minute minutes`, `sec secs second seconds`. There are no months;
/// - `in` or `ago` with no pairs at all means now, as in parse-server.
///
/// Quarry reads numbers in decimal notation only (`2`, `+2`, `2.0`); JavaScript's `Number`
/// would also take `1e3` or `0x10`.
public enum RelativeTime {
    /// ECMAScript's largest time value; offsets beyond it cannot be a date.
    static let maxOffsetMillis: Int64 = 8_640_000_000_000_000

    /// The signed offset from now in milliseconds (future positive), or why the text is wrong.
    /// Callers add it to their clock; its magnitude is at most 8.64e15, so that cannot overflow.
    public static func parse(_ text: String) -> Result<Int64, RelativeTimeError> {
        DateScanner.scan(text) { parse($0.bytes) }
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Int64, RelativeTimeError> {
        var words: [Range<Int>] = []
        var start = 0
        for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x20 {
            if i > start { words.append(start..<i) }
            start = i + 1
        }
        func word(_ r: Range<Int>) -> String { String(decoding: bytes[r], as: UTF8.self).lowercased() }
        func fail(_ kind: RelativeTimeError.Kind, _ message: String, _ r: Range<Int>? = nil)
            -> Result<Int64, RelativeTimeError>
        {
            .failure(
                RelativeTimeError(
                    kind: kind, message: message,
                    range: r.map { SourceRange(offset: $0.lowerBound, length: $0.count) }))
        }
        func isWord(_ r: Range<Int>?, _ lowercase: StaticString) -> Bool {
            guard let r, r.count == lowercase.utf8CodeUnitCount else { return false }
            return zip(bytes[r], UnsafeBufferPointer(start: lowercase.utf8Start, count: r.count))
                .allSatisfy { DateScanner.lower($0) == $1 }
        }

        // Only the exact text "now" (any case, no surrounding spaces) is the present.
        let isNow = isWord(0..<bytes.count, "now")
        let future = isWord(words.first, "in")
        let past = isWord(words.last, "ago")
        if !future && !past {
            if isNow { return .success(0) }
            return fail(.noDirection, "Time should either start with 'in' or end with 'ago'")
        }
        if future && past { return fail(.bothDirections, "Time cannot have both 'in' and 'ago'") }
        let pairs = future ? words.dropFirst() : words.dropLast()
        if pairs.count % 2 != 0 {
            return fail(.danglingUnitOrNumber, "Invalid time string. Dangling unit or number.", pairs.last)
        }

        var total: Int64 = 0
        var k = pairs.startIndex
        while k < pairs.endIndex {
            let numberWord = pairs[k], unitWord = pairs[k + 1]
            k += 2
            let value: Int64
            switch integer(bytes[numberWord]) {
            case .value(let v): value = v
            case .tooLarge: return fail(.outOfRange, "Time offset is out of range.", numberWord)
            case .invalid: return fail(.notAnInteger, "'\(word(numberWord))' is not an integer.", numberWord)
            }
            guard let unit = unitMillis(bytes[unitWord]) else {
                return fail(.invalidInterval, "Invalid interval: '\(word(unitWord))'", unitWord)
            }
            let (product, overflow) = value.multipliedReportingOverflow(by: unit)
            let (sum, overflow2) = total.addingReportingOverflow(product)
            guard !overflow, !overflow2, sum.magnitude <= UInt64(maxOffsetMillis) else {
                return fail(.outOfRange, "Time offset is out of range.", numberWord)
            }
            total = sum
        }
        return .success(future ? total : -total)
    }

    private enum Integer { case value(Int64), tooLarge, invalid }

    /// An optionally signed decimal integer; a fraction is allowed only if it is all zeros
    /// (`2.0`, `2.`), as JavaScript's `Number.isInteger(Number(s))` would accept.
    private static func integer(_ word: Slice<UnsafeBufferPointer<UInt8>>) -> Integer {
        var i = word.startIndex
        var negative = false
        if i < word.endIndex, word[i] == 0x2B || word[i] == 0x2D { negative = word[i] == 0x2D; i += 1 }
        var value: Int64 = 0
        var digits = 0
        var overflow = false
        while i < word.endIndex, DateScanner.isDigit(word[i]) {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = times10.addingReportingOverflow(Int64(word[i] - 0x30))
            overflow = overflow || o1 || o2
            value = next
            digits += 1
            i += 1
        }
        if i < word.endIndex, word[i] == 0x2E {
            i += 1
            while i < word.endIndex, word[i] == 0x30 { digits += 1; i += 1 }
        }
        guard digits > 0, i == word.endIndex else { return .invalid }
        if overflow { return .tooLarge }
        return .value(negative ? -value : value)
    }

    /// Milliseconds in one of the unit spellings parse-server accepts (any case).
    private static func unitMillis(_ word: Slice<UnsafeBufferPointer<UInt8>>) -> Int64? {
        let lowered = String(decoding: word.map(DateScanner.lower), as: UTF8.self)
        switch lowered {
        case "yr", "yrs", "year", "years": return 365 * CivilDate.msPerDay
        case "wk", "wks", "week", "weeks": return 7 * CivilDate.msPerDay
        case "d", "day", "days": return CivilDate.msPerDay
        case "hr", "hrs", "hour", "hours": return CivilDate.msPerHour
        case "min", "mins", "minute", "minutes": return CivilDate.msPerMinute
        case "sec", "secs", "second", "seconds": return CivilDate.msPerSecond
        default: return nil
        }
    }
}
