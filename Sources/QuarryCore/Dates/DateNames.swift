/// The English names SimpleDateFormat-style patterns read: months (`MMM`+), weekdays (`E`),
/// and the time-zone abbreviations accepted by `z`.
enum DateNames {
    /// Full and short month names, January first (lowercase).
    static let months = fullAndShort([
        "january", "february", "march", "april", "may", "june",
        "july", "august", "september", "october", "november", "december",
    ])

    /// Full and short weekday names, Monday first (lowercase).
    static let weekdays = fullAndShort([
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    ])

    private static func fullAndShort(_ names: [String]) -> [(full: [UInt8], short: [UInt8])] {
        names.map { (Array($0.utf8), Array($0.utf8.prefix(3))) }
    }

    /// Time-zone abbreviations and their standing offset in minutes east of UTC.
    ///
    /// Java resolves `z` against every zone name of the locale; Quarry keeps the abbreviations
    /// people actually write in North America and Europe (plus a few Asia-Pacific ones), each
    /// with one unambiguous meaning: `CST` is US Central (as in Java), `IST` is left out
    /// (India, Ireland, Israel). A daylight-saving name (`PDT`) means its own fixed offset,
    /// whatever the date.
    static let zones: [(name: [UInt8], minutes: Int64)] = [
        ("GMT", 0), ("UTC", 0), ("UT", 0), ("WET", 0), ("WEST", 60), ("BST", 60),
        ("CET", 60), ("CEST", 120), ("MET", 60), ("MEST", 120),
        ("EET", 120), ("EEST", 180), ("MSK", 180),
        ("EST", -300), ("EDT", -240), ("CST", -360), ("CDT", -300),
        ("MST", -420), ("MDT", -360), ("PST", -480), ("PDT", -420),
        ("AKST", -540), ("AKDT", -480), ("HST", -600),
        ("JST", 540), ("AEST", 600), ("AEDT", 660),
    ].map { (Array($0.0.utf8), $0.1) }

    /// Reads a full or three-letter name from `names` (case-insensitive) and returns its
    /// 0-based index. The full name is tried first so `March` is not read as `Mar` + `ch`.
    static func take(_ names: [(full: [UInt8], short: [UInt8])], _ s: inout DateScanner) -> Int? {
        for (index, name) in names.enumerated() {
            if s.take(name.full, ignoringCase: true) || s.take(name.short, ignoringCase: true) {
                return index
            }
        }
        return nil
    }

    /// The offset in ms east of UTC of the zone abbreviation that is the whole letter run at
    /// the scanner (so `PSTX` is not `PST`); nil (nothing consumed) if there is none.
    static func takeZoneAbbreviation(_ s: inout DateScanner) -> Int64? {
        var end = s.index
        while end < s.bytes.count, DateScanner.isLetter(s.bytes[end]) { end += 1 }
        let length = end - s.index
        for zone in zones where zone.name.count == length {
            if s.take(zone.name, ignoringCase: true) { return zone.minutes * CivilDate.msPerMinute }
        }
        return nil
    }
}
