import Quarry

/// How one field of a class is stored in SQLite, decided from every value the class holds
/// there (nulls and missing values say nothing). A field whose values SQLite cannot hold with
/// the same comparisons is `unsupported`, and every query that tests it is not comparable.
indirect enum SQLiteColumnKind: Equatable {
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

    /// The kind that holds values of both kinds, or `unsupported`.
    func merged(with other: SQLiteColumnKind) -> SQLiteColumnKind {
        switch (self, other) {
        case (.unsupported, _): return self
        case (_, .unsupported): return other
        case (.text(let a), .text(let b)): return .text(ascii: a && b)
        case (.integer, .real), (.real, .integer): return .real
        case (.array(let a), .array(let b)):
            switch (a, b) {
            case (nil, _): return other
            case (_, nil): return self
            case (let x?, let y?):
                let element = x.merged(with: y)
                if case .unsupported(let reason) = element {
                    return .unsupported(reason: "its arrays mix element types (\(reason))")
                }
                return .array(of: element)
            }
        default:
            if self == other { return self }
            return .unsupported(reason: "it holds values of several types (\(self.name) and \(other.name))")
        }
    }

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
    /// The kind of one stored value; nil for null.
    static func of(_ v: Value) -> SQLiteColumnKind? {
        switch v {
        case .null: return nil
        case .geoPoint: return .geoPoint
        case .relation(let className, _): return .array(of: .pointer(to: className))
        case .array(let items):
            var element: SQLiteColumnKind? = nil
            for item in items where !item.isNull {
                guard let k = of(scalar: item) else {
                    return .unsupported(reason: "its arrays hold \(item.typeName) values")
                }
                element = element.map { $0.merged(with: k) } ?? k
            }
            if case .unsupported(let reason)? = element { return .unsupported(reason: reason) }
            return .array(of: element)
        case .int, .double, .string, .date, .bool, .pointer:
            return of(scalar: v)
        case .bytes, .polygon, .file, .object:
            return .unsupported(reason: "it holds \(v.typeName) values")
        }
    }

    /// Doubles hold integers exactly only up to 2^53 in magnitude.
    static func exactInReal(_ v: Value) -> Bool {
        guard case .int(let i) = v else { return true }
        return i.magnitude <= 1 << 53
    }
}
