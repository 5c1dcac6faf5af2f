/// Date strings as Backendless reads them in where clauses ("Using Dates in Search").
///
/// The 33 documented java.text.SimpleDateFormat patterns are tried in the documented order,
/// and the first that matches the WHOLE string wins (Java ignores trailing text; Quarry does
/// not). Matching is strict (see `DatePattern`): no month 13 rolling into next year. Strings
/// without a zone are UTC. `'Z'` in `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'` is a literal letter.
///
/// Two extra forms, tried only after all 33 fail, because the guide's own examples need them:
/// - day-first twins of the 13 month-first patterns (`28-10-1988` is `dd-MM-yyyy`, also with
///   `/` and `.` and with the time parts). They can only match when the first number is over
///   12, since otherwise the month-first pattern has already matched, so `05-06-2015` is
///   5 June and `28-10-1988` is 28 October;
/// - 8-digit `yyyyMMdd` (`20150323`).
///
/// `yyyy-'W'w` uses ISO-8601 weeks: `2015-W13` is Monday 2015-03-23 (see
/// `DatePattern.isoWeekMonday`).
public enum BackendlessDate {
    /// The 33 patterns of the Backendless guide, in its order.
    static let documentedForms: [String] = [
        "EEE MMM dd HH:mm:ss zzz yyyy",
        "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'",
        "MM/dd/yyyy HH:mm:ss 'GMT'z",
        "MM.dd.yyyy HH:mm:ss 'GMT'z",
        "MM-dd-yyyy HH:mm:ss 'GMT'z",
        "MM/dd/yyyy HH:mm:ss z",
        "MM.dd.yyyy HH:mm:ss z",
        "MM.dd.yyyy HH:mm:ss",
        "MM-dd-yyyy HH:mm:ss",
        "MM/dd/yyyy HH:mm:ss",
        "MM.dd.yyyy",
        "MM-dd-yyyy",
        "MM/dd/yyyy HH:mm:ss 'GMT'Z",
        "MM/dd/yyyy HH:mm",
        "MM/dd/yyyy",
        "dd/MMM/yyyy",
        "dd-MMM-yyyy",
        "EEEEE, d MMMMM yyyy",
        "yyyy/MM/d/HH:mm:ss",
        "yyyy-MM-dd'T'HH:mm:ss",
        "EEEEE, MMMMM d, yyyy",
        "MMMMM d, yyyy",
        "yyyy M d",
        "yyyyMMMd",
        "yyyy-MMM-d",
        "yyyy-M-d, E",
        "'Date' yyyy-MM-dd",
        "yyyy-MM-dd'T'HH:mm:ssZ",
        "yyyy-MM-dd'T'HH:mmZ",
        "yyyy-MM-dd",
        "yyyy-'W'w",
        "yyyy-DDD",
        "d MMMMM yyyy, HH'h' mm'm' ss's'",
    ]

    /// Every pattern `parse` tries, in order: the 33 documented ones, then the day-first twins
    /// of the `MM?dd?yyyy…` ones, then `yyyyMMdd`. Diagnostics name these as the accepted forms.
    public static let acceptedForms: [String] =
        documentedForms
        + documentedForms.compactMap(dayFirstTwin) + ["yyyyMMdd"]

    /// `MM-dd-yyyy…` → `dd-MM-yyyy…` (same separator and tail); nil for other patterns.
    private static func dayFirstTwin(_ pattern: String) -> String? {
        guard let separator = pattern.dropFirst(2).first,
            pattern.hasPrefix("MM\(separator)dd\(separator)yyyy")
        else { return nil }
        return "dd\(separator)MM" + pattern.dropFirst(5)
    }

    static let patterns: [DatePattern] = acceptedForms.compactMap(DatePattern.init)

    /// Epoch milliseconds of a Backendless date string, or nil if it is in none of the forms.
    public static func parse(_ text: String) -> Int64? {
        canonical(text) ?? match(text)?.ms
    }

    /// `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'` (the form Parse and Backendless write), read by
    /// `ISODate` from the bytes; nil for any other string, or a value of that shape `ISODate`
    /// rejects, which the patterns then read. Only the second pattern can read this shape (the
    /// first starts with a day's name), and it reads what `ISODate` does: trying the patterns
    /// in turn was most of rebinding a date literal.
    static func canonical(_ text: String) -> Int64? {
        let found = text.utf8.withContiguousStorageIfAvailable { canonical(utf8: $0) }
        return found ?? nil
    }

    /// `canonical` over a string's UTF-8 bytes (a text template reads a date literal's bytes
    /// without making a string of them).
    package static func canonical(utf8 b: UnsafeBufferPointer<UInt8>) -> Int64? {
        // Of 24 bytes with these two, ISODate reads only that form.
        guard b.count == 24, b[19] == UInt8(ascii: "."), b[23] == UInt8(ascii: "Z") else { return nil }
        return ISODate.parse(utf8: b)
    }

    /// The instant and the index in `acceptedForms` of the pattern that read it.
    static func match(_ text: String) -> (ms: Int64, form: Int)? {
        DateScanner.scan(text) { s in
            for (form, pattern) in patterns.enumerated() {
                s.index = 0
                if let ms = pattern.match(&s) { return (ms, form) }
            }
            return nil
        }
    }
}
