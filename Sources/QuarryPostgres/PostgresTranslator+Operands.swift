import Quarry

/// What a key path reaches, as SQL over the current row.
enum PostgresOperand {
    /// One value, SQL NULL when missing or null (`doc` holds no nulls): `jsonb` for numbers,
    /// dates and bools, text `COLLATE "C"` for strings and pointers; `kind` nil when the field
    /// only ever held null or does not exist.
    case scalar(String, PostgresKind?)
    /// A geo point's `[lat, lon]`.
    case geo(String)
    /// A `jsonb` array whose non-null elements are of `element` kind.
    case array(String, element: PostgresKind?)
}

/// A literal's text and the type it is cast to in the SQL.
struct Literal: Equatable {
    let text: String
    let cast: String
    init(_ text: String, _ cast: String) {
        self.text = text
        self.cast = cast
    }
}

extension PostgresTranslator {
    /// Where the current object's document is: a row of the FROM clause, or the object a pointer
    /// leads to (a correlated lookup by objectid, NULL when no object has that id).
    private enum Place {
        case row(Row)
        case lookup(PostgresCatalog.Class, id: String, depth: Int)

        var doc: String {
            switch self {
            case .row(let row): return "\(row.alias).doc"
            case .lookup(let table, let id, let depth):
                return "(SELECT l\(depth).doc FROM \(table.table) AS l\(depth) WHERE l\(depth).objectid = \(id))"
            }
        }

        var objectId: String {
            switch self {
            case .row(let row): return "\(row.alias).objectid"
            case .lookup(let table, let id, let depth):
                return "(SELECT l\(depth).objectid FROM \(table.table) AS l\(depth) WHERE l\(depth).objectid = \(id))"
            }
        }

        /// A string field's text in the "C" collation; on the row, the expression its index is
        /// built on.
        func text(_ field: PostgresCatalog.Field) -> String {
            if case .row(let row) = self { return PostgresTranslator.text(row, field) }
            return "((\(doc)->>'f\(field.number)') COLLATE \"C\")"
        }
    }

    /// The operand a key path reaches from the row: a field, the objectId, a geo point's
    /// latitude or longitude, and the same through pointers (each hop a lookup of the target by
    /// objectid: a dangling or null pointer reaches nothing, as in Quarry). Paths through arrays
    /// stay residual.
    func operand(_ path: FieldPath, _ row: Row) throws(PostgresNotComparable) -> PostgresOperand {
        try operand(path.components[...], row.table, .row(row), path)
    }

    private func operand(
        _ components: ArraySlice<String>, _ table: PostgresCatalog.Class, _ place: Place, _ path: FieldPath
    ) throws(PostgresNotComparable) -> PostgresOperand {
        guard let name = components.first else { throw PostgresNotComparable("an empty key path") }
        let rest = components.dropFirst()
        if name == "objectId" {
            return rest.isEmpty ? .scalar(place.objectId, .text) : .scalar("NULL", nil)
        }
        // Quarry reads a field no object has as missing.
        guard let field = table.field(name) else { return .scalar("NULL", nil) }
        let doc = "\(place.doc)->'f\(field.number)'"
        switch field.kind {
        case .unsupported(let reason)?: throw PostgresNotComparable("\(path) is not pushed down: \(reason)")
        case .geoPoint?:
            switch Array(rest) {
            case []: return .geo("(\(doc))")
            case ["latitude"]: return .scalar("(\(doc)->0)", .number)
            case ["longitude"]: return .scalar("(\(doc)->1)", .number)
            default: return .scalar("NULL", nil)
            }
        case .pointer(let target)?:
            if rest.isEmpty { return .scalar(place.text(field), field.kind) }
            // The pointer's own id, whether or not its object is there.
            if Array(rest) == ["objectId"] { return .scalar(place.text(field), .text) }
            // A class the store does not hold: every such pointer dangles, and reaches nothing.
            guard let next = catalog.classes[target] else { return .scalar("NULL", nil) }
            // The id without a collation of its own, so that the lookup uses the objectid index.
            let depth = if case .lookup(_, _, let d) = place { d + 1 } else { 1 }
            let id = "(\(place.doc)->>'f\(field.number)')"
            return try operand(rest, next, .lookup(next, id: id, depth: depth), path)
        case .array(let element)?:
            guard rest.isEmpty else {
                throw PostgresNotComparable("the path \(path) maps over an array, which Quarry evaluates")
            }
            return .array("(\(doc))", element: element)
        case .text?:
            // A step into a string reaches nothing.
            return rest.isEmpty ? .scalar(place.text(field), .text) : .scalar("NULL", nil)
        case .number?, .date?, .bool?, nil:
            return rest.isEmpty ? .scalar("(\(doc))", field.kind) : .scalar("NULL", nil)
        }
    }

    /// The text expression of a field, the same one its expression index is built on.
    static func text(_ row: Row, _ field: PostgresCatalog.Field) -> String {
        "((\(row.alias).doc->>'f\(field.number)') COLLATE \"C\")"
    }

    /// An array element (`value`, from `jsonb_array_elements_text`) as its kind compares.
    static func element(_ kind: PostgresKind?) -> String {
        switch kind {
        case .number?, .date?: return "value::numeric"
        case .bool?: return "value::boolean"
        case .text?, .pointer?: return "(value COLLATE \"C\")"
        default: return "value"
        }
    }

    func exists(_ array: String, _ condition: String) -> String {
        "EXISTS (SELECT 1 FROM jsonb_array_elements_text(\(array)) AS e(value) WHERE \(condition))"
    }

    /// A literal as the parameter that compares with a value of `kind` the way Quarry compares
    /// them; nil when Quarry never finds them equal or ordered. `sqlDates`: under `.sql`, a
    /// date compares with a number as epoch milliseconds. `objectIdStrings`: under
    /// `.document`, a string equals a pointer with that objectId. `element`: the value is an
    /// array element (`numeric`/`boolean`/text) rather than a `jsonb` scalar.
    func binding(
        _ v: Value, for kind: PostgresKind?, sqlDates: Bool, objectIdStrings: Bool, element: Bool
    ) throws(PostgresNotComparable) -> Literal? {
        guard let kind else { return nil }
        if case .double(let d) = v, !d.isFinite {
            throw PostgresNotComparable("a NaN or infinite literal has no jsonb form; Quarry compares it")
        }
        if case .string(let s) = v, s.utf8.contains(0) {
            throw PostgresNotComparable("PostgreSQL text cannot hold the NUL in a literal; Quarry compares it")
        }
        let number = element ? "numeric" : "jsonb"
        switch (kind, v) {
        case (.date, .string(let s)) where sqlDates:
            // Quarry reads the literal as a Backendless date, and fails the query when it is not one.
            guard let ms = BackendlessDate.parse(s) else {
                throw PostgresNotComparable("'\(s)' is not a date, which is an error in Quarry")
            }
            return Literal(String(ms), number)
        case (.text, .date) where sqlDates:
            throw PostgresNotComparable("Quarry reads the strings of a text field as dates here")
        case (.number, .int(let i)): return Literal(String(i), number)
        case (.number, .double(let d)): return Literal(PostgresRecordCodec.number(d)!, number)
        case (.number, .date(let ms)) where sqlDates, (.date, .date(let ms)): return Literal(String(ms), number)
        case (.date, .int(let i)) where sqlDates: return Literal(String(i), number)
        case (.date, .double(let d)) where sqlDates: return Literal(PostgresRecordCodec.number(d)!, number)
        case (.text, .string(let s)): return Literal(s, "text")
        case (.text, .pointer(let p)) where objectIdStrings: return Literal(p.objectId, "text")
        case (.bool, .bool(let b)): return Literal(b ? "true" : "false", element ? "boolean" : "jsonb")
        case (.pointer(let c), .pointer(let p)) where p.className == c: return Literal(p.objectId, "text")
        case (.pointer, .string(let s)) where objectIdStrings: return Literal(s, "text")
        default: return nil
        }
    }

    mutating func parameter(_ l: Literal) -> String { parameter(l.text, l.cast) }

    /// `($1::t, $2::t, …)` for the literals.
    mutating func parameterList(_ ls: [Literal]) -> String {
        "(" + ls.map { parameter($0) }.joined(separator: ", ") + ")"
    }
}
