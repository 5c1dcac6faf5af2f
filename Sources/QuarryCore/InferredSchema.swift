/// The classes, fields and field types a set of objects shows, without the objects: what a
/// `Database` answers as a `Schema`, kept by an engine as objects are inserted so that queries
/// compiled against it know a field the moment an object has it (docs/API.md#schema).
///
/// Types merge as `ClassData` merges them (`FieldType.merged`), and a field stays known after
/// the objects that had it are deleted, as in a `Database`.
public struct InferredSchema: Schema {
    public private(set) var classNames: [String] = []
    private var classes: [String: ClassFields] = [:]
    /// Goes up with every change to the classes, fields or types: what was compiled against
    /// the schema at one generation holds at that generation (docs/ARCHITECTURE.md#text-templates).
    package private(set) var generation = 0

    private struct ClassFields: Sendable {
        var types: [String: FieldType] = [:]
        var names: [String] = []

        mutating func note(_ record: Record) -> Bool { FieldType.note(record, types: &types, names: &names) }
    }

    public init() {}

    /// The schema of a database's objects.
    public init(_ database: Database) {
        for name in database.classNames {
            guard let data = database[name] else { continue }
            classNames.append(name)
            classes[name] = ClassFields(types: data.fieldTypes, names: data.fieldNames)
        }
    }

    /// Adds a class whose fields (in first-seen order) and types were gathered elsewhere (a
    /// directly loaded file's).
    package mutating func add(_ className: String, fields: [(String, FieldType?)]) {
        if classes[className] == nil { classNames.append(className) }
        var c = ClassFields()
        for (name, type) in fields where name != "objectId" {
            c.names.append(name)
            if let type { c.types[name] = type }
        }
        classes[className] = c
        generation += 1
    }

    /// Takes in one object of `className` (creating the class if needed).
    public mutating func note(_ record: Record, in className: String) {
        var changed = false
        if classes[className] == nil {
            classNames.append(className)
            changed = true
        }
        if classes[className, default: ClassFields()].note(record) { changed = true }
        if changed { generation += 1 }
    }

    public func hasClass(_ className: String) -> Bool { classes[className] != nil }

    public func resolveField(_ name: String, in className: String) -> String? {
        if Database.systemFields.contains(name) { return name }
        guard let c = classes[className] else { return nil }
        if c.types[name] != nil || c.names.contains(name) { return name }
        let lowered = name.lowercased()
        let matches = c.names.filter { $0.lowercased() == lowered }
        return matches.count == 1 ? matches[0] : nil
    }

    /// A stored field's name and type from one lookup of its class; other names (system
    /// fields, other cases) as `resolveField` and `fieldType` answer them.
    public func field(_ name: String, in className: String) -> (stored: String, type: FieldType?)? {
        if name != "objectId", let type = classes[className]?.types[name] { return (name, type) }
        return resolveField(name, in: className).map { ($0, fieldType($0, in: className)) }
    }

    public func fieldType(_ field: String, in className: String) -> FieldType? {
        switch field {
        case "objectId": return .string
        case "createdAt", "updatedAt": return classes[className]?.types[field] ?? .date
        default: return classes[className]?.types[field]
        }
    }

    public func fieldNames(in className: String) -> [String] {
        guard let c = classes[className] else { return [] }
        return ["objectId"] + c.names.filter { $0 != "objectId" }
    }
}

extension FieldType {
    /// Merges one object's fields into a class's field types and first-seen field names;
    /// whether that changed them.
    @discardableResult
    static func note(_ record: Record, types: inout [String: FieldType], names: inout [String]) -> Bool {
        var changed = false
        for name in record.fieldOrder {
            guard let v = record.fields[name] else { continue }
            let t = FieldType.of(v)
            if let existing = types[name] {
                if let t, existing != t {
                    let merged = existing.merged(with: t)
                    if merged != existing {
                        types[name] = merged
                        changed = true
                    }
                }
            } else {
                // A field that has held only nulls so far has no type yet, but has its name.
                if !names.contains(name) {
                    names.append(name)
                    changed = true
                }
                if let t {
                    types[name] = t
                    changed = true
                }
            }
        }
        return changed
    }
}
