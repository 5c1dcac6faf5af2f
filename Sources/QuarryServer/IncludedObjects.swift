import Quarry

/// The objects an `include` embedded in a result (`{"__type":"Object","className",…}`).
enum IncludedObjects {
    static func collect(_ value: Value, into wanted: inout [String: Set<String>]) {
        switch value {
        case .object(let fields):
            if let (className, id) = identity(fields) { wanted[className, default: []].insert(id) }
            for inner in fields.values { collect(inner, into: &wanted) }
        case .array(let items):
            for item in items { collect(item, into: &wanted) }
        default:
            break
        }
    }

    /// The value with every embedded object not in `readable` replaced by its pointer.
    static func hiding(_ value: Value, unless readable: [String: Set<String>]) -> Value {
        switch value {
        case .object(let fields):
            if let (className, id) = identity(fields), readable[className]?.contains(id) != true {
                return .pointer(Pointer(className: className, objectId: id))
            }
            return .object(fields.mapValues { hiding($0, unless: readable) })
        case .array(let items):
            return .array(items.map { hiding($0, unless: readable) })
        default:
            return value
        }
    }

    private static func identity(_ fields: [String: Value]) -> (String, String)? {
        guard fields["__type"] == .string("Object"), case .string(let className)? = fields["className"],
            case .string(let id)? = fields["objectId"]
        else { return nil }
        return (className, id)
    }
}
