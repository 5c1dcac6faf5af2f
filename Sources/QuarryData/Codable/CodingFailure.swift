import QuarryCore

/// A coding key the coders make: an array position or `super`.
enum CodingPathKey: CodingKey {
    case index(Int)
    case name(String)
    static let `super` = CodingPathKey.name("super")

    var stringValue: String {
        switch self {
        case .index(let i): return "Index \(i)"
        case .name(let s): return s
        }
    }
    var intValue: Int? {
        if case .index(let i) = self { return i }
        return nil
    }
    init(stringValue: String) { self = .name(stringValue) }
    init(intValue: Int) { self = .index(intValue) }
}

/// The coding path and reason of an error a `Decodable` or `Encodable` type threw.
enum CodingFailure {
    /// `address.city`, `tags[2]`: keys joined by dots, positions in brackets.
    static func path(_ keys: [any CodingKey]) -> String {
        var out = ""
        for key in keys {
            if let i = key.intValue {
                out += "[\(i)]"
            } else {
                if !out.isEmpty { out += "." }
                out += key.stringValue
            }
        }
        return out
    }

    static func describe(_ error: any Error) -> (path: String, reason: String) {
        switch error {
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c),
            DecodingError.dataCorrupted(let c):
            return (path(c.codingPath), c.debugDescription)
        case DecodingError.keyNotFound(let key, let c):
            return (path(c.codingPath + [key]), "the field '\(key.stringValue)' is missing")
        case EncodingError.invalidValue(_, let c):
            return (path(c.codingPath), c.debugDescription)
        case let d as Diagnostic:
            return ("", d.message)
        default:
            return ("", "\(error)")
        }
    }
}
