/// A dotted path of field names (`address.city`). Following a pointer or an array of pointers
/// into the pointed-to class is the evaluator's job; the path itself is only names.
public struct FieldPath: Hashable, Codable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public var components: [String]

    public init(_ components: [String]) {
        precondition(!components.isEmpty, "a key path has at least one component")
        self.components = components
    }

    /// Splits on dots: `FieldPath("address.city")`.
    public init(_ dotted: String) {
        // Most keys have no dot: the string itself, without splitting and copying it.
        guard dotted.utf8.contains(UInt8(ascii: ".")) else {
            self.init([dotted])
            return
        }
        self.init(dotted.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
    }

    public init(stringLiteral value: String) { self.init(value) }

    public var description: String { components.joined(separator: ".") }
    public var first: String { components[0] }
    public var last: String { components[components.count - 1] }
    public var count: Int { components.count }

    public func appending(_ other: FieldPath) -> FieldPath { FieldPath(components + other.components) }
    public func appending(_ name: String) -> FieldPath { FieldPath(components + [name]) }

    /// The path without its last component, or nil for a one-component path.
    public var parent: FieldPath? { components.count > 1 ? FieldPath(Array(components.dropLast())) : nil }
}

extension FieldPath {
    // Encoded as the dotted string: compact and readable in plans and caches. Components never
    // contain dots when they come from a front-end (they would not be addressable otherwise).
    public init(from decoder: Decoder) throws {
        let s = try decoder.singleValueContainer().decode(String.self)
        self.init(s)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
