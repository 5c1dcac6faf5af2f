import QuarryCore
import QuarryData

/// The text of the `doc` column: a record written so that it reads back exactly — every
/// `Value` (NaN, infinities and -0.0 too, which JSON numbers cannot hold), field order kept.
/// A JSON array of `[name, value]` pairs; values are JSON scalars where JSON is exact
/// (null, bools, integers, strings) and tagged arrays otherwise (docs/STORAGE.md):
/// `["d", "1.5"]` double (Swift's round-trip text), `["t", ms]` date, `["g", lat, lon]`,
/// `["p", class, id]`, `["r", class, [ids]]`, `["b", Parse Bytes wrapper]`, `["y", [[lat, lon]…]]`,
/// `["f", name, url|null]`, `["a", [values]]`, `["o", [[key, value]…]]`.
///
/// Both stores keep objects in this form: the SQLite store's `doc` column and the PostgreSQL
/// store's `raw` column (docs/STORAGE.md). A control character in a string, NUL included, is
/// written `\u00XX`, so the text never holds one (PostgreSQL text cannot hold a NUL).
public enum StoredRecordCodec {
    /// The document's text appended to `out`, written directly rather than through a `JSON`
    /// tree (the import's hot path, docs/STORAGE.md#writes): the same document, every control
    /// character escaped as `\u00XX`.
    public static func write(_ record: Record, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        var first = true
        for name in record.fieldOrder {
            guard let v = record.fields[name] else { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(UInt8(ascii: "["))
            writeString(name, to: &out)
            out.append(UInt8(ascii: ","))
            write(v, to: &out)
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "]"))
    }

    private static func write(_ v: Value, to out: inout [UInt8]) {
        switch v {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .string(let s): writeString(s, to: &out)
        case .double(let d): tagged("d", to: &out) { writeString(d.description, to: &$0) }
        case .date(let ms): tagged("t", to: &out) { $0.append(contentsOf: String(ms).utf8) }
        case .geoPoint(let g): tagged("g", to: &out) { writePoint(g, to: &$0) }
        case .pointer(let p):
            tagged("p", to: &out) {
                writeString(p.className, to: &$0)
                $0.append(UInt8(ascii: ","))
                writeString(p.objectId, to: &$0)
            }
        case .array(let items):
            tagged("a", to: &out) { out in list(items, to: &out) { write($0, to: &$1) } }
        default: JSONWriter.write(encode(v), to: &out)  // the rarer kinds, through the tree
        }
    }

    private static func tagged(_ tag: StaticString, to out: inout [UInt8], _ body: (inout [UInt8]) -> Void) {
        // Byte by byte: an array literal here would be allocated for every value.
        out.append(UInt8(ascii: "["))
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: UnsafeBufferPointer(start: tag.utf8Start, count: tag.utf8CodeUnitCount))
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ","))
        body(&out)
        out.append(UInt8(ascii: "]"))
    }

    private static func list<T>(_ items: [T], to out: inout [UInt8], _ each: (T, inout [UInt8]) -> Void) {
        out.append(UInt8(ascii: "["))
        for (i, item) in items.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            each(item, &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    private static func writePoint(_ g: GeoPoint, to out: inout [UInt8]) {
        writeString(g.latitude.description, to: &out)
        out.append(UInt8(ascii: ","))
        writeString(g.longitude.description, to: &out)
    }

    /// A JSON string: `"`, `\` and control characters escaped.
    package static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings need no escape: their bytes are copied at once.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out.append(contentsOf: s.utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), b])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), 48, 48, hex[Int(b >> 4)], hex[Int(b & 15)],
                ])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The record a document holds; a document that is not one is `corruption`, located at the
    /// object (each store has its own code, naming its own column).
    public static func decode(_ text: String, objectId: String, corruption: DiagnosticCode) throws(Diagnostic)
        -> Record
    {
        func corrupt(_ why: String) -> Diagnostic {
            Diagnostic(corruption, "the stored object \(objectId) cannot be read: \(why)")
        }
        let json: JSON
        do throws(Diagnostic) {
            json = try JSONParser().parse(text)
        } catch {
            throw corrupt(error.message)
        }
        guard case .array(let pairs) = json else { throw corrupt("not an array of fields") }
        var fields: [(String, Value)] = []
        fields.reserveCapacity(pairs.count)
        for pair in pairs {
            guard case .array(let p) = pair, p.count == 2, case .string(let name) = p[0] else {
                throw corrupt("a field is not a [name, value] pair")
            }
            guard let v = value(p[1]) else { throw corrupt("the field \(name) holds an unreadable value") }
            fields.append((name, v))
        }
        return Record(objectId: objectId, fields: fields)
    }

    public static func encode(_ v: Value) -> JSON {
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
