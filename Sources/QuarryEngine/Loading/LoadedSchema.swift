import QuarryCore

/// The classes, field names and field types of a directly loaded file, as `Database` would
/// report them for the same file (types merged value by value with `FieldType.merged`), for
/// the front-ends' checks (docs/STORAGE.md#direct-loading).
public struct LoadedSchema: Schema {
    public private(set) var classNames: [String] = []
    private var fieldNamesByClass: [String: [String]] = [:]
    private var typesByClass: [String: [String: FieldType]] = [:]
    /// The class being loaded: each field's type so far, by field number.
    private(set) var current: [FieldType?] = []

    /// Merges one value's type into the current class's field.
    mutating func note(_ type: FieldType?, field: Int) {
        while current.count <= field { current.append(nil) }
        guard let type else { return }
        if let existing = current[field] {
            if existing != type { current[field] = existing.merged(with: type) }
        } else {
            current[field] = type
        }
    }

    /// The current class is complete.
    mutating func add(_ className: String, _ fields: [(String, FieldType?)]) {
        classNames.append(className)
        fieldNamesByClass[className] = fields.map(\.0)
        typesByClass[className] = Dictionary(
            fields.compactMap { n, t in t.map { (n, $0) } }, uniquingKeysWith: { a, _ in a })
        current = []
    }

    public func hasClass(_ className: String) -> Bool { typesByClass[className] != nil }

    public func resolveField(_ name: String, in className: String) -> String? {
        if Database.systemFields.contains(name) { return name }
        guard let names = fieldNamesByClass[className] else { return nil }
        if names.contains(name) { return name }
        let lowered = name.lowercased()
        let matches = names.filter { $0.lowercased() == lowered }
        return matches.count == 1 ? matches[0] : nil
    }

    public func fieldType(_ field: String, in className: String) -> FieldType? {
        switch field {
        case "objectId": return .string
        case "createdAt", "updatedAt": return typesByClass[className]?[field] ?? .date
        default: return typesByClass[className]?[field]
        }
    }

    public func fieldNames(in className: String) -> [String] {
        guard let names = fieldNamesByClass[className] else { return [] }
        return ["objectId"] + names
    }
}
