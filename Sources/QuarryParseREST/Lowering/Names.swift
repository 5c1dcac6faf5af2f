/// The naming rules parse-server applies to query keys and class names.
enum Names {
    /// A query key: `^[a-zA-Z][a-zA-Z0-9_.]*$` (parse-server's `validateQuery`), and, stricter
    /// than parse-server, no empty component (`a..b`, `a.`), which could address nothing.
    static func isValidKey(_ key: String) -> Bool {
        let b = Array(key.utf8)
        guard let first = b.first, isLetter(first) else { return false }
        var previousDot = false
        for c in b.dropFirst() {
            if c == UInt8(ascii: ".") {
                if previousDot { return false }
                previousDot = true
            } else if isLetter(c) || isDigit(c) || c == UInt8(ascii: "_") {
                previousDot = false
            } else {
                return false
            }
        }
        return !previousDot
    }

    /// A class name: letters, digits and `_`, not starting with a digit (`_User`, `GameScore`).
    static func isValidClassName(_ name: String) -> Bool {
        let b = Array(name.utf8)
        guard let first = b.first, isLetter(first) || first == UInt8(ascii: "_") else { return false }
        return b.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    private static func isLetter(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
}
