import QuarryCore

/// A store's classes and field types as the front-ends see them (`Schema`), answering as a
/// `Database` holding the same objects answers (types widen as objects are saved and are not
/// narrowed by deletes, as `ClassData`'s are not). Both stores build it from their catalog
/// (docs/STORAGE.md).
public struct StoreSchema: Schema, Sendable {
    public let classNames: [String]
    /// Each class's fields in catalog order, with the type their values share (nil: mixed).
    let fields: [String: [(String, FieldType?)]]

    package init(classNames: [String], fields: [String: [(String, FieldType?)]]) {
        self.classNames = classNames
        self.fields = fields
    }

    public func hasClass(_ className: String) -> Bool { fields[className] != nil }

    public func resolveField(_ name: String, in className: String) -> String? {
        if Database.systemFields.contains(name) { return name }
        let names = fields[className]?.map(\.0) ?? []
        if names.contains(name) { return name }
        let lowered = name.lowercased()
        let matches = names.filter { $0.lowercased() == lowered }
        return matches.count == 1 ? matches[0] : nil
    }

    public func fieldType(_ field: String, in className: String) -> FieldType? {
        switch field {
        case "objectId": return .string
        case "createdAt", "updatedAt": return type(field, className) ?? .date
        default: return type(field, className)
        }
    }

    public func fieldNames(in className: String) -> [String] {
        guard let names = fields[className]?.map(\.0) else { return [] }
        return ["objectId"] + names
    }

    private func type(_ field: String, _ className: String) -> FieldType? {
        fields[className]?.first { $0.0 == field }?.1
    }
}
