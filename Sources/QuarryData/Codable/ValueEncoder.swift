import Foundation
import QuarryCore

/// Encodes the caller's `Encodable` types as Quarry values and records, the inverse of
/// `ValueDecoder` (docs/API.md#codable): structs become objects, arrays arrays, `Date` a date
/// (to the nearest millisecond), `Data` bytes, and `Pointer`, `GeoPoint`, `FileRef`, `Value`
/// and `Record` themselves. An integer beyond `Int64` or a date no `Int64` of milliseconds
/// holds is a `data.encode` diagnostic whose `path` is the coding path.
public struct ValueEncoder: Sendable {
    public init() {}

    public func encode<T: Encodable>(_ value: T) throws(Diagnostic) -> Value {
        try encodeSlot(value).value
    }

    /// The value as a record, its fields in the order they were encoded. It must encode as an
    /// object whose `objectId`, when present, is a non-empty string; without one the record
    /// gets `defaultObjectId`, and without that it is a `data.object-id` diagnostic. A geo
    /// point off the globe is `data.geo-range`, as in a data file.
    public func encodeRecord<T: Encodable>(_ value: T, defaultObjectId: String? = nil) throws(Diagnostic) -> Record {
        let slot = try encodeSlot(value)
        let keys: [String], members: [String: Value]
        switch slot.content {
        case .object(let k, let m):
            (keys, members) = (k, m.mapValues(\.value))
        case .value(.object(let m)):
            // A `Record` keeps its field order; a `Value.object` has none of its own.
            let sorted = m.keys.sorted { Value.compareStrings($0, $1) < 0 }
            let ordered = (value as? Record)?.fieldOrder.filter { m[$0] != nil } ?? []
            let seen = Set(ordered)
            keys = ordered + sorted.filter { !seen.contains($0) }
            members = m
        default:
            throw Diagnostic(
                .data.encode, "cannot store \(T.self) as an object: it encodes as a \(slot.value.typeName)")
        }
        let objectId: String
        switch members["objectId"] {
        case .string(let s)? where !s.isEmpty:
            objectId = s
        case nil:
            guard let defaultObjectId else {
                throw Diagnostic(.data.objectId, "\(T.self) has no 'objectId' to store it under", path: "objectId")
            }
            objectId = defaultObjectId
        case let other?:
            throw Diagnostic(
                .data.objectId,
                "the objectId of \(T.self) must be a non-empty string, not \(other.shortDescription)",
                path: "objectId")
        }
        let fields = keys.filter { $0 != "objectId" }.map { ($0, members[$0]!) }
        for (name, value) in fields {
            do throws(ValueDecodingError) {
                try ParseJSON.checkCoordinates(value)
            } catch {
                throw error.inside(.key(name)).diagnostic()
            }
        }
        return Record(objectId: objectId, fields: fields)
    }

    private func encodeSlot<T: Encodable>(_ value: T) throws(Diagnostic) -> EncodedSlot {
        let slot = EncodedSlot()
        do {
            try ValueEncoding(slot: slot, codingPath: []).fill(value)
        } catch {
            let (path, reason) = CodingFailure.describe(error)
            let at = path.isEmpty ? "" : " at \(path)"
            throw Diagnostic(.data.encode, "cannot encode \(T.self)\(at): \(reason)", path: path.isEmpty ? nil : path)
        }
        return slot
    }
}

/// What one value encoded to so far; containers fill it after they are handed out.
final class EncodedSlot {
    enum Content {
        case empty
        case value(Value)
        case object(keys: [String], members: [String: EncodedSlot])
        case array([EncodedSlot])
    }
    var content = Content.empty

    var value: Value {
        switch content {
        case .empty: return .object([:])
        case .value(let v): return v
        case .object(_, let members): return .object(members.mapValues(\.value))
        case .array(let items): return .array(items.map(\.value))
        }
    }

    /// The member `key` of an object slot, created (after the others) if new.
    func member(_ key: String) -> EncodedSlot {
        var keys: [String] = [], members: [String: EncodedSlot] = [:]
        if case .object(let k, let m) = content { (keys, members) = (k, m) }
        if let existing = members[key] { return existing }
        let slot = EncodedSlot()
        keys.append(key)
        members[key] = slot
        content = .object(keys: keys, members: members)
        return slot
    }

    /// A new last element of an array slot.
    func append() -> EncodedSlot {
        var items: [EncodedSlot] = []
        if case .array(let a) = content { items = a }
        let slot = EncodedSlot()
        items.append(slot)
        content = .array(items)
        return slot
    }

    var count: Int {
        switch content {
        case .array(let a): return a.count
        case .object(let k, _): return k.count
        default: return 0
        }
    }
}

/// The encoder handed to `encode(to:)`, writing into one slot.
struct ValueEncoding: Encoder {
    let slot: EncodedSlot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = slot.content {} else { slot.content = .object(keys: [], members: [:]) }
        return KeyedEncodingContainer(Keyed<Key>(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = slot.content {} else { slot.content = .array([]) }
        return Unkeyed(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoding: self) }

    /// Quarry's own types and Foundation's dates and bytes become values directly; everything
    /// else encodes itself.
    func fill<T: Encodable>(_ value: T) throws {
        switch value {
        case let v as Value: slot.content = .value(v)
        case let date as Date:
            guard let v = Value(date) else {
                throw EncodingError.invalidValue(
                    date,
                    .init(
                        codingPath: codingPath, debugDescription: "the date \(date) is beyond what Quarry's dates hold")
                )
            }
            slot.content = .value(v)
        case let data as Data: slot.content = .value(Value(data))
        case let p as Pointer: slot.content = .value(.pointer(p))
        case let g as GeoPoint: slot.content = .value(.geoPoint(g))
        case let f as FileRef: slot.content = .value(.file(f))
        case let r as Record: slot.content = .value(.object(r.valueFields))
        default: try value.encode(to: self)
        }
    }

    func set(_ v: Value) { slot.content = .value(v) }

    func integer<T: BinaryInteger>(_ n: T) throws {
        guard let i = Int64(exactly: n) else {
            throw EncodingError.invalidValue(
                n, .init(codingPath: codingPath, debugDescription: "the number \(n) does not fit Int64"))
        }
        set(.int(i))
    }

    struct Single: SingleValueEncodingContainer {
        let encoding: ValueEncoding
        var codingPath: [any CodingKey] { encoding.codingPath }

        func encodeNil() { encoding.set(.null) }
        func encode(_ value: Bool) { encoding.set(.bool(value)) }
        func encode(_ value: String) { encoding.set(.string(value)) }
        func encode(_ value: Double) { encoding.set(.double(value)) }
        func encode(_ value: Float) { encoding.set(.double(Double(value))) }
        func encode(_ value: Int) throws { try encoding.integer(value) }
        func encode(_ value: Int8) throws { try encoding.integer(value) }
        func encode(_ value: Int16) throws { try encoding.integer(value) }
        func encode(_ value: Int32) throws { try encoding.integer(value) }
        func encode(_ value: Int64) throws { try encoding.integer(value) }
        func encode(_ value: UInt) throws { try encoding.integer(value) }
        func encode(_ value: UInt8) throws { try encoding.integer(value) }
        func encode(_ value: UInt16) throws { try encoding.integer(value) }
        func encode(_ value: UInt32) throws { try encoding.integer(value) }
        func encode(_ value: UInt64) throws { try encoding.integer(value) }
        func encode<T: Encodable>(_ value: T) throws { try encoding.fill(value) }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let slot: EncodedSlot
        let codingPath: [any CodingKey]

        private func child(_ key: Key) -> ValueEncoding {
            ValueEncoding(slot: slot.member(key.stringValue), codingPath: codingPath + [key])
        }

        mutating func encodeNil(forKey key: Key) { child(key).set(.null) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try child(key).fill(value) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            child(key).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            child(key).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            ValueEncoding(slot: slot.member("super"), codingPath: codingPath + [CodingPathKey.super])
        }
        mutating func superEncoder(forKey key: Key) -> any Encoder { child(key) }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let slot: EncodedSlot
        let codingPath: [any CodingKey]
        var count: Int { slot.count }

        private func next() -> ValueEncoding {
            let index = slot.count
            return ValueEncoding(slot: slot.append(), codingPath: codingPath + [CodingPathKey.index(index)])
        }

        mutating func encodeNil() { next().set(.null) }
        mutating func encode<T: Encodable>(_ value: T) throws { try next().fill(value) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            next().container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { next().unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { next() }
    }
}
