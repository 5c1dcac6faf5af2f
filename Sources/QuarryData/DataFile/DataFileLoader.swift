import QuarryCore

/// Streams a data file: the top-level layout is read here, and each object is parsed, decoded
/// and stored before the next is read, so no tree of the whole file is ever built. Ranges are
/// recorded only when an error has to be located (by parsing that one object again).
struct DataFileLoader {
    let buf: UnsafeBufferPointer<UInt8>
    let fileName: String
    let defaultClass: String
    let parser: JSONParser
    private var classes: [String: ClassData] = [:]
    private var classOrder: [String] = []
    /// When set, each object goes here as soon as it is decoded instead of into a class
    /// (`DataFile.stream`); only the objectIds are kept, to find repeated ones.
    var sink: ((Record, String) throws(DataFileError) -> Void)?
    private var seenIds: [String: [String: Int]] = [:]

    init(buf: UnsafeBufferPointer<UInt8>, fileName: String, defaultClass: String, parser: JSONParser) {
        self.buf = buf
        self.fileName = fileName
        self.defaultClass = defaultClass
        self.parser = parser
    }

    mutating func load(_ format: DataFile.Format) throws(DataFileError) -> Database {
        switch format {
        case .ndjson: try loadNDJSON()
        case .json: try loadJSON()
        case .auto: if Self.looksLikeNDJSON(buf, parser) { try loadNDJSON() } else { try loadJSON() }
        }
        return Database(classOrder.compactMap { classes[$0] })
    }

    // MARK: Layouts

    private mutating func loadJSON() throws(DataFileError) {
        let start = firstNonBlank()
        guard start < buf.count else {
            throw error(.data.shape, "the file is empty: expected \(Self.layouts)", at: start)
        }
        switch buf[start] {
        case UInt8(ascii: "["):
            var reader = makeReader(at: start, depthAbove: 1)
            try add(try readObjectArray(&reader, className: defaultClass), keyAt: start)
            try expectEnd(&reader)
        case UInt8(ascii: "{"):
            var reader = makeReader(at: start, depthAbove: 2)
            try readClasses(&reader)
            try expectEnd(&reader)
        default:
            let found = describeValue(at: start, makeReader(at: start, depthAbove: 0))
            throw error(.data.shape, "expected \(Self.layouts), but found \(found)", at: start)
        }
    }

    private static let layouts =
        #"an object of classes ({"Class": [objects…]}), an array of objects, {"results": [objects…]} or one object a line (NDJSON)"#

    /// `{"Class": [objects…], …}`; `results` holds objects of the default class.
    private mutating func readClasses(_ reader: inout JSONReader<TreeBuilder>) throws(DataFileError) {
        reader.pos += 1
        reader.skipWhitespace()
        if reader.pos < reader.end && buf[reader.pos] == UInt8(ascii: "}") {
            reader.pos += 1
            return
        }
        var afterComma = false
        var sawResults = false
        var countAt: Int?
        while true {
            guard reader.pos < reader.end, buf[reader.pos] == UInt8(ascii: "\"") else {
                if afterComma && reader.pos < reader.end && buf[reader.pos] == UInt8(ascii: "}") {
                    throw syntax(
                        reader.unexpected("a class name after ','", note: " (JSON does not allow trailing commas)"))
                }
                throw syntax(reader.unexpected(afterComma ? "a class name after ','" : "a class name or '}'"))
            }
            let keyAt = reader.pos
            let key: String
            do { key = try reader.parseString() } catch { throw syntax(error) }
            reader.skipWhitespace()
            guard reader.pos < reader.end, buf[reader.pos] == UInt8(ascii: ":") else {
                throw syntax(reader.unexpected("':' after the class name"))
            }
            reader.pos += 1
            reader.skipWhitespace()
            let valueAt = reader.pos
            if valueAt < reader.end && buf[valueAt] == UInt8(ascii: "[") {
                sawResults = sawResults || key == "results"
                let className = key == "results" ? defaultClass : key
                guard !className.isEmpty else { throw error(.data.shape, "a class name must not be empty", at: keyAt) }
                try add(try readObjectArray(&reader, className: className), keyAt: keyAt)
            } else if key == "count", case .int? = try? reader.parseValue() {
                countAt = valueAt  // Parse's `{"results": […], "count": n}`: checked below
            } else {
                reader.pos = valueAt
                throw notAClass(key, at: valueAt, reader)
            }
            reader.skipWhitespace()
            guard reader.pos < reader.end else { throw syntax(reader.unexpected("',' or '}' after a class")) }
            if buf[reader.pos] == UInt8(ascii: "}") {
                reader.pos += 1
                if let countAt, !sawResults { throw notAClass("count", at: countAt, reader) }
                return
            }
            guard buf[reader.pos] == UInt8(ascii: ",") else {
                throw syntax(reader.unexpected("',' or '}' after a class"))
            }
            reader.pos += 1
            reader.skipWhitespace()
            afterComma = true
        }
    }

    private func notAClass(_ key: String, at: Int, _ reader: JSONReader<TreeBuilder>) -> DataFileError {
        let hint = key == "objectId" ? " (a file of one object a line needs a .ndjson name)" : ""
        return error(
            .data.shape,
            "expected an array of objects for class '\(key)' but found \(describeValue(at: at, reader))\(hint)",
            at: at)
    }

    /// `[objects…]` at the reader's position.
    private mutating func readObjectArray(
        _ reader: inout JSONReader<TreeBuilder>,
        className: String
    ) throws(DataFileError) -> ClassData {
        var data = ClassData(name: className)
        reader.pos += 1
        reader.skipWhitespace()
        if reader.pos < reader.end && buf[reader.pos] == UInt8(ascii: "]") {
            reader.pos += 1
            return data
        }
        var index = 0
        while true {
            index += 1
            let start = reader.pos
            let value: JSON
            do { value = try reader.parseValue() } catch {
                throw syntax(error, className: className, objectIndex: index)
            }
            try addObject(value, to: &data, index: index, from: start, to: reader.pos)
            reader.skipWhitespace()
            guard reader.pos < reader.end else {
                throw syntax(reader.unexpected("',' or ']' after an object"), className: className)
            }
            if buf[reader.pos] == UInt8(ascii: "]") {
                reader.pos += 1
                return data
            }
            guard buf[reader.pos] == UInt8(ascii: ",") else {
                throw syntax(reader.unexpected("',' or ']' after an object"), className: className)
            }
            reader.pos += 1
            reader.skipWhitespace()
            if reader.pos < reader.end && buf[reader.pos] == UInt8(ascii: "]") {
                throw syntax(
                    reader.unexpected("an object after ','", note: " (JSON does not allow trailing commas)"),
                    className: className)
            }
        }
    }

    private mutating func loadNDJSON() throws(DataFileError) {
        var data = ClassData(name: defaultClass)
        var index = 0
        try NDJSON.forEachLine(buf) { _, start, end throws(DataFileError) in
            index += 1
            let value: JSON
            do throws(Diagnostic) { value = try parser.parse(buf, from: start, to: end) } catch {
                throw syntax(error, className: defaultClass, objectIndex: index)
            }
            try addObject(value, to: &data, index: index, from: start, to: end)
        }
        try add(data, keyAt: 0)
    }

    /// The first non-blank line is a whole JSON object and something follows it. Cheap for
    /// the usual files: a pretty-printed document's first line is `{` or `[`, and a one-line
    /// document has nothing after its line.
    static func looksLikeNDJSON(_ buf: UnsafeBufferPointer<UInt8>, _ parser: JSONParser) -> Bool {
        let start = firstNonBlank(buf)
        guard start < buf.count, buf[start] == UInt8(ascii: "{") else { return false }
        var end = start
        while end < buf.count && buf[end] != 0x0A { end += 1 }
        guard buf[end...].contains(where: { !Self.isWhitespace($0) }) else { return false }
        guard case .object? = try? parser.parse(buf, from: start, to: end) else { return false }
        return true
    }

    // MARK: Objects

    private mutating func addObject(
        _ value: JSON, to data: inout ClassData, index: Int,
        from start: Int, to end: Int
    ) throws(DataFileError) {
        guard case .object(let object) = value else {
            throw error(
                .data.shape, "expected an object but found \(ParseJSON.article(value))", at: start,
                className: data.name, objectIndex: index)
        }
        let record: Record
        do {
            record = try ParseJSON.decodeRecord(object, defaultObjectId: "\(data.name)-\(index)")
        } catch {
            throw locate(
                error, from: start, to: end, className: data.name, objectIndex: index,
                objectId: object["objectId"]?.stringValue)
        }
        if let previous = sink == nil ? data.positionById[record.objectId] : seenIds[data.name]?[record.objectId] {
            let e = ValueDecodingError(
                .data.duplicateId,
                "objectId '\(record.objectId)' is already used by object #\(previous + 1)",
                path: object["objectId"] == nil ? [] : ["objectId"])
            throw locate(e, from: start, to: end, className: data.name, objectIndex: index, objectId: record.objectId)
        }
        guard let sink else { return data.insert(record) }
        seenIds[data.name, default: [:]][record.objectId] = index - 1
        try sink(record, data.name)
    }

    private mutating func add(_ data: ClassData, keyAt: Int) throws(DataFileError) {
        guard classes[data.name] == nil else {
            throw error(.data.shape, "class '\(data.name)' appears twice in the file", at: keyAt)
        }
        classes[data.name] = data
        classOrder.append(data.name)
    }

    // MARK: Errors

    /// After a byte-order mark and whitespace.
    private func firstNonBlank() -> Int { Self.firstNonBlank(buf) }

    static func firstNonBlank(_ buf: UnsafeBufferPointer<UInt8>) -> Int {
        var i = buf.count >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF ? 3 : 0
        while i < buf.count && Self.isWhitespace(buf[i]) { i += 1 }
        return i
    }

    static func isWhitespace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

    /// The loader parses one object at a time, so the containers around the objects
    /// (`depthAbove` of them) count against the depth limit here.
    private func makeReader(at start: Int, depthAbove: Int) -> JSONReader<TreeBuilder> {
        JSONReader(
            buf, from: start, to: buf.count, maxDepth: parser.maxDepth, outerDepth: depthAbove,
            builder: TreeBuilder())
    }

    private func expectEnd(_ reader: inout JSONReader<TreeBuilder>) throws(DataFileError) {
        reader.skipWhitespace()
        if reader.pos < reader.end { throw syntax(reader.unexpected("the end of the input after the JSON value")) }
    }

    /// "an object", "a string", … for the value starting at `at`.
    private func describeValue(at: Int, _ reader: JSONReader<TreeBuilder>) -> String {
        guard at < buf.count else { return reader.describeFound() }  // a file cut off after the key
        switch buf[at] {
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
        default: return reader.describeFound()
        }
    }

    /// A codec error, pointed at the offending value by parsing the object again with ranges.
    private func locate(
        _ e: ValueDecodingError, from start: Int, to end: Int, className: String,
        objectIndex: Int, objectId: String?
    ) -> DataFileError {
        let node = try? parser.parseLocated(buf, from: start, to: end)
        let offset = node?.nearestRange(of: e.path).offset ?? start
        let field = e.path.isEmpty ? nil : e.path.description
        return error(
            e.diagnosticCode, e.message, at: offset, className: className, objectIndex: objectIndex,
            objectId: objectId, field: field)
    }

    private func syntax(_ d: Diagnostic, className: String? = nil, objectIndex: Int? = nil) -> DataFileError {
        error(d.diagnosticCode, d.message, at: d.range?.offset ?? 0, className: className, objectIndex: objectIndex)
    }

    private func error(
        _ code: DiagnosticCode, _ message: String, at offset: Int, className: String? = nil,
        objectIndex: Int? = nil, objectId: String? = nil, field: String? = nil
    ) -> DataFileError {
        let (line, column) = lineAndColumn(ofByte: offset)
        return DataFileError(
            code: code, message: message, file: fileName, line: line, column: column, offset: offset,
            className: className, objectIndex: objectIndex, objectId: objectId, field: field)
    }

    /// 1-based line and column; the column counts Unicode scalars, as `SourceText` does.
    private func lineAndColumn(ofByte offset: Int) -> (Int, Int) {
        var line = 1, column = 1
        for i in 0..<min(offset, buf.count) {
            let b = buf[i]
            if b == 0x0A {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}
