import QuarryCore

extension ParseJSON {
    /// The Parse REST JSON form of a value: the inverse of `decode`, so
    /// `decode(encode(v)) == v` for every value `decode` can produce.
    ///
    /// Doubles that JSON cannot hold (NaN, infinities) become `null` when written. A relation
    /// keeps its `objects` (Parse's own output leaves them out) so that written data loads back
    /// with the same ids. Object members are written in Unicode scalar order of their keys, as a
    /// `Value.object` has no order of its own; an included object (`__type: Object`) starts with
    /// `__type`, `className`, `objectId`, and writes `createdAt`/`updatedAt` as plain ISO strings
    /// like a top-level record.
    public static func encode(_ value: Value) -> JSON {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .date(let ms): return ["__type": "Date", "iso": .string(ISODate.format(ms))]
        case .bytes(let b): return ["__type": "Bytes", "base64": .string(Base64.encode(b))]
        case .geoPoint(let g):
            return ["__type": "GeoPoint", "latitude": .double(g.latitude), "longitude": .double(g.longitude)]
        case .polygon(let points):
            return [
                "__type": "Polygon",
                "coordinates": .array(points.map { [.double($0.latitude), .double($0.longitude)] }),
            ]
        case .pointer(let p): return pointer(p.className, p.objectId)
        case .relation(let className, let ids):
            return [
                "__type": "Relation", "className": .string(className),
                "objects": .array(ids.map { pointer(className, $0) }),
            ]
        case .file(let f):
            var o: JSONObject = ["__type": "File", "name": .string(f.name)]
            if let url = f.url { o["url"] = .string(url) }
            return .object(o)
        case .array(let items): return .array(items.map(encode))
        case .object(let fields): return .object(encodeObject(fields))
        }
    }

    /// A record in Parse's REST output form: `objectId` first, then the fields in `fieldOrder`
    /// (any field missing from `fieldOrder` follows, by key), `createdAt`/`updatedAt` dates as
    /// plain ISO strings, other dates as Date wrappers.
    public static func encode(_ record: Record) -> JSON {
        var o = JSONObject()
        o["objectId"] = .string(record.objectId)
        for name in record.fieldOrder {
            if let v = record.fields[name] { o[name] = encodeField(name, v) }
        }
        if o.count != record.fields.count + 1 {
            for name in sortedKeys(record.fields) where !o.contains(key: name) {
                if let v = record.fields[name] { o[name] = encodeField(name, v) }
            }
        }
        return .object(o)
    }

    /// Appends the record's compact JSON text (no line break).
    public static func write(_ record: Record, to out: inout [UInt8]) {
        JSONWriter.write(encode(record), to: &out)
    }

    private static func pointer(_ className: String, _ objectId: String) -> JSON {
        ["__type": "Pointer", "className": .string(className), "objectId": .string(objectId)]
    }

    private static func encodeObject(_ fields: [String: Value]) -> JSONObject {
        var o = JSONObject()
        let included = fields["__type"] == .string("Object")
        if included {
            for key in ["__type", "className", "objectId"] {
                if let v = fields[key] { o[key] = encode(v) }
            }
        }
        for key in sortedKeys(fields) where !(included && o.contains(key: key)) {
            if let v = fields[key] { o[key] = included ? encodeField(key, v) : encode(v) }
        }
        return o
    }

    private static func encodeField(_ name: String, _ v: Value) -> JSON {
        if name == "createdAt" || name == "updatedAt", case .date(let ms) = v { return .string(ISODate.format(ms)) }
        return encode(v)
    }

    private static func sortedKeys(_ fields: [String: Value]) -> [String] {
        fields.keys.sorted { Value.compareStrings($0, $1) < 0 }
    }
}
