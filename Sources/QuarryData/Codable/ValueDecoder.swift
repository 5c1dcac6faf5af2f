import Foundation
import QuarryCore

/// Decodes the caller's `Decodable` types from Quarry values and records (docs/API.md#codable).
///
/// A record reads as a keyed container of its fields plus `objectId`; objects and arrays nest
/// as containers. `Date` reads a date, `Data` bytes, and `Pointer`, `GeoPoint`, `FileRef`,
/// `Value` and `Record` read themselves. Integers read any number that fits them exactly; a
/// geo point, pointer or file also reads as a keyed container of its members, a polygon as an
/// array of geo points and a relation as an array of pointers. Null and a missing field read
/// as `nil`. A value of the wrong kind is a `data.decode` diagnostic whose `path` is the coding
/// path (`address.city`, `tags[2]`).
public struct ValueDecoder: Sendable {
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from value: Value) throws(Diagnostic) -> T {
        do {
            return try ValueDecoding(value, path: []).decode(T.self)
        } catch {
            throw Self.diagnostic(error, decoding: T.self)
        }
    }

    /// Decodes a stored object; the diagnostic names it.
    public func decode<T: Decodable>(_ type: T.Type, from record: Record, className: String? = nil) throws(Diagnostic)
        -> T
    {
        do {
            return try ValueDecoding(.object(record.valueFields), path: []).decode(T.self)
        } catch {
            let object = className.map { "object '\(record.objectId)' of \($0)" } ?? "object '\(record.objectId)'"
            throw Self.diagnostic(error, decoding: T.self, what: object)
        }
    }

    static func diagnostic(_ error: any Error, decoding type: Any.Type, what: String = "the value") -> Diagnostic {
        let (path, reason) = CodingFailure.describe(error)
        let at = path.isEmpty ? "" : " at \(path)"
        return Diagnostic(
            .data.decode, "cannot decode \(what) as \(type)\(at): \(reason)", path: path.isEmpty ? nil : path)
    }
}

extension Record {
    /// The fields with `objectId` among them, as a decoder or a `Value.object` sees them.
    var valueFields: [String: Value] {
        var all = fields
        all["objectId"] = .string(objectId)
        return all
    }
}

/// One value being decoded and where it sits.
struct ValueDecoding: Decoder {
    let value: Value
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: Value, path: [any CodingKey]) {
        self.value = value
        self.codingPath = path
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let members = value.members else { throw mismatch([String: Value].self, "an object") }
        return KeyedDecodingContainer(Keyed<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let elements = value.elements else { throw mismatch([Value].self, "an array") }
        return Unkeyed(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoding: self) }

    func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        let article = ["int", "array", "object"].contains(value.typeName) ? "an" : "a"
        let found = value.isNull ? "null" : "\(article) \(value.typeName) (\(value.shortDescription))"
        let context = DecodingError.Context(
            codingPath: codingPath, debugDescription: "expected \(expected), found \(found)")
        return value.isNull ? .valueNotFound(type, context) : .typeMismatch(type, context)
    }

    /// Quarry's own types and Foundation's dates and bytes read straight from the value;
    /// everything else through its `init(from:)`.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is Value.Type: return value as! T
        case is Date.Type:
            guard let date = value.dateValue else { throw mismatch(T.self, "a date") }
            return date as! T
        case is Data.Type:
            guard let data = value.dataValue else { throw mismatch(T.self, "bytes") }
            return data as! T
        case is Pointer.Type:
            guard case .pointer(let p) = value else { throw mismatch(T.self, "a pointer") }
            return p as! T
        case is GeoPoint.Type:
            guard case .geoPoint(let g) = value else { throw mismatch(T.self, "a geo point") }
            return g as! T
        case is FileRef.Type:
            guard case .file(let f) = value else { throw mismatch(T.self, "a file") }
            return f as! T
        case is Record.Type:
            guard case .object(var fields) = value, case .string(let id)? = fields.removeValue(forKey: "objectId")
            else { throw mismatch(T.self, "an object with a string objectId") }
            let order = fields.keys.sorted { Value.compareStrings($0, $1) < 0 }
            return Record(objectId: id, fields: order.map { ($0, fields[$0]!) }) as! T
        default:
            return try T(from: self)
        }
    }

    func decodeNumber<T: BinaryInteger>(_ type: T.Type) throws -> T {
        switch value {
        case .int(let i):
            if let n = T(exactly: i) { return n }
        case .double(let d):
            if let n = T(exactly: d) { return n }
        default:
            throw mismatch(T.self, "a number")
        }
        throw DecodingError.dataCorrupted(
            .init(
                codingPath: codingPath, debugDescription: "the number \(value.shortDescription) does not fit \(T.self)")
        )
    }

    func decodeFloat<T: BinaryFloatingPoint>(_ type: T.Type) throws -> T {
        switch value {
        case .int(let i): return T(i)
        case .double(let d):
            let n = T(d)
            guard n.isFinite || !d.isFinite else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "the number \(d) does not fit \(T.self)"))
            }
            return n
        default: throw mismatch(T.self, "a number")
        }
    }

    struct Single: SingleValueDecodingContainer {
        let decoding: ValueDecoding
        var codingPath: [any CodingKey] { decoding.codingPath }

        func decodeNil() -> Bool { decoding.value.isNull }
        func decode(_ type: Bool.Type) throws -> Bool {
            guard case .bool(let b) = decoding.value else { throw decoding.mismatch(type, "a bool") }
            return b
        }
        func decode(_ type: String.Type) throws -> String {
            guard case .string(let s) = decoding.value else { throw decoding.mismatch(type, "a string") }
            return s
        }
        func decode(_ type: Double.Type) throws -> Double { try decoding.decodeFloat(type) }
        func decode(_ type: Float.Type) throws -> Float { try decoding.decodeFloat(type) }
        func decode(_ type: Int.Type) throws -> Int { try decoding.decodeNumber(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try decoding.decodeNumber(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try decoding.decodeNumber(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try decoding.decodeNumber(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try decoding.decodeNumber(type) }
        func decode(_ type: UInt.Type) throws -> UInt { try decoding.decodeNumber(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try decoding.decodeNumber(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try decoding.decodeNumber(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try decoding.decodeNumber(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try decoding.decodeNumber(type) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoding.decode(type) }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: Value]
        let codingPath: [any CodingKey]

        var allKeys: [Key] {
            members.keys.sorted { Value.compareStrings($0, $1) < 0 }.compactMap { Key(stringValue: $0) }
        }
        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        private func child(_ key: Key) throws -> ValueDecoding {
            guard let v = members[key.stringValue] else {
                throw DecodingError.keyNotFound(
                    key,
                    .init(codingPath: codingPath, debugDescription: "there is no field '\(key.stringValue)'"))
            }
            return ValueDecoding(v, path: codingPath + [key])
        }

        func decodeNil(forKey key: Key) throws -> Bool { members[key.stringValue]?.isNull ?? true }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decode(type) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try Single(decoding: child(key)).decode(type) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            try Single(decoding: child(key)).decode(type)
        }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).decodeFloat(type) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try child(key).decodeFloat(type) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).decodeNumber(type) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).decodeNumber(type) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).decodeNumber(type) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).decodeNumber(type) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).decodeNumber(type) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).decodeNumber(type) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).decodeNumber(type) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).decodeNumber(type) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).decodeNumber(type) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).decodeNumber(type) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try child(key).container(keyedBy: type)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try child(key).unkeyedContainer()
        }
        func superDecoder() throws -> any Decoder {
            ValueDecoding(.object(members), path: codingPath + [CodingPathKey.super])
        }
        func superDecoder(forKey key: Key) throws -> any Decoder {
            ValueDecoding(members[key.stringValue] ?? .null, path: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let elements: [Value]
        let codingPath: [any CodingKey]
        var currentIndex = 0

        init(elements: [Value], codingPath: [any CodingKey]) {
            self.elements = elements
            self.codingPath = codingPath
        }

        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        private mutating func next(_ type: Any.Type) throws -> ValueDecoding {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    type,
                    .init(
                        codingPath: codingPath + [CodingPathKey.index(currentIndex)],
                        debugDescription: "the array has only \(elements.count) elements"))
            }
            defer { currentIndex += 1 }
            return ValueDecoding(elements[currentIndex], path: codingPath + [CodingPathKey.index(currentIndex)])
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, elements[currentIndex].isNull else { return false }
            currentIndex += 1
            return true
        }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type).decode(type) }
        mutating func decode(_ type: Bool.Type) throws -> Bool { try Single(decoding: next(type)).decode(type) }
        mutating func decode(_ type: String.Type) throws -> String { try Single(decoding: next(type)).decode(type) }
        mutating func decode(_ type: Double.Type) throws -> Double { try next(type).decodeFloat(type) }
        mutating func decode(_ type: Float.Type) throws -> Float { try next(type).decodeFloat(type) }
        mutating func decode(_ type: Int.Type) throws -> Int { try next(type).decodeNumber(type) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type).decodeNumber(type) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type).decodeNumber(type) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type).decodeNumber(type) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type).decodeNumber(type) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type).decodeNumber(type) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type).decodeNumber(type) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type).decodeNumber(type) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type).decodeNumber(type) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type).decodeNumber(type) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try next([String: Value].self).container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try next([Value].self).unkeyedContainer()
        }
        mutating func superDecoder() throws -> any Decoder { try next(Value.self) }
    }
}

extension Value {
    /// What a keyed container reads: an object's members, or a geo point's, pointer's or
    /// file's as Parse names them.
    fileprivate var members: [String: Value]? {
        switch self {
        case .object(let o): return o
        case .geoPoint(let g): return ["latitude": .double(g.latitude), "longitude": .double(g.longitude)]
        case .pointer(let p): return ["className": .string(p.className), "objectId": .string(p.objectId)]
        case .file(let f): return ["name": .string(f.name), "url": f.url.map(Value.string) ?? .null]
        default: return nil
        }
    }

    /// What an unkeyed container reads: an array's elements, a polygon's points, a relation's
    /// pointers, or bytes as numbers.
    fileprivate var elements: [Value]? {
        switch self {
        case .array(let a): return a
        case .polygon(let points): return points.map(Value.geoPoint)
        case .relation(let className, let ids): return ids.map { .pointer(Pointer(className: className, objectId: $0)) }
        case .bytes(let b): return b.map { .int(Int64($0)) }
        default: return nil
        }
    }

    /// The value in a message, cut short.
    var shortDescription: String {
        let text: String
        switch self {
        case .string(let s): text = JSONText.quote(s)
        case .int(let i): text = String(i)
        case .double(let d): text = String(d)
        case .bool(let b): text = String(b)
        case .date(let ms): text = ISODate.format(ms)
        default: return typeName
        }
        return text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}
