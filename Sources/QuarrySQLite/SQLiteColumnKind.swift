import Quarry
import QuarryStoreSupport

/// How one field of a class is stored in SQLite, decided from every value the class holds
/// there (nulls and missing values say nothing; `StoreFieldKind` merges them). A field whose values SQLite cannot hold with
/// the same comparisons is `unsupported`, and every query that tests it is not comparable.
indirect enum SQLiteColumnKind: StoreFieldKind {
    /// Int64 values only: INTEGER.
    case integer
    /// Doubles, possibly with integers that a double holds exactly: REAL.
    case real
    /// TEXT; `ascii` when every value is ASCII, so that SQLite's ASCII-only case folding
    /// (LIKE, NOCASE) agrees with Quarry's Unicode folding.
    case text(ascii: Bool)
    /// Epoch milliseconds: INTEGER.
    case date
    /// 0 or 1: INTEGER.
    case bool
    /// Two REAL columns, `<key>_lat` and `<key>_lon`.
    case geoPoint
    /// The objectId of an object of the class, as TEXT, whether or not the object is loaded
    /// (a pointer is its identity; a path through a dangling one finds no row).
    case pointer(to: String)
    /// A JSON array as TEXT, read with `json_each`; the elements are of one scalar kind (or
    /// null), pointers as their objectIds.
    case array(of: SQLiteColumnKind?)
    case unsupported(reason: String)

    /// The declared type, which gives the column its affinity.
    var declaredType: String {
        switch self {
        case .integer, .date, .bool: return "INTEGER"
        case .real, .geoPoint: return "REAL"
        case .text, .pointer, .array: return "TEXT"
        case .unsupported: return ""
        }
    }

    /// Whether two kinds compare the way Quarry compares their values (numbers across int
    /// and double; dates with dates; otherwise the same kind).
    func isComparable(with other: SQLiteColumnKind) -> Bool {
        switch (self, other) {
        case (.integer, .integer), (.integer, .real), (.real, .integer), (.real, .real),
            (.text, .text), (.date, .date), (.bool, .bool):
            return true
        case (.pointer(let a), .pointer(let b)): return a == b
        default: return false
        }
    }

    /// The kind of one non-null scalar value; nil for values that are not scalars.
    static func of(scalar v: Value) -> SQLiteColumnKind? {
        switch v {
        case .int: return .integer
        case .double(let d):
            return d.isFinite ? .real : .unsupported(reason: "it holds \(d), which SQLite stores as NULL")
        case .string(let s): return .text(ascii: s.utf8.allSatisfy { $0 < 0x80 })
        case .date: return .date
        case .bool: return .bool
        case .pointer(let p): return .pointer(to: p.className)
        default: return nil
        }
    }

    /// A geo point is stored as two REAL columns (`geoPoint`), whatever its coordinates.
    static func of(geoPoint g: GeoPoint) -> SQLiteColumnKind { .geoPoint }

    /// Strings together are ASCII only if both are; integers with doubles are doubles.
    func widened(with other: SQLiteColumnKind) -> SQLiteColumnKind? {
        switch (self, other) {
        case (.text(let a), .text(let b)): return .text(ascii: a && b)
        case (.integer, .real), (.real, .integer): return .real
        default: return nil
        }
    }

    var unsupportedReason: String? { if case .unsupported(let reason) = self { reason } else { nil } }
    var arrayElement: SQLiteColumnKind?? { if case .array(let element) = self { .some(element) } else { nil } }

    var name: String {
        switch self {
        case .integer: return "integer"
        case .real: return "double"
        case .text: return "string"
        case .date: return "date"
        case .bool: return "bool"
        case .geoPoint: return "geo point"
        case .pointer(let c): return "pointer to \(c)"
        case .array: return "array"
        case .unsupported: return "unsupported"
        }
    }
}

extension SQLiteColumnKind {
    /// Doubles hold integers exactly only up to 2^53 in magnitude.
    static func exactInReal(_ v: Value) -> Bool {
        guard case .int(let i) = v else { return true }
        return i.magnitude <= 1 << 53
    }
}
