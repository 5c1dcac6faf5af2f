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

    /// Whether noting `v`'s type would leave the field's type as it is: the common case,
    /// answered without building the type (`FieldType.of` allocates for arrays and pointers).
    func keeps(_ v: Value, field: Int) -> Bool {
        guard field < current.count, let t = current[field] else { return false }
        return Self.keeps(t, v)
    }

    /// Whether `t.merged(with: FieldType.of(v))` is `t` (false when unsure).
    private static func keeps(_ t: FieldType, _ v: Value) -> Bool {
        switch (t, v) {
        case (_, .null), (.mixed, _): return true
        case (.bool, .bool), (.number, .int), (.number, .double), (.string, .string), (.date, .date),
            (.bytes, .bytes), (.geoPoint, .geoPoint), (.polygon, .polygon), (.file, .file), (.object, .object):
            return true
        case (.pointer(let c), .pointer(let p)): return c == p.className
        case (.relation(let c), .relation(let d, _)): return c == d
        case (.array, .array(let items)), (.relation, .array(let items)):
            // An empty array (or one of nulls) is `.array(nil)`, which merges into either;
            // otherwise every element must have the one element type `t` implies.
            return items.allSatisfy { item in
                switch (t, item) {
                case (_, .null): return true
                case (.relation(let c), .pointer(let p)): return c == p.className
                case (.relation, _): return false
                case (.array(let e?), _): return e.isScalar && keeps(e, item)
                default: return false
                }
            }
        default: return false
        }
    }

    /// The current class is complete.
    mutating func add(_ className: String, _ fields: [(String, FieldType?)]) {
        inferred.add(className, fields: fields)
        current = []
    }
}

extension FieldType {
    /// A type without a payload (what an array element of a scalar type has).
    fileprivate var isScalar: Bool {
        switch self {
        case .array, .pointer, .relation, .mixed: return false
        default: return true
        }
    }
}
