import QuarryCore

/// A data file that cannot be loaded, with everything needed to find the problem:
///
///     data.json:12:18: class 'Contact', object #3 (objectId 'k3'), field 'address': Pointer is missing 'objectId'
///
/// Codes: `data.io` (unreadable), the parser's `json.*` codes (malformed JSON), `data.shape`
/// (not one of the accepted layouts, or an entry that is not an object), `data.duplicate-id`,
/// and the codec's `data.*` codes (`ValueDecodingError`).
public struct DataFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var diagnosticCode: DiagnosticCode
    public var message: String
    /// The file as the caller named it.
    public var file: String
    /// 1-based; column in Unicode scalars.
    public var line: Int?
    public var column: Int?
    /// Byte offset in the file.
    public var offset: Int?
    public var className: String?
    /// 1-based position of the object among its class's objects in the file.
    public var objectIndex: Int?
    public var objectId: String?
    /// The field and the path below it (`address`, `contacts[1]`, `home.latitude`).
    public var field: String?

    public init(
        code: DiagnosticCode, message: String, file: String, line: Int? = nil, column: Int? = nil,
        offset: Int? = nil, className: String? = nil, objectIndex: Int? = nil,
        objectId: String? = nil, field: String? = nil
    ) {
        self.diagnosticCode = code
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.offset = offset
        self.className = className
        self.objectIndex = objectIndex
        self.objectId = objectId
        self.field = field
    }

    /// The code as tools match on it: `data.shape`.
    public var code: String { diagnosticCode.rawValue }

    public var description: String {
        var out = file
        if let line, let column { out += ":\(line):\(column)" }
        out += ": "
        var context: [String] = []
        if let className { context.append("class '\(className)'") }
        if let objectIndex {
            context.append("object #\(objectIndex)" + (objectId.map { " (objectId '\($0)')" } ?? ""))
        }
        if let field { context.append("field '\(field)'") }
        if !context.isEmpty { out += context.joined(separator: ", ") + ": " }
        return out + message
    }
}
