/// A URL query string read as HTML forms encode it: `&`-separated `name=value` pairs, `+` is a
/// space and `%XX` a byte (Python's `urlencode`, which the SDKs use, writes a `where` that way).
/// A malformed escape stays as written rather than failing the request.
struct FormQuery: Sendable {
    private(set) var pairs: [(name: String, value: String)] = []

    init(_ query: String) {
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            let name: Substring
            let value: Substring
            if let eq = part.firstIndex(of: "=") {
                name = part[..<eq]
                value = part[part.index(after: eq)...]
            } else {
                name = part
                value = ""
            }
            pairs.append((FormQuery.decode(name), FormQuery.decode(value)))
        }
    }

    /// The last value given for `name` (a repeated parameter overrides, as in parse-server).
    subscript(name: String) -> String? {
        pairs.last { $0.name == name }?.value
    }

    static func decode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                if utf8.count >= 2, let high = hexValue(utf8[utf8.startIndex]),
                    let low = hexValue(utf8[utf8.startIndex + 1])
                {
                    bytes.append(high << 4 | low)
                    utf8 = utf8.dropFirst(2)
                } else {
                    bytes.append(byte)
                }
            default:
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
