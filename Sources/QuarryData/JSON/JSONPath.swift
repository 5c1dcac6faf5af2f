import QuarryCore

/// A path from the root of a JSON document to one of its values: `where.$or[1].score.$gt`.
public struct JSONPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByArrayLiteral {
    public enum Component: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        case key(String)
        case index(Int)
        public init(stringLiteral value: String) { self = .key(value) }
        public init(integerLiteral value: Int) { self = .index(value) }
    }

    public var components: [Component]

    public init(_ components: [Component] = []) { self.components = components }
    public init(arrayLiteral elements: Component...) { components = elements }

    public var isEmpty: Bool { components.isEmpty }

    public func appending(_ c: Component) -> JSONPath { JSONPath(components + [c]) }
    public func appending(key: String) -> JSONPath { appending(.key(key)) }
    public func appending(index: Int) -> JSONPath { appending(.index(index)) }
    public func appending(_ other: JSONPath) -> JSONPath { JSONPath(components + other.components) }

    /// Keys joined by dots, indexes in brackets. A key that a dot path could not express
    /// (empty, or holding `.`, `[`, `]`, `"` or whitespace) is written `["quoted"]`.
    public var description: String {
        var out = ""
        for c in components {
            switch c {
            case .index(let i):
                out += "[\(i)]"
            case .key(let k):
                if Self.isPlain(k) {
                    if !out.isEmpty { out += "." }
                    out += k
                } else {
                    out += "[\(JSONText.quote(k))]"
                }
            }
        }
        return out
    }

    private static func isPlain(_ key: String) -> Bool {
        !key.isEmpty
            && !key.unicodeScalars.contains { s in
                s == "." || s == "[" || s == "]" || s == "\"" || s.properties.isWhitespace
            }
    }
}
