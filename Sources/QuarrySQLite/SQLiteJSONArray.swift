import Quarry

/// The JSON text an array field is stored as: strings, numbers, bools (as true/false, which
/// `json_each` reads as 1/0, like bool columns), dates as epoch milliseconds, pointers as
/// their objectIds (a pointer is its identity, loaded or not), and nulls.
enum SQLiteJSONArray {
    static func text(_ value: Value) -> String {
        let items: [Value]
        switch value {
        case .array(let a): items = a
        case .relation(let className, let ids):
            items = ids.map { .pointer(Pointer(className: className, objectId: $0)) }
        default: items = []
        }
        return JSONWriter.string(
            .array(
                items.map { item -> JSON in
                    switch item {
                    case .int(let n): return .int(n)
                    case .double(let d): return .double(d)  // non-finite doubles never get here (unsupported kind)
                    case .string(let s): return .string(s)
                    case .bool(let b): return .bool(b)
                    case .date(let ms): return .int(ms)
                    case .pointer(let p): return .string(p.objectId)
                    default: return .null
                    }
                }))
    }
}
