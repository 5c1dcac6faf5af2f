import Quarry

/// The text of the `doc` column: a record written so that it reads back exactly — every
/// `Value` (NaN, infinities and -0.0 too, which JSON numbers cannot hold), field order kept.
/// A JSON array of `[name, value]` pairs; values are JSON scalars where JSON is exact
/// (null, bools, integers, strings) and tagged arrays otherwise (docs/STORAGE.md):
/// `["d", "1.5"]` double (Swift's round-trip text), `["t", ms]` date, `["g", lat, lon]`,
/// `["p", class, id]`, `["r", class, [ids]]`, `["b", Parse Bytes wrapper]`, `["y", [[lat, lon]…]]`,
/// `["f", name, url|null]`, `["a", [values]]`, `["o", [[key, value]…]]`.
enum StoredRecordCodec {
    static func encode(_ record: Record) -> String {
        JSONWriter.string(
            .array(
                record.fieldOrder.compactMap { name in
                    record.fields[name].map { .array([.string(name), encode($0)]) }
                }))
    }

    static func decode(_ text: String, objectId: String) throws(Diagnostic) -> Record {
        let json: JSON
        do throws(Diagnostic) {
            json = try JSONParser().parse(text)
        } catch {
            throw corrupt(objectId, error.message)
        }
        guard case .array(let pairs) = json else { throw corrupt(objectId, "not an array of fields") }
        var fields: [(String, Value)] = []
        fields.reserveCapacity(pairs.count)
        for pair in pairs {
            guard case .array(let p) = pair, p.count == 2, case .string(let name) = p[0] else {
                throw corrupt(objectId, "a field is not a [name, value] pair")
            }
            guard let v = value(p[1]) else { throw corrupt(objectId, "the field \(name) holds an unreadable value") }
            fields.append((name, v))
        }
        return Record(objectId: objectId, fields: fields)
    }

    private static func corrupt(_ objectId: String, _ why: String) -> Diagnostic {
        Diagnostic(.store.corrupt, "the stored object \(objectId) cannot be read: \(why)")
    }

    static func encode(_ v: Value) -> JSON {
        switch v {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .string(let s): return .string(s)
        case .double(let d): return ["d", .string(d.description)]
        case .date(let ms): return ["t", .int(ms)]
        case .geoPoint(let g): return ["g", .string(g.latitude.description), .string(g.longitude.description)]
        case .pointer(let p): return ["p", .string(p.className), .string(p.objectId)]
        case .relation(let c, let ids): return ["r", .string(c), .array(ids.map { .string($0) })]
        case .bytes: return ["b", ParseJSON.encode(v)]
        case .polygon(let ps):
            return ["y", .array(ps.map { [.string($0.latitude.description), .string($0.longitude.description)] })]
        case .file(let f): return ["f", .string(f.name), f.url.map { .string($0) } ?? .null]
        case .array(let items): return ["a", .array(items.map(encode))]
        case .object(let o):
            return ["o", .array(o.keys.sorted().map { .array([.string($0), encode(o[$0]!)]) })]
        }
    }

    private static func value(_ j: JSON) -> Value? {
        switch j {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .string(let s): return .string(s)
        case .double, .object: return nil
        case .array(let a):
            guard case .string(let tag)? = a.first else { return nil }
            switch (tag, a.count) {
            case ("d", 2): return double(a[1]).map { .double($0) }
            case ("t", 2): if case .int(let ms) = a[1] { return .date(ms) }
            case ("g", 3): return point(a[1], a[2]).map { .geoPoint($0) }
            case ("p", 3):
                if case .string(let c) = a[1], case .string(let id) = a[2] {
                    return .pointer(Pointer(className: c, objectId: id))
                }
            case ("r", 3):
                guard case .string(let c) = a[1], case .array(let ids) = a[2] else { return nil }
                let strings = ids.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
                return strings.count == ids.count ? .relation(className: c, objectIds: strings) : nil
            case ("b", 2): if case .bytes(let b)? = try? ParseJSON.decode(a[1]) { return .bytes(b) }
            case ("y", 2):
                guard case .array(let items) = a[1] else { return nil }
                let ps = items.compactMap { item -> GeoPoint? in
                    guard case .array(let xy) = item, xy.count == 2 else { return nil }
                    return point(xy[0], xy[1])
                }
                return ps.count == items.count ? .polygon(ps) : nil
            case ("f", 3):
                guard case .string(let name) = a[1] else { return nil }
                if case .string(let url) = a[2] { return .file(FileRef(name: name, url: url)) }
                return a[2].isNull ? .file(FileRef(name: name)) : nil
            case ("a", 2):
                guard case .array(let items) = a[1] else { return nil }
                let vs = items.compactMap(value)
                return vs.count == items.count ? .array(vs) : nil
            case ("o", 2):
                guard case .array(let pairs) = a[1] else { return nil }
                var o: [String: Value] = [:]
                for pair in pairs {
                    guard case .array(let kv) = pair, kv.count == 2, case .string(let k) = kv[0], let v = value(kv[1])
                    else { return nil }
                    o[k] = v
                }
                return .object(o)
            default: return nil
            }
            return nil
        }
    }

    private static func double(_ j: JSON) -> Double? {
        guard case .string(let s) = j else { return nil }
        return Double(s)
    }

    private static func point(_ a: JSON, _ b: JSON) -> GeoPoint? {
        guard let lat = double(a), let lon = double(b) else { return nil }
        return GeoPoint(latitude: lat, longitude: lon)
    }
}
