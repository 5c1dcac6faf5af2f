import QuarryCore

/// The field types a directly loaded file shows, gathered value by value as `Database` would
/// gather them for the same file (merged with `FieldType.merged`), into the `InferredSchema`
/// the engine keeps (docs/STORAGE.md#direct-loading).
struct LoadedSchema {
    private(set) var inferred = InferredSchema()
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
        inferred.add(className, fields: fields)
        current = []
    }
}
