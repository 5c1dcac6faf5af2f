import Quarry

/// The JSON text an array field is stored as: strings, numbers, bools (as true/false, which
/// `json_each` reads as 1/0, like bool columns), dates as epoch milliseconds, pointers as
/// their objectIds (dangling ones as null), and nulls.
enum SQLiteJSONArray {
    static func text(_ value: Value, database: Database) -> String {
        let items: [Value]
        switch value {
        case .array(let a): items = a
        case .relation(let className, let ids): items = ids.map { .pointer(Pointer(className: className, objectId: $0)) }
        default: items = []
        }
        return JSONWriter.string(.array(items.map { item -> JSON in
            switch item {
            case .int(let n): return .int(n)
            case .double(let d): return .double(d)  // non-finite doubles never get here (unsupported kind)
            case .string(let s): return .string(s)
            case .bool(let b): return .bool(b)
            case .date(let ms): return .int(ms)
            case .pointer(let p): return database.resolve(p) != nil ? .string(p.objectId) : .null
            default: return .null
            }
        }))
    }
}
