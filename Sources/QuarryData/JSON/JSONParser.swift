import QuarryCore

/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// Rejected, each with a located `Diagnostic`: trailing commas, comments, single quotes, leading
/// zeros, `NaN`/`Infinity`, invalid escapes, lone surrogates, unescaped control characters,
/// invalid UTF-8, numbers too large for a double, trailing content, nesting deeper than
/// `maxDepth`. A repeated object key is not an error: the last value wins (see `JSONObject`).
/// A leading UTF-8 byte-order mark is skipped, as RFC 8259 §8.1 permits.
///
/// Diagnostic codes: `json.syntax`, `json.number`, `json.string`, `json.utf8`, `json.depth`;
/// ranges are byte offsets into the input.
public struct JSONParser: Sendable {
    /// The deepest nesting of arrays and objects accepted (`[[1]]` has depth 2).
    public var maxDepth: Int

    public init(maxDepth: Int = 512) {
        self.maxDepth = maxDepth
    }

    public func parse(_ bytes: [UInt8]) throws(Diagnostic) -> JSON {
        try bytes.withUnsafeBufferPointer { buf in
            Result(catching: { () throws(Diagnostic) -> JSON in try parse(buf, from: 0, to: buf.count) })
        }.get()
    }

    public func parse(_ text: String) throws(Diagnostic) -> JSON {
        try withUTF8(text) { bytes throws(Diagnostic) in try parse(bytes) }
    }

    /// Parses and records the source range of every value and key (slower; for front-ends
    /// that must point at a member or element in their diagnostics).
    public func parseLocated(_ bytes: [UInt8]) throws(Diagnostic) -> JSONNode {
        try bytes.withUnsafeBufferPointer { buf in
            Result(catching: { () throws(Diagnostic) -> JSONNode in try parseLocated(buf, from: 0, to: buf.count) })
        }.get()
    }

    public func parseLocated(_ text: String) throws(Diagnostic) -> JSONNode {
        try withUTF8(text) { bytes throws(Diagnostic) in try parseLocated(bytes) }
    }

    // MARK: In-place parsing of part of a buffer (NDJSON lines, data files)

    func parse(_ buf: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) throws(Diagnostic) -> JSON {
        var reader = JSONReader(
            buf, from: Self.skippingBOM(buf, start, end), to: end,
            maxDepth: maxDepth, builder: TreeBuilder())
        return try reader.parseDocument()
    }

    func parseLocated(_ buf: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) throws(Diagnostic) -> JSONNode {
        var reader = JSONReader(
            buf, from: Self.skippingBOM(buf, start, end), to: end,
            maxDepth: maxDepth, builder: LocatingBuilder())
        return try reader.parseDocument()
    }

    private static func skippingBOM(_ buf: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        // Only at the very start of the input: a BOM inside it is an error like any other.
        if start == 0, end >= 3, buf[start] == 0xEF, buf[start + 1] == 0xBB, buf[start + 2] == 0xBF { return start + 3 }
        return start
    }

    private func withUTF8<T>(_ text: String, _ body: ([UInt8]) throws(Diagnostic) -> T) throws(Diagnostic) -> T {
        try body(Array(text.utf8))
    }
}

/// Builds the plain `JSON` tree.
struct TreeBuilder: JSONTreeBuilder {
    @inline(__always) func null(_ range: SourceRange) -> JSON { .null }
    @inline(__always) func bool(_ value: Bool, _ range: SourceRange) -> JSON { .bool(value) }
    @inline(__always) func int(_ value: Int64, _ range: SourceRange) -> JSON { .int(value) }
    @inline(__always) func double(_ value: Double, _ range: SourceRange) -> JSON { .double(value) }
    @inline(__always) func string(_ value: String, _ range: SourceRange) -> JSON { .string(value) }
    func array(_ items: ArraySlice<JSON>, _ range: SourceRange) -> JSON { .array(Array(items)) }
    func object(_ keys: ArraySlice<ParsedKey>, _ values: ArraySlice<JSON>, _ range: SourceRange) -> JSON {
        .object(JSONObject(parsedKeys: keys, values: values))
    }
}

/// Builds `JSONNode`s, collapsing repeated keys the way `JSONObject` does.
struct LocatingBuilder: JSONTreeBuilder {
    /// Objects of up to this many keys are checked for repeated keys pairwise.
    static let smallObject = 8

    func null(_ range: SourceRange) -> JSONNode { JSONNode(range: range, kind: .null) }
    func bool(_ value: Bool, _ range: SourceRange) -> JSONNode { JSONNode(range: range, kind: .bool(value)) }
    func int(_ value: Int64, _ range: SourceRange) -> JSONNode { JSONNode(range: range, kind: .int(value)) }
    func double(_ value: Double, _ range: SourceRange) -> JSONNode { JSONNode(range: range, kind: .double(value)) }
    func string(_ value: String, _ range: SourceRange) -> JSONNode { JSONNode(range: range, kind: .string(value)) }
    func array(_ items: ArraySlice<JSONNode>, _ range: SourceRange) -> JSONNode {
        JSONNode(range: range, kind: .array(Array(items)))
    }
    func object(_ keys: ArraySlice<ParsedKey>, _ values: ArraySlice<JSONNode>, _ range: SourceRange) -> JSONNode {
        var members: [JSONNode.Member] = []
        members.reserveCapacity(keys.count)
        // A repeated key's later value replaces the earlier one in its place. A small object
        // (most of them: a where clause's) is searched key by key, without hashing.
        if keys.count <= Self.smallObject {
            for (key, value) in zip(keys, values) {
                let member = JSONNode.Member(key: key.name, keyRange: key.range, value: value)
                if let repeated = members.firstIndex(where: { String.sameUTF8($0.key, key.name) }) {
                    members[repeated] = member
                } else {
                    members.append(member)
                }
            }
            return JSONNode(range: range, kind: .object(members))
        }
        var positions: [UInt64: Int] = [:]  // fingerprint → first member with it
        for (key, value) in zip(keys, values) {
            let member = JSONNode.Member(key: key.name, keyRange: key.range, value: value)
            var repeated: Int?
            if let candidate = positions[key.fingerprint] {
                // A fingerprint collision between different keys is possible, if unlikely.
                repeated =
                    String.sameUTF8(members[candidate].key, key.name)
                    ? candidate : members.firstIndex { String.sameUTF8($0.key, key.name) }
            }
            if let repeated {
                members[repeated] = member
            } else {
                if positions[key.fingerprint] == nil { positions[key.fingerprint] = members.count }
                members.append(member)
            }
        }
        return JSONNode(range: range, kind: .object(members))
    }
}
