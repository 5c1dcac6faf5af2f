import Quarry

/// The two forms of a stored object (docs/STORAGE.md#postgresql-schema):
///
/// - `doc`, a `jsonb` object the queries read, keyed by the catalog's field numbers (`f1`,
///   `f2`…, so no field name is ever written into SQL): numbers as JSON numbers written so that
///   `numeric` compares them exactly as Quarry does, dates as epoch milliseconds, pointers as
///   their objectId, geo points as `[lat, lon]`, arrays of scalars as arrays; what a query never
///   reads from `doc` (NaN, infinities, strings with a NUL, bytes, objects…) is `null` there and
///   its field's catalog kind is `unsupported`, so every test on it stays residual.
/// - `raw`, text that reads back exactly, field order kept: the SQLite store's document
///   (`StoredRecordCodec`), which writes a NUL in a string as `\u0000`, six characters that
///   PostgreSQL text holds.
enum PostgresRecordCodec {
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
