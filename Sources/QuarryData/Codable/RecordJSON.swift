import QuarryCore

// Records and values in Parse REST JSON, as text and through any Encoder/Decoder
// (docs/API.md#parse-rest-json): one set of rules, Parse's, for every date.

extension Record {
    /// A record from one Parse REST JSON object (`{"objectId":"a","age":3,…}`), read as a data
    /// file's objects are: `createdAt`/`updatedAt` as ISO strings or Date wrappers, every
    /// other typed value in its `__type` wrapper, member order kept. Without an `objectId` the
    /// record gets `defaultObjectId`, if given. Errors are located in `text`.
    public init(json text: String, defaultObjectId: String? = nil) throws(Diagnostic) {
        let json = try JSONParser().parse(text)
        guard case .object(let object) = json else {
            throw Diagnostic(.data.shape, "a record must be a JSON object, not \(ParseJSON.article(json))")
        }
        do {
            self = try ParseJSON.decodeRecord(object, defaultObjectId: defaultObjectId)
        } catch {
            throw error.diagnostic(in: try? JSONParser().parseLocated(text))
        }
    }

    /// The record in Parse's REST output form, compact: `objectId` first, then the fields in
    /// order; `createdAt`/`updatedAt` as plain ISO strings, every other date as a Date wrapper.
    public var json: String { JSONWriter.string(ParseJSON.encode(self)) }
}

extension Value {
    /// A value from Parse REST JSON text: plain JSON as itself, typed values from their
    /// `__type` wrappers (a date is always a Date wrapper here; only a record's own
    /// `createdAt`/`updatedAt` are plain strings).
    public init(json text: String) throws(Diagnostic) {
        let json = try JSONParser().parse(text)
        do {
            self = try ParseJSON.decode(json)
        } catch {
            throw error.diagnostic(in: try? JSONParser().parseLocated(text))
        }
    }

    /// The value in Parse REST JSON, compact. Non-finite doubles, which JSON cannot hold, are
    /// written as null.
    public var json: String { JSONWriter.string(ParseJSON.encode(self)) }
}

/// A record encodes and decodes in Parse REST form through any coder (`JSONEncoder`,
/// `JSONDecoder`, …): exactly the JSON `json` writes and `init(json:)` reads. A double the
/// target cannot hold (NaN and the infinities in JSON) is the coder's to refuse or convert.
extension Record: Codable {
    public init(from decoder: any Decoder) throws {
        let json = try JSON(from: decoder)
        guard case .object(let object) = json else {
            throw DecodingError.typeMismatch(
                Record.self,
                .init(
                    codingPath: decoder.codingPath, debugDescription: "a record is a JSON object, not \(json.typeName)")
            )
        }
        do {
            self = try ParseJSON.decodeRecord(object)
        } catch {
            let keys = error.path.components.map { component -> any CodingKey in
                switch component {
                case .key(let k): return CodingPathKey.name(k)
                case .index(let i): return CodingPathKey.index(i)
                }
            }
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath + keys, debugDescription: "\(error.code): \(error.message)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try ParseJSON.encode(self).encode(to: encoder)
    }
}

/// A JSON tree through any coder: numbers as `Int64` when the coder reads one exactly, else
/// `Double`; objects keep the order the coder lists their keys in.
extension JSON: Codable {
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() {
                self = .null
                return
            }
            if let b = try? single.decode(Bool.self) {
                self = .bool(b)
                return
            }
            if let i = try? single.decode(Int64.self) {
                // `-0` reads as the integer 0; keep its sign as the JSON parser does.
                let negativeZero = i == 0 && (try? single.decode(Double.self))?.sign == .minus
                self = negativeZero ? .double(-0.0) : .int(i)
                return
            }
            if let d = try? single.decode(Double.self) {
                self = .double(d)
                return
            }
            if let s = try? single.decode(String.self) {
                self = .string(s)
                return
            }
        }
        if let keyed = try? decoder.container(keyedBy: CodingPathKey.self) {
            var object = JSONObject()
            for key in keyed.allKeys { object[key.stringValue] = try keyed.decode(JSON.self, forKey: key) }
            self = .object(object)
            return
        }
        var unkeyed = try decoder.unkeyedContainer()
        var items: [JSON] = []
        while !unkeyed.isAtEnd { items.append(try unkeyed.decode(JSON.self)) }
        self = .array(items)
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .int(let i):
            var c = encoder.singleValueContainer()
            try c.encode(i)
        case .double(let d):
            var c = encoder.singleValueContainer()
            try c.encode(d)
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .array(let items):
            var c = encoder.unkeyedContainer()
            for item in items { try c.encode(item) }
        case .object(let object):
            var c = encoder.container(keyedBy: CodingPathKey.self)
            for m in object { try c.encode(m.value, forKey: .name(m.key)) }
        }
    }
}
