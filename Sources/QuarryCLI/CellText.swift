import QuarryCore

/// How one value reads in a table cell: short, unquoted at the top level, typed values in a
/// compact form (`Address:a1` for a pointer, `(30.27, -97.74)` for a geo point).
enum CellText {
    static func cell(_ value: Value?) -> TextTable.Cell {
        guard let value else { return .empty }
        switch value {
        case .int, .double: return TextTable.Cell(text: text(value), numeric: true)
        case .null: return TextTable.Cell(text: text(value), numeric: nil)
        default: return TextTable.Cell(text: text(value), numeric: false)
        }
    }

    static func text(_ value: Value, nested: Bool = false) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return number(d)
        case .string(let s): return nested ? JSONText.quote(s) : s
        case .date(let ms): return ISODate.format(ms)
        case .bytes(let b): return "<\(b.count) bytes>"
        case .geoPoint(let g): return "(\(number(g.latitude)), \(number(g.longitude)))"
        case .polygon(let points): return "polygon(\(points.count) points)"
        case .pointer(let p): return "\(p.className):\(p.objectId)"
        case .relation(let c, let ids): return "\(c):[" + ids.joined(separator: ", ") + "]"
        case .file(let f): return f.name
        case .array(let items): return "[" + items.map { text($0, nested: true) }.joined(separator: ", ") + "]"
        case .object(let fields):
            // An included pointer arrives as a Parse object; its id says the most.
            if case .string("Object")? = fields["__type"], case .string(let c)? = fields["className"],
                case .string(let id)? = fields["objectId"]
            {
                return "\(c):\(id){…}"
            }
            let members = fields.keys.sorted().map {
                "\(JSONText.quote($0)): \(text(fields[$0] ?? .null, nested: true))"
            }
            return "{" + members.joined(separator: ", ") + "}"
        }
    }

    /// Integral doubles without a trailing `.0` would read as ints; keep Swift's shortest form.
    private static func number(_ d: Double) -> String { d.description }
}
