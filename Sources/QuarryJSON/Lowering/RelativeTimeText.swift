/// Parse's `$relativeTime` strings: `now`, `in 2 days`, `3 hours 20 minutes ago`.
///
/// Units (singular, plural and short forms, case-insensitive): years (365 days), weeks, days,
/// hours, minutes, seconds — as parse-server accepts them. The decoder checks the text here
/// so that a typo is reported where it is written; the engine resolves it against its clock.
enum RelativeTimeText {
    /// The signed offset from now in milliseconds, or a message saying what is wrong.
    static func offsetMilliseconds(_ text: String) -> Result<Int64, Failure> {
        let words = text.lowercased().split(whereSeparator: { $0 == " " }).map(String.init)
        if words == ["now"] { return .success(0) }
        let future = words.first == "in"
        let past = words.last == "ago"
        if !future && !past {
            return .failure(Failure("a relative time starts with 'in' or ends with 'ago' (or is 'now')"))
        }
        if future && past { return .failure(Failure("a relative time cannot have both 'in' and 'ago'")) }
        let pairs = future ? Array(words.dropFirst()) : Array(words.dropLast())
        if pairs.isEmpty || pairs.count % 2 != 0 {
            return .failure(Failure("expected number-unit pairs such as '2 days' but found '\(text)'"))
        }
        var seconds: Int64 = 0
        var i = 0
        while i < pairs.count {
            guard let n = Int64(pairs[i]) else {
                return .failure(Failure("'\(pairs[i])' is not an integer"))
            }
            guard let unit = unitSeconds[pairs[i + 1]] else {
                return .failure(Failure("unknown time unit '\(pairs[i + 1])'; expected years, weeks, "
                                        + "days, hours, minutes or seconds"))
            }
            let (product, o1) = n.multipliedReportingOverflow(by: unit)
            let (sum, o2) = seconds.addingReportingOverflow(product)
            if o1 || o2 { return .failure(Failure("the relative time '\(text)' is out of range")) }
            seconds = sum
            i += 2
        }
        let (ms, overflow) = seconds.multipliedReportingOverflow(by: future ? 1000 : -1000)
        if overflow { return .failure(Failure("the relative time '\(text)' is out of range")) }
        return .success(ms)
    }

    struct Failure: Error, Equatable {
        var message: String
        init(_ message: String) { self.message = message }
    }

    private static let unitSeconds: [String: Int64] = {
        var table: [String: Int64] = [:]
        for name in ["yr", "yrs", "year", "years"] { table[name] = 31_536_000 }
        for name in ["wk", "wks", "week", "weeks"] { table[name] = 604_800 }
        for name in ["d", "day", "days"] { table[name] = 86_400 }
        for name in ["hr", "hrs", "hour", "hours"] { table[name] = 3_600 }
        for name in ["min", "mins", "minute", "minutes"] { table[name] = 60 }
        for name in ["sec", "secs", "second", "seconds"] { table[name] = 1 }
        return table
    }()
}
