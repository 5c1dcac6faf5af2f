import QuarryCore

/// A JSON value together with where it was written: `JSONParser.parseLocated` builds these so
/// that a decoder can point a diagnostic at any member or element (`where.$or[1].score.$gt`).
///
/// Repeated keys collapse as in `JSONObject` (first position, last value and its ranges), so
/// `node.json` equals what `JSONParser.parse` returns for the same text.
public struct JSONNode: Sendable {
    /// The bytes of the value, brackets and quotes included.
    public var range: SourceRange
    public var kind: Kind

    public enum Kind: Sendable {
        case null
        case bool(Bool)
        case int(Int64)
        case double(Double)
        case string(String)
        case array([JSONNode])
        case object([Member])
    }

    public struct Member: Sendable {
        public var key: String
        /// The key's string literal, quotes included.
        public var keyRange: SourceRange
        public var value: JSONNode
    }

    public init(range: SourceRange, kind: Kind) {
        self.range = range
        self.kind = kind
    }

    /// The plain tree, without ranges.
    public var json: JSON {
        switch kind {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .array(let items): return .array(items.map(\.json))
        case .object(let members):
            return .object(JSONObject(keys: members.map(\.key), values: members.map(\.value.json)))
        }
    }

    /// The member `key` of an object.
    public func member(_ key: String) -> Member? {
        guard case .object(let members) = kind else { return nil }
        return members.first { String.sameUTF8($0.key, key) }
    }

    /// The value of the member `key` of an object.
    public subscript(key: String) -> JSONNode? { member(key)?.value }

    /// The element at `index` of an array.
    public subscript(index: Int) -> JSONNode? {
        guard case .array(let items) = kind, items.indices.contains(index) else { return nil }
        return items[index]
    }

    /// The node the path leads to; nil when some component does not exist.
    public func node(at path: JSONPath) -> JSONNode? {
        var current = self
        for c in path.components {
            switch c {
            case .key(let k): guard let next = current[k] else { return nil }; current = next
            case .index(let i): guard let next = current[i] else { return nil }; current = next
            }
        }
        return current
    }

    /// The range of the value at `path`, or of the deepest node on the way that exists (an
    /// error about a missing member then points at the object that lacks it).
    public func nearestRange(of path: JSONPath) -> SourceRange {
        var current = self
        for c in path.components {
            let next: JSONNode?
            switch c {
            case .key(let k): next = current[k]
            case .index(let i): next = current[i]
            }
            guard let next else { break }
            current = next
        }
        return current.range
    }
}
