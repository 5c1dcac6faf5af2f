import Foundation
import Quarry

/// The SQLite table that holds one class: `objectId TEXT PRIMARY KEY`, then one column per
/// field (two for a geo point), in the class's field order. Rows are inserted in the class's
/// order, so `rowid` order is insertion order.
struct SQLiteTable {
    let className: String
    /// Quoted table name.
    let name: String
    /// Every field of the class with its kind; unsupported fields have no column.
    private(set) var kinds: [String: SQLiteColumnKind] = [:]
    private(set) var fields: [String] = []
    /// Fields holding a string with a NUL somewhere (alone or in an array), which SQLite's
    /// pattern matching cannot test.
    private(set) var nulFields: Set<String> = []
    /// The store's numbered columns (`f<n>`, and `g<n>` for a geo point's longitude), so that
    /// no field name is ever written into SQL; nil for the peer, whose columns are named
    /// after the fields.
    private var columnNumbers: [String: Int]? = nil

    /// A class of the SQLite store, from its catalog (docs/STORAGE.md).
    init(
        className: String, name: String, fields: [String], kinds: [String: SQLiteColumnKind],
        nulFields: Set<String>, columnNumbers: [String: Int]
    ) {
        self.nulFields = nulFields
        self.className = className
        self.name = name
        self.fields = fields
        self.kinds = kinds
        self.columnNumbers = columnNumbers
    }

    init(_ data: ClassData, in database: Database) {
        className = data.name
        name = sqlIdentifier(data.name)
        var largeInts: Set<String> = []
        for record in data.records {
            for field in record.fieldOrder {
                guard let v = record.fields[field], let k = SQLiteColumnKind.of(v) else {
                    if kinds[field] == nil, !fields.contains(field) { fields.append(field) }
                    continue
                }
                if !SQLiteColumnKind.exactInReal(v) { largeInts.insert(field) }
                if v.holdsNUL { nulFields.insert(field) }
                if let existing = kinds[field] {
                    if existing != k { kinds[field] = existing.merged(with: k) }
                } else {
                    if !fields.contains(field) { fields.append(field) }
                    kinds[field] = k
                }
            }
        }
        for field in largeInts where kinds[field] == .real {
            kinds[field] = .unsupported(reason: "it mixes doubles with integers beyond 2^53, which REAL would round")
        }
        for field in fields {
            if case .pointer(let target)? = kinds[field], database[target] == nil {
                kinds[field] = .unsupported(reason: "it points to the class \(target), which the data does not hold")
            }
            if kinds[field] == .geoPoint, fields.contains(field + "_lat") || fields.contains(field + "_lon") {
                kinds[field] = .unsupported(
                    reason: "its columns \(field)_lat and \(field)_lon would clash with fields of those names")
            }
            if field == "objectId" || field.lowercased() == "rowid" {
                kinds[field] = .unsupported(reason: "its name is reserved in the SQLite table")
            }
        }
    }

    /// A field with no values at all but nulls has kind nil: every test on it sees null.
    func kind(_ field: String) -> SQLiteColumnKind? {
        field == "objectId" ? .text(ascii: false) : kinds[field]
    }

    /// The quoted column of a stored field (not a geo point).
    func column(_ field: String) -> String {
        guard let columnNumbers else { return sqlIdentifier(field) }
        return columnNumbers[field].map { "f\($0)" } ?? "NULL"
    }
    func latitudeColumn(_ field: String) -> String {
        columnNumbers == nil ? sqlIdentifier(field + "_lat") : column(field)
    }
    func longitudeColumn(_ field: String) -> String {
        guard let columnNumbers else { return sqlIdentifier(field + "_lon") }
        return columnNumbers[field].map { "g\($0)" } ?? "NULL"
    }

    /// Columns in table order, each with its declared type.
    var columnDefinitions: [String] {
        var defs = ["objectId TEXT PRIMARY KEY"]
        for field in fields {
            switch kinds[field] {
            case nil: defs.append(column(field))
            case .unsupported?: continue
            case .geoPoint?:
                defs.append(latitudeColumn(field) + " REAL")
                defs.append(longitudeColumn(field) + " REAL")
            case let k?: defs.append(column(field) + " " + k.declaredType)
            }
        }
        return defs
    }

    var createStatement: String {
        "CREATE TABLE \(name) (" + columnDefinitions.joined(separator: ", ") + ")"
    }

    /// Stored fields in column order (after objectId), with the number of columns each takes.
    var storedFields: [(field: String, kind: SQLiteColumnKind?)] {
        fields.compactMap { field in
            if case .unsupported? = kinds[field] { return nil }
            return (field, kinds[field])
        }
    }
}

extension Value {
    /// A string with a NUL, or an array holding one.
    var holdsNUL: Bool {
        switch self {
        case .string(let s): return s.utf8.contains(0)
        case .array(let items): return items.contains(where: \.holdsNUL)
        default: return false
        }
    }
}

/// A double-quoted SQL identifier.
func sqlIdentifier(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
