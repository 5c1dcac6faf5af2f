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
    /// as doubles when any double appears and every int survives the conversion exactly;
    /// arrays whose elements have a typed kind get an array column), else generic.
    static func best(for values: some Sequence<Value>) -> ColumnKind {
        // Counted by case rather than in a dictionary: this runs over every stored value.
        var ints = 0, doubles = 0, strings = 0, dates = 0, bools = 0, points = 0, pointers = 0, others = 0
        var pointerClass: String? = nil, mixedPointers = false
        var intsExact = true
        var arrays = 0
        var elements: [Value] = []
        var total = 0
        for v in values {
            switch v {
            case .null: continue
            case .int(let i):
                ints += 1
                if !DoubleColumn.holdsExactly(i) { intsExact = false }
            case .double: doubles += 1
            case .string: strings += 1
            case .date: dates += 1
            case .bool: bools += 1
            case .geoPoint: points += 1
            case .pointer(let p):
                pointers += 1
                if let c = pointerClass, c != p.className { mixedPointers = true }
                pointerClass = pointerClass ?? p.className
            case .array(let items):
                arrays += 1
                elements += items
            default: others += 1
            }
            total += 1
        }
        guard total > 0 else { return .generic }
        let need = Double(total) * typedShare
        if Double(arrays) >= need {
            // Arrays of scalars of one type get a typed element column.
            switch best(for: elements) {
            case .generic, .array, .pointer, .geoPoint: return .generic
            case let element: return .array(of: element)
            }
        }
        if doubles > 0, intsExact, Double(ints + doubles) >= need { return .double }
        if Double(ints) >= need { return .int }
        if Double(doubles) >= need { return .double }
        if Double(strings) >= need { return .string }
        if Double(dates) >= need { return .date }
        if Double(bools) >= need { return .bool }
        if Double(points) >= need { return .geoPoint }
        if Double(pointers) >= need, !mixedPointers, let c = pointerClass { return .pointer(to: c) }
        return .generic
    }

    /// Below this share of typed values a column is stored generic.
    static let typedShare = 0.9
}
