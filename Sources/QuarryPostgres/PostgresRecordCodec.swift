import Quarry

/// The two forms of a stored object (docs/STORAGE.md#postgresql-schema):
///
/// - `doc`, a `jsonb` object the queries read, keyed by the catalog's field numbers (`f1`,
///   `f2`…, so no field name is ever written into SQL): numbers as JSON numbers written so that
///   `numeric` compares them exactly as Quarry does, dates as epoch milliseconds, pointers as
///   their objectId, geo points as `[lat, lon]`, arrays of scalars as arrays; what a query never
///   reads from `doc` (NaN, infinities, strings with a NUL, bytes, objects…) is `null` there and
///   its field's catalog kind is `unsupported`, so every test on it stays residual.
/// - `raw`, text that reads back exactly, field order kept: a JSON array of `[name, value]`
///   pairs, JSON scalars where JSON is exact and tagged arrays otherwise: `["d", "1.5"]` double
///   (Swift's round-trip text, so NaN, ±inf and -0.0 survive), `["t", ms]`, `["g", lat, lon]`,
///   `["p", class, id]`, `["r", class, [ids]]`, `["b", Parse Bytes]`, `["y", [[lat, lon]…]]`,
///   `["f", name, url|null]`, `["a", [values]]`, `["o", [[key, value]…]]`. A NUL in a string is
///   written `\u0000`, which PostgreSQL text holds as six characters.
enum PostgresRecordCodec {
    // MARK: - raw

    static func raw(_ record: Record) -> String {
        JSONWriter.string(
            .array(
                record.fieldOrder.compactMap { name in record.fields[name].map { .array([.string(name), tagged($0)]) } }
            ))
    }

    static func decode(raw text: String, objectId: String) throws(Diagnostic) -> Record {
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
            guard let v = untagged(p[1]) else { throw corrupt(objectId, "the field \(name) holds an unreadable value") }
            fields.append((name, v))
        }
        return Record(objectId: objectId, fields: fields)
    }

    private static func corrupt(_ objectId: String, _ why: String) -> Diagnostic {
        Diagnostic(.store.postgresCorrupt, "the stored object \(objectId) cannot be read: \(why)")
    }

    static func tagged(_ v: Value) -> JSON {
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
        case .array(let items): return ["a", .array(items.map(tagged))]
        case .object(let o): return ["o", .array(o.keys.sorted().map { .array([.string($0), tagged(o[$0]!)]) })]
        }
    }

    private static func untagged(_ j: JSON) -> Value? {
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
                let strings = ids.compactMap(\.stringValue)
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
                let vs = items.compactMap(untagged)
                return vs.count == items.count ? .array(vs) : nil
            case ("o", 2):
                guard case .array(let pairs) = a[1] else { return nil }
                var o: [String: Value] = [:]
                for pair in pairs {
                    guard case .array(let kv) = pair, kv.count == 2, case .string(let k) = kv[0],
                        let v = untagged(kv[1])
                    else { return nil }
                    o[k] = v
                }
                return .object(o)
            default: return nil
            }
            return nil
        }
    }

    private static func double(_ j: JSON) -> Double? { j.stringValue.flatMap(Double.init) }

    private static func point(_ a: JSON, _ b: JSON) -> GeoPoint? {
        guard let lat = double(a), let lon = double(b) else { return nil }
        return GeoPoint(latitude: lat, longitude: lon)
    }

    // MARK: - doc

    /// The `jsonb` text of the query document; `number` gives each field's key.
    static func doc(_ record: Record, number: (String) -> Int) -> String {
        var out = "{"
        var first = true
        for name in record.fieldOrder {
            // Nulls are left out: a null and a missing field both read as SQL NULL.
            guard let v = record.fields[name], case let form = queryForm(v), form != "null" else { continue }
            if !first { out += "," }
            first = false
            out += "\"f\(number(name))\":" + form
        }
        return out + "}"
    }

    /// A value as the translator reads it; `null` for what no pushed-down test reads.
    static func queryForm(_ v: Value) -> String {
        switch v {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return number(d) ?? "null"
        case .string(let s): return s.utf8.contains(0) ? "null" : JSONWriter.string(.string(s))
        case .date(let ms): return String(ms)
        case .pointer(let p): return JSONWriter.string(.string(p.objectId))
        case .geoPoint(let g):
            guard let lat = number(g.latitude), let lon = number(g.longitude) else { return "null" }
            return "[\(lat),\(lon)]"
        case .relation(_, let ids): return "[" + ids.map { JSONWriter.string(.string($0)) }.joined(separator: ",") + "]"
        case .array(let items):
            guard PostgresKind.of(v).map({ if case .unsupported = $0 { return false } else { return true } }) ?? true
            else { return "null" }
            return "[" + items.map(queryForm).joined(separator: ",") + "]"
        case .bytes, .polygon, .file, .object: return "null"
        }
    }

    /// A finite double as a JSON number whose `numeric` value orders against every Int64 and
    /// every other double as the double does (docs/STORAGE.md#postgresql-schema): an integral
    /// double below 2^63 in magnitude is written as that integer, exactly; any other double by
    /// its shortest round-trip text, which lies strictly between the same two integers (below
    /// 2^52 the double's rounding interval holds no integer) and keeps the order of doubles.
    /// -0.0 is 0, which Quarry finds equal to it. Nil for NaN and infinities.
    static func number(_ d: Double) -> String? {
        guard d.isFinite else { return nil }
        if d == d.rounded(.towardZero), d.magnitude < 9.223372036854775808e18 { return String(Int64(d)) }
        return d.description
    }
}
