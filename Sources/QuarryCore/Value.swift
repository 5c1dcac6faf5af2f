/// A stored or literal value (docs/SEMANTICS.md#values).
///
/// Equality and hashing follow the query semantics rather than the Swift defaults:
/// numbers compare by value across `int` and `double` (`21 == 21.0`), and strings compare by
/// Unicode scalars with no normalization (Swift's `String ==` would use canonical equivalence).
public enum Value: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    /// Milliseconds since 1970-01-01T00:00:00Z.
    case date(Int64)
    case bytes([UInt8])
    case geoPoint(GeoPoint)
    case polygon([GeoPoint])
    case pointer(Pointer)
    case relation(className: String, objectIds: [String])
    case file(FileRef)
    case array([Value])
    case object([String: Value])
}

public struct GeoPoint: Hashable, Codable, Sendable {
    public var latitude: Double
    public var longitude: Double
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

public struct Pointer: Hashable, Codable, Sendable {
    public var className: String
    public var objectId: String
    public init(className: String, objectId: String) {
        self.className = className
        self.objectId = objectId
    }
}

public struct FileRef: Hashable, Codable, Sendable {
    public var name: String
    public var url: String?
    public init(name: String, url: String? = nil) {
        self.name = name
        self.url = url
    }
}

// MARK: - Type ranks and the total order

extension Value {
    /// Rank of the value's type in the cross-type sort order (docs/SEMANTICS.md#cross-type-order,
    /// after MongoDB): null, numbers, strings, objects, arrays, bytes, pointers, bools, dates. Geo
    /// points, polygons and files sort with objects; relations with arrays.
    public var typeRank: Int {
        switch self {
        case .null: return 0
        case .int, .double: return 1
        case .string: return 2
        case .object: return 3
        case .geoPoint: return 4
        case .polygon: return 5
        case .file: return 6
        case .array: return 7
        case .relation: return 8
        case .bytes: return 9
        case .pointer: return 10
        case .bool: return 11
        case .date: return 12
        }
    }

    /// A short name of the value's type, for diagnostics.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "bool"
        case .int: return "int"
        case .double: return "double"
        case .string: return "string"
        case .date: return "date"
        case .bytes: return "bytes"
        case .geoPoint: return "geoPoint"
        case .polygon: return "polygon"
        case .pointer: return "pointer"
        case .relation: return "relation"
        case .file: return "file"
        case .array: return "array"
        case .object: return "object"
        }
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The numeric value of an `int` or `double`, else nil.
    @inlinable public var numericValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// Total order used for sorting: by type rank, then naturally within a type.
    public static func sortOrder(_ a: Value, _ b: Value) -> Int {
        let ra = a.typeRank, rb = b.typeRank
        if ra != rb {
            // int and double share rank 1, so this never separates numbers.
            return ra < rb ? -1 : 1
        }
        return compareSameRank(a, b) ?? 0
    }

    /// Natural order between two values of comparable types; nil when the types differ
    /// (an ordered comparison between different types is false, never an error).
    public static func compareOrdered(_ a: Value, _ b: Value) -> Int? {
        if a.typeRank != b.typeRank { return nil }
        switch (a, b) {
        case (.object, _), (.geoPoint, _), (.polygon, _), (.file, _), (.array, _), (.relation, _),
            (.pointer, _), (.null, _):
            return nil
        default:
            return compareSameRank(a, b)
        }
    }

    private static func compareSameRank(_ a: Value, _ b: Value) -> Int? {
        switch (a, b) {
        case (.null, .null): return 0
        case (.int(let x), .int(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.int, .double), (.double, .int), (.double, .double): return compareNumbers(a, b)
        case (.string(let x), .string(let y)): return compareStrings(x, y)
        case (.date(let x), .date(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.bool(let x), .bool(let y)): return x == y ? 0 : (!x ? -1 : 1)
        case (.bytes(let x), .bytes(let y)): return compareSequences(x, y)
        case (.pointer(let x), .pointer(let y)):
            let c = compareStrings(x.className, y.className)
            return c != 0 ? c : compareStrings(x.objectId, y.objectId)
        case (.geoPoint(let x), .geoPoint(let y)):
            if x.latitude != y.latitude { return x.latitude < y.latitude ? -1 : 1 }
            if x.longitude != y.longitude { return x.longitude < y.longitude ? -1 : 1 }
            return 0
        case (.file(let x), .file(let y)): return compareStrings(x.name, y.name)
        case (.array(let x), .array(let y)):
            for (l, r) in zip(x, y) {
                let c = sortOrder(l, r)
                if c != 0 { return c }
            }
            return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
        case (.polygon(let x), .polygon(let y)):
            return sortOrder(.array(x.map(Value.geoPoint)), .array(y.map(Value.geoPoint)))
        case (.relation(let cx, let ix), .relation(let cy, let iy)):
            let c = compareStrings(cx, cy)
            return c != 0 ? c : sortOrder(.array(ix.map(Value.string)), .array(iy.map(Value.string)))
        case (.object(let x), .object(let y)):
            let kx = x.keys.sorted(by: { compareStrings($0, $1) < 0 })
            let ky = y.keys.sorted(by: { compareStrings($0, $1) < 0 })
            for (l, r) in zip(kx, ky) {
                let c = compareStrings(l, r)
                if c != 0 { return c }
                let v = sortOrder(x[l]!, y[r]!)
                if v != 0 { return v }
            }
            return kx.count == ky.count ? 0 : (kx.count < ky.count ? -1 : 1)
        default: return nil
        }
    }

    /// Numbers by value; NaN sorts before every other number and equals only NaN.
    @inlinable public static func compareNumbers(_ a: Value, _ b: Value) -> Int {
        switch (a, b) {
        case (.int(let x), .int(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.int(let x), .double(let y)): return -compareDoubleInt(y, x)
        case (.double(let x), .int(let y)): return compareDoubleInt(x, y)
        case (.double(let x), .double(let y)):
            if x.isNaN || y.isNaN { return x.isNaN ? (y.isNaN ? 0 : -1) : 1 }
            return x < y ? -1 : (x == y ? 0 : 1)
        default: return 0
        }
    }

    /// Exact comparison of a double with an Int64 (no rounding of large integers).
    @inlinable static func compareDoubleInt(_ d: Double, _ i: Int64) -> Int {
        if d.isNaN { return -1 }
        if d < -9.223372036854775808e18 { return -1 }
        if d >= 9.223372036854775808e18 { return 1 }
        let t = Int64(d.rounded(.down))
        if t != i { return t < i ? -1 : 1 }
        return d > Double(t) ? 1 : 0
    }

    /// Strings order by Unicode scalar values; UTF-8 byte order is the same order.
    @inlinable public static func compareStrings(_ a: String, _ b: String) -> Int {
        // Native strings hold their UTF-8 contiguously: compare the bytes in place.
        let contiguous = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in
                for i in 0..<Swift.min(x.count, y.count) where x[i] != y[i] { return x[i] < y[i] ? -1 : 1 }
                return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
            }
        }
        if let order = contiguous ?? nil { return order }
        var ia = a.utf8.makeIterator(), ib = b.utf8.makeIterator()
        while true {
            switch (ia.next(), ib.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?): if x != y { return x < y ? -1 : 1 }
            }
        }
    }

    static func compareSequences(_ a: [UInt8], _ b: [UInt8]) -> Int {
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }
}

// MARK: - Equality and hashing with query semantics

extension Value: Hashable {
    public static func == (a: Value, b: Value) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int, .int), (.int, .double), (.double, .int), (.double, .double):
            return compareNumbers(a, b) == 0
        case (.string(let x), .string(let y)): return String.sameUTF8(x, y)
        case (.date(let x), .date(let y)): return x == y
        case (.bytes(let x), .bytes(let y)): return x == y
        case (.geoPoint(let x), .geoPoint(let y)): return x == y
        case (.polygon(let x), .polygon(let y)): return x == y
        case (.pointer(let x), .pointer(let y)):
            return String.sameUTF8(x.className, y.className) && String.sameUTF8(x.objectId, y.objectId)
        case (.relation(let cx, let ix), .relation(let cy, let iy)): return cx == cy && ix == iy
        case (.file(let x), .file(let y)): return x == y
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
        case .double(let d):
            // Integral doubles hash like the equal Int64 so that 21 and 21.0 collide.
            if let i = Int64(exactly: d) {
                h.combine(2 as UInt8); h.combine(i)
            } else {
                h.combine(3 as UInt8); h.combine(d.isNaN ? Double.nan.bitPattern : d.bitPattern)
            }
        case .string(let s): h.combine(4 as UInt8); for b in s.utf8 { h.combine(b) }; h.combine(0xFF as UInt8)
        case .date(let ms): h.combine(5 as UInt8); h.combine(ms)
        case .bytes(let b): h.combine(6 as UInt8); h.combine(b)
        case .geoPoint(let g): h.combine(7 as UInt8); h.combine(g)
        case .polygon(let p): h.combine(8 as UInt8); h.combine(p)
        case .pointer(let p):
            h.combine(9 as UInt8)
            for b in p.className.utf8 { h.combine(b) }
            h.combine(0xFF as UInt8)
            for b in p.objectId.utf8 { h.combine(b) }
        case .relation(let c, let ids): h.combine(10 as UInt8); h.combine(c); h.combine(ids)
        case .file(let f): h.combine(11 as UInt8); h.combine(f)
        case .array(let a): h.combine(12 as UInt8); h.combine(a)
        case .object(let o): h.combine(13 as UInt8); h.combine(o)
        }
    }
}

// MARK: - Codable (the IR's own encoding, not Parse REST JSON)

extension Value: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, value, className, objectIds
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(String.self, forKey: .type)
        switch type {
        case "null": self = .null
        case "bool": self = .bool(try c.decode(Bool.self, forKey: .value))
        case "int": self = .int(try c.decode(Int64.self, forKey: .value))
        case "double":
            // Non-finite doubles are encoded as strings so that JSON encoders accept them.
            if let s = try? c.decode(String.self, forKey: .value), let d = Double(s) {
                self = .double(d)
            } else {
                self = .double(try c.decode(Double.self, forKey: .value))
            }
        case "string": self = .string(try c.decode(String.self, forKey: .value))
        case "date": self = .date(try c.decode(Int64.self, forKey: .value))
        case "bytes": self = .bytes(try c.decode([UInt8].self, forKey: .value))
        case "geoPoint": self = .geoPoint(try c.decode(GeoPoint.self, forKey: .value))
        case "polygon": self = .polygon(try c.decode([GeoPoint].self, forKey: .value))
        case "pointer": self = .pointer(try c.decode(Pointer.self, forKey: .value))
        case "relation":
            self = .relation(
                className: try c.decode(String.self, forKey: .className),
                objectIds: try c.decode([String].self, forKey: .objectIds))
        case "file": self = .file(try c.decode(FileRef.self, forKey: .value))
        case "array": self = .array(try c.decode([Value].self, forKey: .value))
        case "object": self = .object(try c.decode([String: Value].self, forKey: .value))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: c, debugDescription: "unknown value type '\(type)'")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(typeName, forKey: .type)
        switch self {
        case .null: break
        case .bool(let b): try c.encode(b, forKey: .value)
        case .int(let i): try c.encode(i, forKey: .value)
        case .double(let d):
            if d.isFinite { try c.encode(d, forKey: .value) } else { try c.encode("\(d)", forKey: .value) }
        case .string(let s): try c.encode(s, forKey: .value)
        case .date(let ms): try c.encode(ms, forKey: .value)
        case .bytes(let b): try c.encode(b, forKey: .value)
        case .geoPoint(let g): try c.encode(g, forKey: .value)
        case .polygon(let p): try c.encode(p, forKey: .value)
        case .pointer(let p): try c.encode(p, forKey: .value)
        case .relation(let cls, let ids):
            try c.encode(cls, forKey: .className)
            try c.encode(ids, forKey: .objectIds)
        case .file(let f): try c.encode(f, forKey: .value)
        case .array(let a): try c.encode(a, forKey: .value)
        case .object(let o): try c.encode(o, forKey: .value)
        }
    }
}

extension Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: Value...) { self = .array(elements) }
}
