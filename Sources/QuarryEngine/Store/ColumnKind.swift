import QuarryCore

/// How a column stores its values.
enum ColumnKind: Hashable, CustomStringConvertible {
    case int
    case double
    case string
    /// Epoch milliseconds.
    case date
    case bool
    case geoPoint
    /// Pointers into one class, resolved to row numbers of that class.
    case pointer(to: String)
    /// Arrays whose elements are stored in a column of this kind.
    indirect case array(of: ColumnKind)
    /// Mixed types, arrays, objects and the like: nothing is stored typed, every value is read
    /// from its record.
    case generic

    var description: String {
        switch self {
        case .int: return "int"
        case .double: return "double"
        case .string: return "string"
        case .date: return "date"
        case .bool: return "bool"
        case .geoPoint: return "geoPoint"
        case .pointer(let c): return "pointer to \(c)"
        case .array(let e): return "array of \(e)"
        case .generic: return "generic"
        }
    }

    /// The kind a single value would be stored as; nil for null.
    static func of(_ v: Value) -> ColumnKind? {
        switch v {
        case .null: return nil
        case .int: return .int
        case .double: return .double
        case .string: return .string
        case .date: return .date
        case .bool: return .bool
        case .geoPoint: return .geoPoint
        case .pointer(let p): return .pointer(to: p.className)
        case .array(let items) where !items.isEmpty:
            switch best(for: items) {
            case .generic, .array, .pointer, .geoPoint: return .generic
            case let element: return .array(of: element)
            }
        default: return .generic
        }
    }

    /// The kind that stores most of a field's values: the typed kind holding at least
    /// `typedShare` of the non-null values (ints and doubles count together as numbers, stored
    /// as doubles when any double appears and every int survives the conversion exactly),
    /// else generic.
    static func best(for values: some Sequence<Value>) -> ColumnKind {
        var counts: [ColumnKind: Int] = [:]
        var total = 0
        var intsExact = true
        var arrays = 0
        var elements: [Value] = []
        for v in values {
            guard var k = of(v) else { continue }
            if case .array = k { k = .generic }
            total += 1
            counts[k, default: 0] += 1
            if case .int(let i) = v, !DoubleColumn.holdsExactly(i) { intsExact = false }
            if case .array(let items) = v {
                arrays += 1
                elements += items
            }
        }
        // Arrays of scalars of one type get a typed element column.
        if arrays > 0, Double(arrays) >= Double(total) * typedShare {
            let element = best(for: elements)
            switch element {
            case .generic, .array, .pointer, .geoPoint: return .generic
            default: return .array(of: element)
            }
        }
        guard total > 0 else { return .generic }
        let ints = counts[.int] ?? 0, doubles = counts[.double] ?? 0
        if doubles > 0, intsExact {
            counts[.double] = ints + doubles
            counts[.int] = nil
        }
        guard let (kind, n) = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key.description < $1.key.description) }),
            kind != .generic, Double(n) >= Double(total) * typedShare
        else { return .generic }
        return kind
    }

    /// Below this share of typed values a column is stored generic.
    static let typedShare = 0.9
}
