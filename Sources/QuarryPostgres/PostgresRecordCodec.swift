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

    /// The `jsonb` text of the query document, appended as UTF-8 (the import's hot path, with no
    /// `String` per value); `number` gives each field's key.
    static func doc(_ record: Record, number: (String) -> Int, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        var first = true
        for name in record.fieldOrder {
            guard let v = record.fields[name] else { continue }
            let start = out.count
            if !first { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: "\"f".utf8)
            out.append(contentsOf: String(number(name)).utf8)
            out.append(contentsOf: "\":".utf8)
            // Nulls are left out: a null and a missing field both read as SQL NULL.
            if writeQueryForm(v, to: &out) { first = false } else { out.removeSubrange(start...) }
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends a value as the translator reads it. False for what no pushed-down test reads, which
    /// is `null` in the document: what it appended is then to be dropped.
    static func writeQueryForm(_ v: Value, to out: inout [UInt8]) -> Bool {
        switch v {
        case .null, .bytes, .polygon, .file, .object: return false
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d):
            guard let n = number(d) else { return false }
            out.append(contentsOf: n.utf8)
        case .string(let s):
            guard !s.utf8.contains(0) else { return false }
            StoredRecordCodec.writeString(s, to: &out)
        case .date(let ms): out.append(contentsOf: String(ms).utf8)
        case .pointer(let p): StoredRecordCodec.writeString(p.objectId, to: &out)
        case .geoPoint(let g):
            guard let lat = number(g.latitude), let lon = number(g.longitude) else { return false }
            out.append(UInt8(ascii: "["))
            out.append(contentsOf: lat.utf8)
            out.append(UInt8(ascii: ","))
            out.append(contentsOf: lon.utf8)
            out.append(UInt8(ascii: "]"))
        case .relation(_, let ids):
            out.append(UInt8(ascii: "["))
            for (i, id) in ids.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                StoredRecordCodec.writeString(id, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .array(let items):
            if case .unsupported? = PostgresKind.of(v) { return false }
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                let start = out.count
                if !writeQueryForm(item, to: &out) {
                    out.removeSubrange(start...)
                    out.append(contentsOf: "null".utf8)
                }
            }
            out.append(UInt8(ascii: "]"))
        }
        return true
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
