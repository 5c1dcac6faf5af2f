import QuarryCore

/// Writes compact, deterministic JSON: no whitespace, members in the tree's order, integers
/// exact, doubles in their shortest round-trip form (Swift's `description`, which is always
/// valid JSON: `0.1`, `100.0`, `1e-05`, `1e+20`, `-0.0`), and NaN or infinities as `null`
/// (JSON cannot express them). Strings escape `"`, `\` and the control characters only.
public enum JSONWriter {
    public static func string(_ json: JSON) -> String {
        var out: [UInt8] = []
        write(json, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    public static func write(_ json: JSON, to out: inout [UInt8]) {
        switch json {
        case .null: appendLiteral("null", to: &out)
        case .bool(let b): appendLiteral(b ? "true" : "false", to: &out)
        case .int(let i): writeInt(i, to: &out)
        case .double(let d): writeDouble(d, to: &out)
        case .string(let s): writeString(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (i, m) in object.members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeString(m.key, to: &out)
                out.append(UInt8(ascii: ":"))
                write(m.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    @inline(__always) static func appendLiteral(_ s: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    static func writeInt(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = out.count
        repeat {
            out.append(UInt8(truncatingIfNeeded: magnitude % 10) + 48)
            magnitude /= 10
        } while magnitude > 0
        out[start...].reverse()
    }

    static func writeDouble(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else { return appendLiteral("null", to: &out) }
        out.append(contentsOf: value.description.utf8)
    }

    static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): appendLiteral("\\\"", to: &out)
            case UInt8(ascii: "\\"): appendLiteral("\\\\", to: &out)
            case 0x0A: appendLiteral("\\n", to: &out)
            case 0x0D: appendLiteral("\\r", to: &out)
            case 0x09: appendLiteral("\\t", to: &out)
            case 0x08: appendLiteral("\\b", to: &out)
            case 0x0C: appendLiteral("\\f", to: &out)
            case 0..<0x20:
                appendLiteral("\\u00", to: &out)
                out.append(contentsOf: hexByte(b).utf8.map { $0 | 0x20 })  // lowercase hex
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
