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
    /// Arrays of pointers into one class, and Relations to it, as lists of its rows.
    case pointerList(to: String)
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
        case .pointerList(let c): return "pointers to \(c)"
        case .generic: return "generic"
        }
    }

    /// Whether a field that `present` of a class's `rows` objects hold is sparse: its column is
    /// then generic, its few values kept by row and a slot byte per row, instead of a typed
    /// array as long as the class (docs/STORAGE.md#sparse-fields). Small classes never are.
    static func isSparse(present: Int, rows: Int) -> Bool {
        rows >= sparseFloor && present * sparseRatio < rows
    }

    /// Rows a class has at least before a field can be sparse.
    static let sparseFloor = 4096
    /// A sparse field is held by fewer than one object in this many: rare enough that asking
    /// the reference for each of its values (about a microsecond each) costs a scan no more
    /// than a few milliseconds per million rows, where its typed array would cost 8 bytes a row.
    static let sparseRatio = 256

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
            case .pointer(let c): return .pointerList(to: c)
            case .generic, .array, .geoPoint, .pointerList: return .generic
            case let element: return .array(of: element)
            }
        case .relation(let c, _): return .pointerList(to: c)
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
        var pointerClass: String? = nil, mixedPointers = false, relationClass: String? = nil
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
            case .relation(let c, _):
                arrays += 1
                relationClass = relationClass ?? c
                if relationClass != c { mixedPointers = true }
            default: others += 1
            }
            total += 1
        }
        guard total > 0 else { return .generic }
        let need = Double(total) * typedShare
        if Double(arrays) >= need {
            // Arrays of scalars of one type get a typed element column; arrays of pointers
            // into one class (and relations to it) a list of its rows.
            switch best(for: elements) {
            case .pointer(let c) where !mixedPointers && (relationClass ?? c) == c: return .pointerList(to: c)
            case .generic where elements.isEmpty:
                if let c = relationClass, !mixedPointers { return .pointerList(to: c) }
                return .generic
            case .generic, .array, .pointer, .geoPoint, .pointerList: return .generic
            case let element: return relationClass == nil ? .array(of: element) : .generic
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
