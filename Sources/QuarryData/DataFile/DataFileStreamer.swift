import Foundation
import QuarryCore

extension DataFile {
    /// How `read(path:into:)` ended.
    public enum ReadOutcome {
        /// Every object went to the sink.
        case streamed
        /// The direct reader stopped at something only the record loader reads; the sink's
        /// contents are incomplete and these records are the file's data.
        case records(Database)
    }

    /// Reads the file at `path` into `sink` field by field, straight from the bytes
    /// (docs/STORAGE.md#direct-loading): the file is mapped and read once, front to back, and
    /// the pages behind the reader leave memory. Accepts exactly what `load` accepts. A file that
    /// `load` rejects is rejected with `load`'s error, located the same way: the direct reader
    /// stops at the first problem and the record loader reads the file again to describe it.
    /// `progress` is called now and then with the bytes read so far and the file's size.
    public static func read(
        path: String, className: String? = nil, format: Format = .auto, parser: JSONParser = JSONParser(),
        into sink: inout some DataFileSink, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws(DataFileError) -> ReadOutcome {
        try readDirect(path, className, format, parser, &sink, progress)
    }

    /// `read(path:into:)` into a pipelined sink, with the reader specialized for it (a generic
    /// reader called from another module looks up its type's layout at every step).
    public static func read(
        path: String, className: String? = nil, format: Format = .auto, parser: JSONParser = JSONParser(),
        into sink: inout PipelinedSink, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws(DataFileError) -> ReadOutcome {
        try readDirect(path, className, format, parser, &sink, progress)
    }

    private static func readDirect(
        _ path: String, _ className: String?, _ format: Format, _ parser: JSONParser,
        _ sink: inout some DataFileSink, _ progress: ((Int, Int) -> Void)?
    ) throws(DataFileError) -> ReadOutcome {
        let file: MappedFile
        do {
            file = try MappedFile(path: path)
        } catch {
            // A sink working behind the reader is told that reading is over even so.
            _ = sink.drain()
            throw error
        }
        let lowered = path.lowercased()
        let byName: Format = lowered.hasSuffix(".ndjson") || lowered.hasSuffix(".jsonl") ? .ndjson : .auto
        let chosen = format == .auto ? byName : format
        let defaultClass = className ?? defaultClassName(forPath: path)
        var streamer = DataFileStreamer(
            buf: file.bytes, file: file, defaultClass: defaultClass, parser: parser, sink: sink, progress: progress)
        let finished = streamer.read(chosen)
        let built = streamer.sink.drain()
        sink = streamer.sink
        if finished && built { return .streamed }
        var loader = DataFileLoader(buf: file.bytes, fileName: path, defaultClass: defaultClass, parser: parser)
        return .records(try loader.load(chosen))
    }
}

/// The direct reader behind `DataFile.read(path:into:)`: the layouts of `DataFileLoader`, read
/// without building a tree per object. Common values (scalars, arrays of scalars, Date,
/// GeoPoint and Pointer wrappers) are decoded from the bytes; any other value is parsed as a
/// tree and decoded by `ParseJSON`, as the record loader does. Anything the record loader would
/// reject stops the reader (it returns false), and the caller lets the record loader report it.
struct DataFileStreamer<Sink: DataFileSink> {
    let buf: UnsafeBufferPointer<UInt8>
    let file: MappedFile
    let defaultClass: String
    let parser: JSONParser
    var sink: Sink
    let progress: ((Int, Int) -> Void)?
    private var classes: Set<String> = []
    /// The current class's keys by their position in an object: objects of a class usually
    /// list the same keys in the same order, so a key is found by comparing its bytes.
    private var keys: [CachedKey] = []
    /// Where the current class's first object starts (to estimate how many follow).
    private var classStart = 0

    /// The direct reader met something it leaves to the record loader.
    private struct Stop: Error {}

    init(
        buf: UnsafeBufferPointer<UInt8>, file: MappedFile, defaultClass: String, parser: JSONParser, sink: Sink,
        progress: ((Int, Int) -> Void)?
    ) {
        self.buf = buf
        self.file = file
        self.defaultClass = defaultClass
        self.parser = parser
        self.sink = sink
        self.progress = progress
    }

    /// Whether the whole file went to the sink.
    mutating func read(_ format: DataFile.Format) -> Bool {
        do {
            switch format {
            case .ndjson: try readNDJSON()
            case .json: try readJSON()
            case .auto:
                if DataFileLoader.looksLikeNDJSON(buf, parser) { try readNDJSON() } else { try readJSON() }
            }
            progress?(buf.count, buf.count)
            return true
        } catch {
            return false
        }
    }

    // MARK: Layouts

    private mutating func readJSON() throws {
        let start = DataFileLoader.firstNonBlank(buf)
        guard start < buf.count else { throw Stop() }
        var top = reader(at: start, depthAbove: 0)
        if buf[start] == UInt8(ascii: "[") {
            try readObjects(&top, className: defaultClass, depthAbove: 1)
        } else if buf[start] == UInt8(ascii: "{") {
            try readClasses(&top)
        } else {
            throw Stop()
        }
        top.skipWhitespace()
        guard top.pos == buf.count else { throw Stop() }
    }

    /// `{"Class": [objects…], …}`; `results` holds objects of the default class, and a numeric
    /// `count` beside it is ignored.
    private mutating func readClasses(_ top: inout JSONReader<TreeBuilder>) throws {
        top.pos += 1
        top.skipWhitespace()
        if take(&top, "}") { return }
        var sawResults = false, sawCount = false
        while true {
            guard top.pos < buf.count, buf[top.pos] == UInt8(ascii: "\"") else { throw Stop() }
            let key = try top.parseString()
            top.skipWhitespace()
            guard take(&top, ":") else { throw Stop() }
            top.skipWhitespace()
            if top.pos < buf.count, buf[top.pos] == UInt8(ascii: "[") {
                sawResults = sawResults || key == "results"
                let className = key == "results" ? defaultClass : key
                guard !className.isEmpty else { throw Stop() }
                try readObjects(&top, className: className, depthAbove: 2)
            } else if key == "count", case .int = try top.parseValue() {
                sawCount = true
            } else {
                throw Stop()
            }
            top.skipWhitespace()
            if take(&top, "}") {
                if sawCount && !sawResults { throw Stop() }
                return
            }
            guard take(&top, ",") else { throw Stop() }
            top.skipWhitespace()
        }
    }

    /// `[objects…]` at the reader's position, into `className`.
    private mutating func readObjects(
        _ top: inout JSONReader<TreeBuilder>, className: String, depthAbove: Int
    ) throws {
        try begin(className)
        var r = reader(at: top.pos + 1, depthAbove: depthAbove + 1)
        r.skipWhitespace()
        if !take(&r, "]") {
            var index = 0
            while true {
                index += 1
                try readObject(&r, className: className, index: index, depthAbove: depthAbove)
                r.skipWhitespace()
                if take(&r, "]") { break }
                guard take(&r, ",") else { throw Stop() }
                r.skipWhitespace()
            }
        }
        top.pos = r.pos
    }

    private mutating func readNDJSON() throws {
        try begin(defaultClass)
        var index = 0
        try NDJSON.forEachLine(buf) { _, start, end throws in
            index += 1
            // A byte-order mark is skipped at the very start only, as `JSONParser` does.
            let bom = start == 0 && end >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF
            let from = bom ? 3 : start
            var r = JSONReader(
                buf, from: from, to: end, maxDepth: parser.maxDepth, outerDepth: 1, builder: TreeBuilder())
            r.skipWhitespace()
            try readObject(&r, className: defaultClass, index: index, depthAbove: 0)
            r.skipWhitespace()
            guard r.pos == end else { throw Stop() }
        }
    }

    private mutating func begin(_ className: String) throws {
        guard classes.insert(className).inserted else { throw Stop() }
        keys.removeAll()
        sink.beginClass(className)
    }

    // MARK: Objects

    /// One object at the reader's position; `r` reads its members' values (its outer depth
    /// counts the object).
    private mutating func readObject(
        _ r: inout JSONReader<TreeBuilder>, className: String, index: Int, depthAbove: Int
    ) throws {
        guard depthAbove < parser.maxDepth, take(&r, "{") else { throw Stop() }
        let objectStart = r.pos
        r.skipWhitespace()
        var objectId: String? = nil
        if !take(&r, "}") {
            var position = 0
            while true {
                guard r.pos < r.end, buf[r.pos] == UInt8(ascii: "\"") else { throw Stop() }
                let key = try self.key(&r, position)
                position += 1
                r.skipWhitespace()
                guard take(&r, ":") else { throw Stop() }
                r.skipWhitespace()
                guard r.pos < r.end else { throw Stop() }
                switch key.role {
                case .objectId:
                    guard buf[r.pos] == UInt8(ascii: "\"") else { throw Stop() }
                    let id = try r.parseString()
                    guard !id.isEmpty else { throw Stop() }
                    objectId = id
                case .createdAt, .updatedAt:
                    let name = key.role == .createdAt ? "createdAt" : "updatedAt"
                    let v = try ParseJSON.systemDate(try r.parseValue(), field: name)
                    sink.value(v, field: key.field)
                case .plain:
                    let v = try value(&r)
                    sink.value(v, field: key.field)
                }
                r.skipWhitespace()
                if take(&r, "}") { break }
                guard take(&r, ",") else { throw Stop() }
                r.skipWhitespace()
            }
        }
        guard sink.endObject(objectId: objectId ?? "\(className)-\(index)") else { throw Stop() }
        if index == 1 { classStart = objectStart }
        if index == 1024 { sink.expect(index + (buf.count - r.pos) / max(1, (r.pos - classStart) / index)) }
        if index & 4095 == 0 {
            file.release(before: objectStart)
            progress?(r.pos, buf.count)
        }
    }

    /// What the key at `r` (its opening quote) is, from the cache when its bytes are the ones
    /// seen at this position before (only what it is is handed back: a `CachedKey` copied out would
    /// retain and release its bytes for every member read).
    private mutating func key(_ r: inout JSONReader<TreeBuilder>, _ position: Int) throws -> KeyUse {
        let start = r.pos + 1
        if position < keys.count {
            let cached = keys[position].bytes
            let end = start + cached.count
            if end < r.end, buf[end] == UInt8(ascii: "\""),
                cached.isEmpty
                    || cached.withUnsafeBufferPointer({
                        memcmp($0.baseAddress!, buf.baseAddress! + start, $0.count) == 0
                    })
            {
                r.pos = end + 1
                return keys[position].use
            }
        }
        let name = try r.parseString()
        let role: KeyUse.Role
        switch name {
        case "objectId": role = .objectId
        case "createdAt": role = .createdAt
        case "updatedAt": role = .updatedAt
        default: role = .plain
        }
        let found = CachedKey(
            bytes: Array(buf[start..<(r.pos - 1)]),
            use: KeyUse(role: role, field: role == .objectId ? -1 : sink.field(named: name)))
        // Only keys written without escapes are found by their bytes.
        if !found.bytes.contains(UInt8(ascii: "\\")) {
            if position < keys.count { keys[position] = found } else if position == keys.count { keys.append(found) }
        }
        return found.use
    }

    // MARK: Values

    /// A member's value, decoded as `ParseJSON.decode` and the record loader's coordinate check
    /// would.
    private func value(_ r: inout JSONReader<TreeBuilder>) throws -> Value {
        switch buf[r.pos] {
        case UInt8(ascii: "\""): return .string(try r.parseString())
        case UInt8(ascii: "["): if let v = try scalars(&r) { return v }
        case UInt8(ascii: "{"): if let v = try wrapper(&r) { return v }
        default: break
        }
        let v = try ParseJSON.decode(try r.parseValue())
        try ParseJSON.checkCoordinates(v)
        return v
    }

    /// An array of scalars; nil (the reader back at the array) when an element is a container.
    private func scalars(_ r: inout JSONReader<TreeBuilder>) throws -> Value? {
        let start = r.pos
        guard r.outerDepth < r.maxDepth else { throw Stop() }
        r.pos += 1
        r.skipWhitespace()
        var items: [Value] = []
        if take(&r, "]") { return .array(items) }
        while true {
            guard r.pos < r.end else { throw Stop() }
            switch buf[r.pos] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                r.pos = start
                return nil
            case UInt8(ascii: "\""): items.append(.string(try r.parseString()))
            default: items.append(try ParseJSON.decode(try r.parseValue()))
            }
            r.skipWhitespace()
            if take(&r, "]") { return .array(items) }
            guard take(&r, ",") else { throw Stop() }
            r.skipWhitespace()
        }
    }

    /// A Date, GeoPoint or Pointer wrapper with exactly its members, all scalars, read in
    /// place: keys and the type name compared by their bytes (decoded first only when written
    /// with escapes), a Date's `iso` parsed from its bytes; no `String` per key and no `JSON`
    /// per member. Anything else (another key, a repeated one, a value of another kind, a date
    /// or coordinate out of range) gives nil with the reader back at the object, for the tree
    /// path to decode.
    private func wrapper(_ r: inout JSONReader<TreeBuilder>) throws -> Value? {
        let start = r.pos
        guard r.outerDepth < r.maxDepth else { throw Stop() }
        r.pos += 1
        r.skipWhitespace()
        func back() -> Value? {
            r.pos = start
            return nil
        }
        var type: WrapperType? = nil, iso: Int64? = nil
        var latitude: Double? = nil, longitude: Double? = nil
        var className: String? = nil, objectId: String? = nil
        var members = 0
        while true {
            guard let found = try string(&r, WrapperKey.init), let key = found else { return back() }
            r.skipWhitespace()
            guard take(&r, ":") else { return back() }
            r.skipWhitespace()
            guard r.pos < r.end else { return back() }
            members += 1
            switch key {
            case .type:
                guard type == nil, let found = try string(&r, WrapperType.init), let t = found else { return back() }
                type = t
            case .iso:
                guard iso == nil, let found = try string(&r, ISODate.parse(utf8:)), let ms = found else {
                    return back()
                }
                iso = ms
            case .latitude:
                guard latitude == nil, let d = try number(&r) else { return back() }
                latitude = d
            case .longitude:
                guard longitude == nil, let d = try number(&r) else { return back() }
                longitude = d
            case .className:
                guard className == nil, buf[r.pos] == UInt8(ascii: "\"") else { return back() }
                className = try r.parseString()
            case .objectId:
                guard objectId == nil, buf[r.pos] == UInt8(ascii: "\"") else { return back() }
                objectId = try r.parseString()
            }
            r.skipWhitespace()
            if take(&r, "}") { break }
            guard take(&r, ",") else { return back() }
            r.skipWhitespace()
        }
        switch type {
        case .date? where members == 2:
            if let iso { return .date(iso) }
        case .geoPoint? where members == 3:
            if let lat = latitude, let lon = longitude, lat.isFinite, abs(lat) <= 90, lon.isFinite, abs(lon) <= 180 {
                return .geoPoint(GeoPoint(latitude: lat, longitude: lon))
            }
        case .pointer? where members == 3:
            if let c = className, let id = objectId, !c.isEmpty, !id.isEmpty {
                return .pointer(Pointer(className: c, objectId: id))
            }
        default: break
        }
        return back()
    }

    /// `body` of the UTF-8 bytes of the string at the reader, the reader past it: the bytes in
    /// place when written without escapes, else decoded first. Nil when no string is next.
    private func string<T>(
        _ r: inout JSONReader<TreeBuilder>, _ body: (UnsafeBufferPointer<UInt8>) -> T
    ) throws -> T? {
        if let bytes = plainString(&r) { return body(bytes) }
        guard r.pos < r.end, buf[r.pos] == UInt8(ascii: "\"") else { return nil }
        var decoded = try r.parseString()
        return decoded.withUTF8(body)
    }

    /// The bytes of a string at the reader written without escapes or control characters (the
    /// string is those bytes), the reader past it; nil otherwise, the reader where it was.
    private func plainString(_ r: inout JSONReader<TreeBuilder>) -> UnsafeBufferPointer<UInt8>? {
        guard r.pos < r.end, buf[r.pos] == UInt8(ascii: "\"") else { return nil }
        var i = r.pos + 1
        while i < r.end {
            let b = buf[i]
            if b == UInt8(ascii: "\"") {
                defer { r.pos = i + 1 }
                return UnsafeBufferPointer(rebasing: buf[(r.pos + 1)..<i])
            }
            if b == UInt8(ascii: "\\") || b < 0x20 { return nil }
            i += 1
        }
        return nil
    }

    /// A number member's value as a double, as `JSON.doubleValue` gives it; nil for another kind.
    private func number(_ r: inout JSONReader<TreeBuilder>) throws -> Double? {
        let b = buf[r.pos]
        guard b == UInt8(ascii: "-") || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) else { return nil }
        return try r.parseValue().doubleValue
    }

    // MARK: Bytes

    private func reader(at start: Int, depthAbove: Int) -> JSONReader<TreeBuilder> {
        JSONReader(
            buf, from: start, to: buf.count, maxDepth: parser.maxDepth, outerDepth: depthAbove, builder: TreeBuilder())
    }

    /// Steps over `c` when it is next.
    @inline(__always) private func take(_ r: inout JSONReader<TreeBuilder>, _ c: Unicode.Scalar) -> Bool {
        guard r.pos < r.end, buf[r.pos] == UInt8(ascii: c) else { return false }
        r.pos += 1
        return true
    }
}

/// Whether the bytes are those of an ASCII literal.
private func plainEqual(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
    guard bytes.count == literal.utf8CodeUnitCount, let base = bytes.baseAddress else { return false }
    return memcmp(base, literal.utf8Start, bytes.count) == 0
}

/// A key `DataFileStreamer` met at a position of its class's objects: its bytes, and what it is.
private struct CachedKey {
    var bytes: [UInt8]
    var use: KeyUse
}

/// What an object's key is to `DataFileStreamer`: the objectId, a system date, or a field and
/// its number (outside the generic streamer, so that it has no generic metadata).
private struct KeyUse {
    enum Role { case objectId, createdAt, updatedAt, plain }
    let role: Role
    let field: Int
}

/// The wrapper types `DataFileStreamer.wrapper` reads (outside the generic streamer, so that
/// passing their initializers along captures no `Sink` metatype).
private enum WrapperType {
    case date, geoPoint, pointer

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        if plainEqual(bytes, "Date") {
            self = .date
        } else if plainEqual(bytes, "GeoPoint") {
            self = .geoPoint
        } else if plainEqual(bytes, "Pointer") {
            self = .pointer
        } else {
            return nil
        }
    }
}

/// The members `DataFileStreamer.wrapper` reads.
private enum WrapperKey {
    case type, iso, latitude, longitude, className, objectId

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        switch bytes.count {
        case 3 where plainEqual(bytes, "iso"): self = .iso
        case 6 where plainEqual(bytes, "__type"): self = .type
        case 8 where plainEqual(bytes, "latitude"): self = .latitude
        case 8 where plainEqual(bytes, "objectId"): self = .objectId
        case 9 where plainEqual(bytes, "longitude"): self = .longitude
        case 9 where plainEqual(bytes, "className"): self = .className
        default: return nil
        }
    }
}
