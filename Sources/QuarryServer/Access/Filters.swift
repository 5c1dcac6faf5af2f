import Quarry

/// Small IR builders the server's own conditions use (document semantics, as Parse's).
enum Filters {
    static func equals(_ key: String, _ value: Value) -> Filter {
        equals(FieldPath(key), value)
    }

    static func equals(_ key: FieldPath, _ value: Value) -> Filter {
        .leaf(Leaf(.compare(.key(key), .eq, .literal(value), []), semantics: .document))
    }

    static func objectId(in ids: [String]) -> Filter {
        .leaf(
            Leaf(
                .inCollection(.key("objectId"), .literal(.array(ids.map(Value.string))), []),
                semantics: .document))
    }

    static func and(_ a: Filter, _ b: Filter) -> Filter {
        if case .constant(true) = a { return b }
        if case .constant(true) = b { return a }
        return .and([a, b])
    }
}
