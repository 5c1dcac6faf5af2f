import QuarryCore
import QuarryData

/// Reads a stored document's bytes (the SQLite store's `doc`, the PostgreSQL store's `raw`)
/// straight into a record, without a `JSON` tree or a `String` of the whole document
/// (docs/STORAGE.md#reading-rows). It reads what `StoredRecordCodec`
/// writes; anything else (a Parse Bytes value, a document that is not the writer's) makes it
/// give up, and `StoredRecordCodec.decode` reads the document instead, with its diagnostics.
/// `fields`, when given, names the fields to keep; the others are skipped unread.
public struct StoredRecordReader {
    struct Unreadable: Error {}

    private let bytes: UnsafeBufferPointer<UInt8>
    private var at = 0

    /// The field names of the rows read before, kept between the rows of one answer: rows of a
    /// class mostly repeat the last row's names in the same order, so a name whose bytes are the
    /// last row's is that row's `String` (not made and validated again), and a row whose names
    /// are all the last row's shares its field order (no array of its own).
    public final class FieldNames {
        var order: [String] = []
        var bytes: [[UInt8]] = []
        public init() {}
    }

    /// The record; a document that is not one is `corruption` (`StoredRecordCodec.decode`).
    /// - Parameter names: the names of the answer's rows read before, to share.
    public static func record(
        _ bytes: UnsafeBufferPointer<UInt8>, objectId: String, fields wanted: Set<String>? = nil,
        names: FieldNames? = nil, corruption: DiagnosticCode
    ) throws(Diagnostic) -> Record {
        var reader = StoredRecordReader(bytes: bytes)
        if let record = try? reader.record(objectId, wanted, names ?? FieldNames()) { return record }
        let record = try StoredRecordCodec.decode(
            String(decoding: bytes, as: UTF8.self), objectId: objectId, corruption: corruption)
        guard let wanted else { return record }
        return Record(
            objectId: objectId,
            fields: record.fieldOrder.compactMap { n in
                wanted.contains(n) ? record.fields[n].map { (n, $0) } : nil
            })
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Reads straight into the record's dictionary and field order, each allocated once at a
    /// size that fits most objects (the per-row cost of a query that returns many rows).
    private mutating func record(_ objectId: String, _ wanted: Set<String>?, _ names: FieldNames) throws(Unreadable)
        -> Record
    {
        var fields = Record.emptyFields(room: Swift.max(12, names.order.count))
        var order: [String] = []
        // The row's names match the last row's so far (then `order` is not yet made).
        var same = true
        try expect(UInt8(ascii: "["))
        if try peek() == UInt8(ascii: "]") {
            at += 1
        } else {
            repeat {
                try expect(UInt8(ascii: "["))
                let index = same ? fields.count : order.count
                let name = try fieldName(reusing: names, at: same ? index : -1)
                try expect(UInt8(ascii: ","))
                if name == "objectId" || !(wanted?.contains(name) ?? true) {
                    try skipValue()
                } else if fields.updateValue(try value(), forKey: name) == nil {
                    if !same || index >= names.order.count || names.order[index] != name {
                        if same {
                            // The first name that is not the last row's: the order so far is its.
                            order = Array(names.order.prefix(index))
                            order.reserveCapacity(12)
                            same = false
                        }
                        order.append(name)
                    }
                }
                try expect(UInt8(ascii: "]"))
            } while try separator(UInt8(ascii: "]"))
        }
        guard at == bytes.count else { throw Unreadable() }
        if same {
            if fields.count == names.order.count {
                return Record(objectId: objectId, fields: fields, fieldOrder: names.order)
            }
            order = Array(names.order.prefix(fields.count))
        }
        names.order = order
        names.bytes = order.map { Array($0.utf8) }
        return Record(objectId: objectId, fields: fields, fieldOrder: order)
    }

    /// A field's name: the last row's `String` at `index` when the bytes are the same.
    private mutating func fieldName(reusing names: FieldNames, at index: Int) throws(Unreadable) -> String {
        let (start, end, escaped) = try skipString()
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if escaped { return try Self.unescaped(raw) }
        if index >= 0, index < names.bytes.count, names.bytes[index].withUnsafeBufferPointer({ Bytes.equal($0, raw) }) {
            return names.order[index]
        }
        return String(decoding: raw, as: UTF8.self)
    }

    // MARK: - Values

    private mutating func value() throws(Unreadable) -> Value {
        switch try peek() {
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "["): return try tagged()
        default: return .int(try int())
        }
    }

    /// `[tag, …]`, as `StoredRecordCodec.encode` writes each value JSON cannot hold exactly.
    private mutating func tagged() throws(Unreadable) -> Value {
        try expect(UInt8(ascii: "["))
        let tag = try tagLetter()
        try expect(UInt8(ascii: ","))
        let v: Value
        switch tag {
        case UInt8(ascii: "d"): v = .double(try double())
        case UInt8(ascii: "t"): v = .date(try int())
        case UInt8(ascii: "g"): v = .geoPoint(try point())
        case UInt8(ascii: "p"):
            let c = try string()
            try expect(UInt8(ascii: ","))
            v = .pointer(Pointer(className: c, objectId: try string()))
        case UInt8(ascii: "r"):
            let c = try string()
            try expect(UInt8(ascii: ","))
            var ids: [String] = []
            try list { (r: inout StoredRecordReader) throws(Unreadable) in ids.append(try r.string()) }
            v = .relation(className: c, objectIds: ids)
        case UInt8(ascii: "y"):
            var ps: [GeoPoint] = []
            try list { (r: inout StoredRecordReader) throws(Unreadable) in
                try r.expect(UInt8(ascii: "["))
                ps.append(try r.point())
                try r.expect(UInt8(ascii: "]"))
            }
            v = .polygon(ps)
        case UInt8(ascii: "f"):
            let name = try string()
            try expect(UInt8(ascii: ","))
            if try peek() == UInt8(ascii: "n") {
                try literal("null")
                v = .file(FileRef(name: name))
            } else {
                v = .file(FileRef(name: name, url: try string()))
            }
        case UInt8(ascii: "a"):
            var items: [Value] = []
            try list { (r: inout StoredRecordReader) throws(Unreadable) in
                // Room for four at the first item: most arrays are short, and growing one by
                // appends allocated it two or three times.
                if items.isEmpty { items.reserveCapacity(4) }
                items.append(try r.value())
            }
            v = .array(items)
        case UInt8(ascii: "o"):
            var o: [String: Value] = [:]
            try list { (r: inout StoredRecordReader) throws(Unreadable) in
                try r.expect(UInt8(ascii: "["))
                let k = try r.string()
                try r.expect(UInt8(ascii: ","))
                o[k] = try r.value()
                try r.expect(UInt8(ascii: "]"))
            }
            v = .object(o)
        default: throw Unreadable()  // "b" (Parse Bytes) and anything unknown: the full decoder
        }
        try expect(UInt8(ascii: "]"))
        return v
    }

    /// A tag: one letter in a JSON string.
    private mutating func tagLetter() throws(Unreadable) -> UInt8 {
        guard at + 3 <= bytes.count, bytes[at] == UInt8(ascii: "\""), bytes[at + 2] == UInt8(ascii: "\"") else {
            throw Unreadable()
        }
        defer { at += 3 }
        return bytes[at + 1]
    }

    /// `[item, …]`, each item read by `body`.
    private mutating func list(_ body: (inout StoredRecordReader) throws(Unreadable) -> Void) throws(Unreadable) {
        try expect(UInt8(ascii: "["))
        if try peek() == UInt8(ascii: "]") {
            at += 1
            return
        }
        repeat { try body(&self) } while try separator(UInt8(ascii: "]"))
    }

    private mutating func skipValue() throws(Unreadable) {
        switch try peek() {
        case UInt8(ascii: "\""): _ = try skipString()
        case UInt8(ascii: "["):
            try list { (r: inout StoredRecordReader) throws(Unreadable) in try r.skipValue() }
        default:
            while at < bytes.count, bytes[at] != UInt8(ascii: ","), bytes[at] != UInt8(ascii: "]") { at += 1 }
        }
    }

    private mutating func point() throws(Unreadable) -> GeoPoint {
        let lat = try double()
        try expect(UInt8(ascii: ","))
        return GeoPoint(latitude: lat, longitude: try double())
    }

    /// A double written as Swift's round-trip text, in a JSON string.
    private mutating func double() throws(Unreadable) -> Double {
        let (start, end, escaped) = try skipString()
        if !escaped, let d = DecimalText.exact(UnsafeBufferPointer(rebasing: bytes[start..<end])) { return d }
        guard !escaped,
            let d = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
        else { throw Unreadable() }
        return d
    }

    private mutating func int() throws(Unreadable) -> Int64 {
        var negative = false
        if at < bytes.count, bytes[at] == UInt8(ascii: "-") {
            negative = true
            at += 1
        }
        let start = at
        var magnitude: UInt64 = 0
        while at < bytes.count, bytes[at] >= 48, bytes[at] <= 57 {
            let (m, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(UInt64(bytes[at] - 48))
            guard !o1, !o2 else { throw Unreadable() }
            magnitude = s
            at += 1
        }
        guard at > start else { throw Unreadable() }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw Unreadable() }
            return magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw Unreadable() }
        return Int64(magnitude)
    }

    // MARK: - Strings

    private mutating func string() throws(Unreadable) -> String {
        let (start, end, escaped) = try skipString()
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
        return escaped ? try Self.unescaped(raw) : String(decoding: raw, as: UTF8.self)
    }

    /// Moves past a JSON string; its content's bounds and whether it holds escapes.
    private mutating func skipString() throws(Unreadable) -> (Int, Int, Bool) {
        try expect(UInt8(ascii: "\""))
        let start = at
        var escaped = false
        while at < bytes.count {
            switch bytes[at] {
            case UInt8(ascii: "\""):
                at += 1
                return (start, at - 1, escaped)
            case UInt8(ascii: "\\"):
                escaped = true
                at += 2
            default: at += 1
            }
        }
        throw Unreadable()
    }

    private static func unescaped(_ raw: UnsafeBufferPointer<UInt8>) throws(Unreadable) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        while i < raw.count {
            let b = raw[i]
            i += 1
            guard b == UInt8(ascii: "\\") else {
                out.append(b)
                continue
            }
            guard i < raw.count else { throw Unreadable() }
            let e = raw[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                // The writer escapes only control characters this way; surrogates are left
                // to the full decoder.
                guard i + 4 <= raw.count, let code = hex(raw, i), code < 0xD800 || code > 0xDFFF,
                    let scalar = Unicode.Scalar(code)
                else { throw Unreadable() }
                i += 4
                out.append(contentsOf: String(Character(scalar)).utf8)
            default: throw Unreadable()
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hex(_ raw: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt32? {
        var code: UInt32 = 0
        for b in raw[i..<i + 4] {
            let digit: UInt8
            switch b {
            case 48...57: digit = b - 48
            case 65...70: digit = b - 55
            case 97...102: digit = b - 87
            default: return nil
            }
            code = code << 4 | UInt32(digit)
        }
        return code
    }

    // MARK: - Punctuation

    private func peek() throws(Unreadable) -> UInt8 {
        guard at < bytes.count else { throw Unreadable() }
        return bytes[at]
    }

    private mutating func expect(_ b: UInt8) throws(Unreadable) {
        guard at < bytes.count, bytes[at] == b else { throw Unreadable() }
        at += 1
    }

    /// After a list item: true at a comma (another item follows), false at `close`.
    private mutating func separator(_ close: UInt8) throws(Unreadable) -> Bool {
        guard at < bytes.count else { throw Unreadable() }
        let b = bytes[at]
        at += 1
        if b == UInt8(ascii: ",") { return true }
        guard b == close else { throw Unreadable() }
        return false
    }

    private mutating func literal(_ word: StaticString) throws(Unreadable) {
        let n = word.utf8CodeUnitCount
        guard at + n <= bytes.count else { throw Unreadable() }
        for k in 0..<n where bytes[at + k] != word.utf8Start[k] { throw Unreadable() }
        at += n
    }
}
