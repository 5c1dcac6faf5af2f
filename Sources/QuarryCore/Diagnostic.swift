/// A half-open range of UTF-8 bytes in the query text.
public struct SourceRange: Hashable, Codable, Sendable {
    public var offset: Int
    public var length: Int
    public init(offset: Int, length: Int) {
        self.offset = offset
        self.length = length
    }
    public var end: Int { offset + length }
}

/// An error in a query, with a stable code, a message, and where it is.
///
/// The one error type the front-ends, the engine and the umbrella API throw. Codes are dotted
/// (`syntax.unexpected-token`, `date.unparseable`, `limit.nesting`) and catalogued in
/// docs/DIAGNOSTICS.md; tools match on them. Text dialects locate by `range`; the JSON dialect
/// also gives a `path` (`where.$or[1].score.$gt`) and Parse's numeric error code. A pass that
/// finds several problems throws the first with the others in `related`; `all` lists them.
public struct Diagnostic: Error, Hashable, Codable, Sendable, CustomStringConvertible {
    /// The catalogue entry (docs/DIAGNOSTICS.md).
    public var diagnosticCode: DiagnosticCode
    public var message: String
    public var range: SourceRange?
    public var notes: [String]
    public var path: String?
    public var parseCode: Int?
    /// Further problems the same pass found, in the order it reports them.
    public var related: [Diagnostic]

    public init(
        _ code: DiagnosticCode, _ message: String, at range: SourceRange? = nil,
        notes: [String] = [], path: String? = nil, parseCode: Int? = nil
    ) {
        self.diagnosticCode = code
        self.message = message
        self.range = range
        self.notes = notes
        self.path = path
        self.parseCode = parseCode
        self.related = []
    }

    /// The code as tools match on it: `syntax.unexpected-token`.
    public var code: String { diagnosticCode.rawValue }

    /// This diagnostic and the related ones, each on its own.
    public var all: [Diagnostic] {
        var first = self
        first.related = []
        return [first] + related
    }

    /// Throws the first of `problems` with the rest related; returns when there are none.
    public static func throwIfAny(_ problems: [Diagnostic]) throws(Diagnostic) {
        let each = problems.flatMap(\.all)
        guard var first = each.first else { return }
        first.related = Array(each.dropFirst())
        throw first
    }

    public var description: String {
        all.map { "error[\($0.code)]: \($0.message)" }.joined(separator: "\n")
    }

    private enum CodingKeys: String, CodingKey {
        case diagnosticCode = "code", message, range, notes, path, parseCode, related
    }

    /// The diagnostic located at `range` when it has no location of its own: an error raised
    /// while checking or running a leaf points at the text the leaf was read from.
    public func located(at range: SourceRange?) -> Diagnostic {
        guard self.range == nil, let range else { return self }
        var d = self
        d.range = range
        return d
    }
}

/// The name the front-ends' signatures used when they threw a list: the same type, read through
/// `all`.
public typealias Diagnostics = Diagnostic

/// Maps byte offsets in a query text to lines and columns and renders diagnostics the way a
/// compiler does. Columns and the reported offsets count Unicode scalars, 1-based for columns.
/// Lines end at each LF (a CR before it is not shown). Where lines start and how many scalars
/// come before every 256th byte are found once, so that locating a diagnostic costs the same
/// wherever it is: a text with thousands of errors is rendered in linear time.
public struct SourceText: Sendable {
    public let text: String
    private let bytes: [UInt8]
    /// The byte offset where each line starts.
    private let lineStarts: [Int]
    /// Scalars before byte `256 * i`.
    private let scalarsBeforeBlock: [Int]
    private static let block = 256

    public init(_ text: String) {
        self.text = text
        let bytes = Array(text.utf8)
        self.bytes = bytes
        var starts = [0]
        var blocks: [Int] = []
        blocks.reserveCapacity(bytes.count / Self.block + 1)
        var scalars = 0
        for (i, b) in bytes.enumerated() {
            if i % Self.block == 0 { blocks.append(scalars) }
            if b & 0xC0 != 0x80 { scalars += 1 }
            if b == 0x0A { starts.append(i + 1) }
        }
        if bytes.count % Self.block == 0 { blocks.append(scalars) }
        lineStarts = starts
        scalarsBeforeBlock = blocks
    }

    public struct Position: Hashable, Sendable {
        public var line: Int
        public var column: Int
        /// Unicode scalars from the start of the text.
        public var scalarOffset: Int
    }

    /// The line, column and scalar offset of a byte offset (clamped to the text).
    public func position(ofByte offset: Int) -> Position {
        let end = Swift.max(0, Swift.min(offset, bytes.count))
        let line = lineIndex(ofByte: end)
        let scalars = scalars(before: end)
        return Position(
            line: line + 1, column: scalars - self.scalars(before: lineStarts[line]) + 1, scalarOffset: scalars)
    }

    /// The 0-based line holding byte `offset` (a line's LF is its last byte).
    private func lineIndex(ofByte offset: Int) -> Int {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// Scalars in the bytes before `offset` (at most `bytes.count`).
    private func scalars(before offset: Int) -> Int {
        let block = offset / Self.block
        var n = scalarsBeforeBlock[block]
        for i in (block * Self.block)..<offset where bytes[i] & 0xC0 != 0x80 { n += 1 }
        return n
    }

    /// The bytes of a 0-based line, without its LF and a CR before it.
    private func lineBytes(_ line: Int) -> Range<Int> {
        let start = lineStarts[line]
        var end = line + 1 < lineStarts.count ? lineStarts[line + 1] - 1 : bytes.count
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        return start..<end
    }

    /// Scalars in the byte range.
    public func scalarLength(of range: SourceRange) -> Int {
        let lo = Swift.max(0, Swift.min(range.offset, bytes.count))
        let hi = Swift.max(lo, Swift.min(range.end, bytes.count))
        return bytes[lo..<hi].reduce(0) { $0 + ($1 & 0xC0 != 0x80 ? 1 : 0) }
    }

    /// The text of the 1-based line, without its newline.
    public func line(_ n: Int) -> String {
        guard n >= 1, n <= lineStarts.count else { return "" }
        return String(decoding: bytes[lineBytes(n - 1)], as: UTF8.self)
    }

    /// The compiler-style rendering of docs/ARCHITECTURE.md#diagnostic-output.
    public func render(_ d: Diagnostic) -> String {
        var out = "error[\(d.code)]"
        if let p = d.parseCode { out += "(\(p))" }
        out += ": \(d.message)\n"
        if let range = d.range {
            let pos = position(ofByte: range.offset)
            let location = d.path.map { "\($0) at " } ?? ""
            out += " --> \(location)\(pos.line):\(pos.column)\n"
            let gutter = String(repeating: " ", count: String(pos.line).count)
            let window = self.window(
                line: pos.line - 1, column: pos.column, byte: range.offset, length: scalarLength(of: range))
            out += "\(gutter) |\n"
            out += "\(pos.line) | \(window.text)\n"
            out += "\(gutter) | \(window.lead)\(String(repeating: "^", count: window.width))\n"
        } else if let path = d.path {
            out += " --> \(path)\n"
        }
        for note in d.notes { out += "  = note: \(note)\n" }
        return out
    }

    /// Longest line shown whole; a longer one is cut to a window around the range with `...`
    /// at the cut ends, as rustc and swiftc do (the reported column stays the exact one).
    static let maxShownLine = 120
    private static let contextBefore = 40
    private static let maxCaret = 60

    /// `window(_:column:length:)` for a line of the text and a range starting at `byte` (at
    /// `column`), reading only the bytes around it when the line is too long to be shown whole.
    func window(line: Int, column: Int, byte: Int, length: Int) -> (text: String, lead: String, width: Int) {
        let bounds = lineBytes(line)
        // A line of at most four bytes a scalar is short enough to read whole.
        if bounds.count <= 4 * Self.maxShownLine {
            return Self.window(
                Array(String(decoding: bytes[bounds], as: UTF8.self).unicodeScalars), column: column, length: length)
        }
        // Longer than `maxShownLine` scalars: cut, as `window(_:column:length:)` does.
        func next(_ i: Int) -> Int {
            var j = i + 1
            while j < bounds.upperBound, bytes[j] & 0xC0 == 0x80 { j += 1 }
            return j
        }
        func previous(_ i: Int) -> Int {
            var j = i - 1
            while j > bounds.lowerBound, bytes[j] & 0xC0 == 0x80 { j -= 1 }
            return j
        }
        let start = Swift.min(Swift.max(byte, bounds.lowerBound), bounds.upperBound)
        var end = start, width = 0
        while width < Swift.min(length, Self.maxCaret), end < bounds.upperBound {
            end = next(end)
            width += 1
        }
        width = Swift.max(width, 1)
        var to = start
        for _ in 0..<(width + Self.contextBefore) where to < bounds.upperBound { to = next(to) }
        var from = start
        for _ in 0..<Self.contextBefore where from > bounds.lowerBound { from = previous(from) }
        let opening = from > bounds.lowerBound ? "..." : "", closing = to < bounds.upperBound ? "..." : ""
        let lead =
            String(repeating: " ", count: opening.count)
            + String(
                String(decoding: bytes[from..<start], as: UTF8.self).unicodeScalars.map { $0 == "\t" ? "\t" : " " })
        return (opening + String(decoding: bytes[from..<to], as: UTF8.self) + closing, lead, width)
    }

    /// The part of a line to show, the blanks before the caret, and the caret's width.
    static func window(_ line: [Unicode.Scalar], column: Int, length: Int)
        -> (text: String, lead: String, width: Int)
    {
        let start = Swift.min(Swift.max(column - 1, 0), line.count)
        var width = Swift.max(1, Swift.min(length, line.count - start))
        var from = 0, to = line.count
        if line.count > maxShownLine {
            width = Swift.min(width, maxCaret)
            from = Swift.max(0, start - contextBefore)
            to = Swift.min(line.count, Swift.max(start + width, start + 1) + contextBefore)
        }
        let opening = from > 0 ? "..." : "", closing = to < line.count ? "..." : ""
        var text = opening
        text.unicodeScalars.append(contentsOf: line[from..<to])
        // Keep tabs so the caret lines up under the offending text.
        let lead =
            String(repeating: " ", count: opening.count)
            + String(line[from..<start].map { $0 == "\t" ? "\t" : " " })
        return (text + closing, lead, width)
    }

    /// The `--json` shape of one diagnostic (docs/ARCHITECTURE.md#diagnostic-output): code,
    /// message, line, column, offset, length (offset and length in Unicode scalars), plus path and
    /// parseCode when present.
    package func jsonObject(_ d: Diagnostic) -> [(String, JSONScalar)] {
        var fields: [(String, JSONScalar)] = [("code", .string(d.code)), ("message", .string(d.message))]
        if let range = d.range {
            let pos = position(ofByte: range.offset)
            fields += [
                ("line", .int(pos.line)), ("column", .int(pos.column)),
                ("offset", .int(pos.scalarOffset)), ("length", .int(scalarLength(of: range))),
            ]
        }
        if let path = d.path { fields.append(("path", .string(path))) }
        if let code = d.parseCode { fields.append(("parseCode", .int(code))) }
        if !d.notes.isEmpty { fields.append(("notes", .strings(d.notes))) }
        return fields
    }
}

/// The few JSON shapes a diagnostic needs, so Core writes them without Foundation.
package enum JSONScalar: Sendable {
    case string(String)
    case int(Int)
    case strings([String])

    package var json: String {
        switch self {
        case .string(let s): return JSONText.quote(s)
        case .int(let i): return String(i)
        case .strings(let a): return "[" + a.map(JSONText.quote).joined(separator: ",") + "]"
        }
    }
}

package enum JSONText {
    /// A JSON string literal for `s`.
    package static func quote(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
        return out
    }
}
