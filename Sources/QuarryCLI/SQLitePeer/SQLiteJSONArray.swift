import Quarry

/// The JSON text an array field is stored as: strings, numbers, bools (as true/false, which
/// `json_each` reads as 1/0, like bool columns), dates as epoch milliseconds, pointers as
/// their objectIds (dangling ones as null), and nulls.
enum SQLiteJSONArray {
    static func text(_ value: Value, database: Database) -> String {
        let items: [Value]
        switch value {
        case .array(let a): items = a
        case .relation(let className, let ids): items = ids.map { .pointer(Pointer(className: className, objectId: $0)) }
        default: return "[]"
        }
        var out = "["
        for (i, item) in items.enumerated() {
            if i > 0 { out += "," }
            switch item {
            case .int(let n): out += String(n)
            case .double(let d): out += d.isFinite ? "\(d)" : "null"
            case .string(let s): appendString(s, to: &out)
            case .bool(let b): out += b ? "true" : "false"
            case .date(let ms): out += String(ms)
            case .pointer(let p): database.resolve(p) != nil ? appendString(p.objectId, to: &out) : (out += "null")
            default: out += "null"
            }
        }
        return out + "]"
    }

    private static func appendString(_ s: String, to out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}
