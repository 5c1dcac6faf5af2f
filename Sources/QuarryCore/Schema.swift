/// What a front-end may ask about the data while it lowers a query, so that it can report
/// unknown classes, wrong relation columns and type conflicts at the place they are written.
/// Without a schema, front-ends check syntax only.
public protocol Schema: Sendable {
    /// Whether the class exists.
    func hasClass(_ className: String) -> Bool
    /// The field's name as stored: the exact name if it exists, else the unique
    /// case-insensitive match (Backendless resolves `Coordinates` to `coordinates`), else nil.
    func resolveField(_ name: String, in className: String) -> String?
    /// The field's type, if the class has the field.
    func fieldType(_ field: String, in className: String) -> FieldType?
    /// `resolveField` and the stored field's `fieldType` in one call; nil when the name does
    /// not resolve. A schema that answers both from one lookup overrides it (front-ends ask it
    /// for every name they lower).
    func field(_ name: String, in className: String) -> (stored: String, type: FieldType?)?
    /// Every class name (for "did you mean" hints; empty when the schema cannot list them).
    var classNames: [String] { get }
    /// The class's field names (for "did you mean" hints; empty when unknown).
    func fieldNames(in className: String) -> [String]
}

extension Schema {
    public func field(_ name: String, in className: String) -> (stored: String, type: FieldType?)? {
        resolveField(name, in: className).map { ($0, fieldType($0, in: className)) }
    }

    public var classNames: [String] { [] }
    public func fieldNames(in className: String) -> [String] { [] }
}

/// The type of a field as seen across a class's objects.
public indirect enum FieldType: Hashable, Codable, Sendable, CustomStringConvertible {
    case bool, number, string, date, bytes, geoPoint, polygon, file, object
    case array(of: FieldType?)
    /// One-to-one relation.
    case pointer(to: String)
    /// One-to-many relation: an array of pointers, or a Parse Relation.
    case relation(to: String)
    /// Values of several types were seen.
    case mixed

    public var description: String {
        switch self {
        case .bool: return "bool"
        case .number: return "number"
        case .string: return "string"
        case .date: return "date"
        case .bytes: return "bytes"
        case .geoPoint: return "geoPoint"
        case .polygon: return "polygon"
        case .file: return "file"
        case .object: return "object"
        case .array(let e): return e.map { "array of \($0)" } ?? "array"
        case .pointer(let c): return "pointer to \(c)"
        case .relation(let c): return "relation to \(c)"
        case .mixed: return "mixed"
        }
    }

    /// The class a pointer or relation field leads to.
    public var targetClass: String? {
        switch self {
        case .pointer(let c), .relation(let c): return c
        default: return nil
        }
    }
}
