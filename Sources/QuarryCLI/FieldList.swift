import QuarryCore

/// `--keys a,b` and `--include a,b`: comma-separated key paths (dots for nested fields).
enum FieldList {
    /// The key paths in order, without repeats.
    static func parse(_ text: String, role: String) throws(InvalidValue) -> [FieldPath] {
        var paths: [FieldPath] = []
        var seen = Set<FieldPath>()
        for raw in text.split(separator: ",", omittingEmptySubsequences: false) {
            let item = raw.trimmingSpaces
            guard !item.isEmpty else { throw InvalidValue("a \(role) is empty (a stray comma?)") }
            let path = try keyPath(item, role: role)
            if seen.insert(path).inserted { paths.append(path) }
        }
        return paths
    }

    /// One dotted key path; each component non-empty. A backquoted key is taken literally
    /// (minus the quotes), as the SQL dialect writes names that are keywords.
    static func keyPath(_ text: Substring, role: String) throws(InvalidValue) -> FieldPath {
        var body = text
        if body.count >= 2, body.hasPrefix("`"), body.hasSuffix("`") {
            body = body.dropFirst().dropLast()
        }
        let components = body.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for c in components {
            if c.isEmpty { throw InvalidValue("the \(role) '\(text)' has an empty component") }
            if let bad = c.first(where: { $0.isWhitespace || $0 == "`" || $0 == "," }) {
                throw InvalidValue("the \(role) '\(text)' contains '\(bad)'")
            }
        }
        return FieldPath(components)
    }
}

/// An option value that does not say what it must; ArgumentParser shows the description
/// after "The value '…' is invalid for '--option <value>':".
struct InvalidValue: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
