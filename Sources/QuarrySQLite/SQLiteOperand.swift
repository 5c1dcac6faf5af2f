import Quarry

/// What a key path reaches, as SQL over the current row.
enum SQLiteOperand {
    /// One value (NULL when missing or null); `kind` nil when the field
    /// only ever holds null or does not exist.
    case scalar(String, SQLiteColumnKind?)
    /// A geo point's two columns (both NULL or neither).
    case geo(lat: String, lon: String)
    /// JSON array text, elements of `element` kind (nil: no non-null element anywhere).
    case array(String, element: SQLiteColumnKind?)
}

extension SQLiteTranslator {
    /// Where the current object's columns are: a row of the FROM clause, or the object a
    /// pointer expression leads to (a correlated lookup by objectId).
    private enum Place {
        case alias(String)
        case lookup(SQLiteTable, id: String)

        func column(_ quotedColumn: String) -> String {
            switch self {
            case .alias(let a): return "\(a).\(quotedColumn)"
            case .lookup(let table, let id):
                return "(SELECT \(quotedColumn) FROM \(table.name) WHERE objectId = \(id))"
            }
        }
    }

    /// The operand a key path reaches from the row. Paths may follow pointers (each hop is a
    /// lookup by objectId) and end in `latitude`/`longitude` of a geo point; paths through
    /// arrays are not translated.
    func operand(_ path: FieldPath, _ row: Row) throws(SQLiteNotComparable) -> SQLiteOperand {
        try operand(path.components[...], row.table, .alias(row.alias), path)
    }

    private func operand(
        _ components: ArraySlice<String>, _ table: SQLiteTable, _ place: Place,
        _ path: FieldPath
    ) throws(SQLiteNotComparable) -> SQLiteOperand {
        guard let field = components.first else { throw SQLiteNotComparable("an empty key path") }
        let rest = components.dropFirst()
        if field == "objectId" {
            guard rest.isEmpty else { return .scalar("NULL", nil) }
            return .scalar(place.column("objectId"), .text(ascii: false))
        }
        guard table.fields.contains(field) else {
            // Quarry reads a field no object has as missing.
            return .scalar("NULL", nil)
        }
        let kind = table.kind(field)
        switch kind {
        case .unsupported(let reason)?:
            throw SQLiteNotComparable("\(path) is not loaded into SQLite: \(table.className).\(field): \(reason)")
        case .geoPoint?:
            let lat = place.column(table.latitudeColumn(field)), lon = place.column(table.longitudeColumn(field))
            switch Array(rest) {
            case []: return .geo(lat: lat, lon: lon)
            case ["latitude"]: return .scalar(lat, .real)
            case ["longitude"]: return .scalar(lon, .real)
            default: return .scalar("NULL", nil)
            }
        case .pointer(let target)?:
            let id = place.column(table.column(field))
            if rest.isEmpty { return .scalar(id, kind) }
            // The pointer's own id, whether or not its object is loaded.
            if Array(rest) == ["objectId"] { return .scalar(id, .text(ascii: false)) }
            // No object of a class that is not stored: every such pointer dangles, and a path
            // through a dangling pointer is missing (docs/SEMANTICS.md#pointers).
            guard let next = tables[target] else { return .scalar("NULL", nil) }
            return try operand(rest, next, .lookup(next, id: id), path)
        case .array(let element)?:
            guard rest.isEmpty else {
                throw SQLiteNotComparable("the path \(path) maps over an array, which is not translated")
            }
            return .array(place.column(table.column(field)), element: element)
        case nil:
            return .scalar(rest.isEmpty ? place.column(table.column(field)) : "NULL", nil)
        default:
            // A step into a number or a string reaches nothing.
            return .scalar(rest.isEmpty ? place.column(table.column(field)) : "NULL", rest.isEmpty ? kind : nil)
        }
    }

    /// A literal as the parameter that compares with a value of `kind` the way Quarry compares
    /// them; nil when Quarry never finds them equal or ordered. `sqlDates`: under `.sql`, a
    /// date compares with a number as epoch milliseconds. `objectIdStrings`: under
    /// `.document`, a string equals a pointer with that objectId.
    func binding(_ v: Value, for kind: SQLiteColumnKind?, sqlDates: Bool, objectIdStrings: Bool)
        throws(SQLiteNotComparable) -> SQLiteBinding?
    {
        guard let kind else { return nil }
        if case .double(let d) = v, d.isNaN {
            throw SQLiteNotComparable("NaN orders below every number in Quarry; SQLite stores it as NULL")
        }
        switch (kind, v) {
        case (.date, .string(let s)) where sqlDates:
            // Quarry reads the literal as a Backendless date, and fails the query when it is not one.
            guard let ms = BackendlessDate.parse(s) else {
                throw SQLiteNotComparable("'\(s)' is not a date, which is an error in Quarry")
            }
            return .int(ms)
        case (.text, .date) where sqlDates:
            throw SQLiteNotComparable("Quarry reads the strings of a text field as dates here; SQLite would not")
        case (.integer, .int(let i)), (.real, .int(let i)): return .int(i)
        case (.integer, .double(let d)), (.real, .double(let d)): return .double(d)
        case (.integer, .date(let ms)) where sqlDates, (.real, .date(let ms)) where sqlDates: return .int(ms)
        case (.date, .date(let ms)): return .int(ms)
        case (.date, .int(let i)) where sqlDates: return .int(i)
        case (.date, .double(let d)) where sqlDates: return .double(d)
        case (.text, .string(let s)): return .text(s)
        case (.text, .pointer(let p)) where objectIdStrings: return .text(p.objectId)
        case (.bool, .bool(let b)): return .int(b ? 1 : 0)
        case (.pointer(let c), .pointer(let p)) where p.className == c: return .text(p.objectId)
        case (.pointer, .string(let s)) where objectIdStrings: return .text(s)
        default: return nil
        }
    }
}
