import QuarryCore

/// A JSON document as a tree (RFC 8259), as `JSONParser` reads it and `JSONWriter` writes it.
///
/// Numbers keep their kind: an integer literal that fits `Int64` (no fraction, no exponent) is
/// `int`; every other number is `double` (`-0` is `double(-0.0)`, so its sign survives a round
/// trip). Equality is structural and exact: strings compare by Unicode scalars, `int(1)` is not
/// `double(1.0)`, and objects are equal when they hold the same members in any order.
public enum JSON: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object(JSONObject)
}

extension JSON {
    /// The member `key` of an object; nil for a missing key or a non-object.
    public subscript(key: String) -> JSON? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    /// The element at `index` of an array; nil when out of bounds or not an array.
    public subscript(index: Int) -> JSON? {
        if case .array(let a) = self, a.indices.contains(index) { return a[index] }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The value of any number.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    public var arrayValue: [JSON]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The JSON type's name for messages: null, boolean, number, string, array, object.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int, .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

extension JSON: Hashable {
    public static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        // Bit patterns, so that -0.0 and 0.0 differ (the writer keeps the sign).
        case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        case (.string(let x), .string(let y)): return String.sameUTF8(x, y)
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)): return x == y
        default: return false
        }
    }

    public func hash(into h: inout Hasher) {
        switch self {
        case .null: h.combine(0 as UInt8)
        case .bool(let b): h.combine(1 as UInt8); h.combine(b)
        case .int(let i): h.combine(2 as UInt8); h.combine(i)
        case .double(let d): h.combine(3 as UInt8); h.combine(d.isNaN ? Double.nan.bitPattern : d.bitPattern)
        case .string(let s): h.combine(4 as UInt8); JSONObject.hashExactly(s, into: &h)
        case .array(let a): h.combine(5 as UInt8); h.combine(a)
        case .object(let o): h.combine(6 as UInt8); h.combine(o)
        }
    }
}

extension JSON: CustomStringConvertible {
    /// The compact JSON text (`JSONWriter`).
    public var description: String { JSONWriter.string(self) }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    /// Members in the literal's order; a repeated key keeps its first position and last value.
    public init(dictionaryLiteral elements: (String, JSON)...) { self = .object(JSONObject(elements)) }
}
