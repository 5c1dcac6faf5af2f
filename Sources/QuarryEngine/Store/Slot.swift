import QuarryCore

/// What one row holds at a key, as a typed column sees it. Stored as one byte per row.
enum Slot: UInt8 {
    /// The object has no such field (or a pointer on the way leads nowhere).
    case missing = 0
    /// The field holds null, or a pointer whose object does not exist (dangling behaves as null).
    case null = 1
    /// The field holds a value of the column's type, stored in the typed array.
    case value = 2
    /// The field holds a value the column cannot store typed; the column keeps it as a `Value`.
    case other = 3
}

extension Value {
    /// Whether the value reaches several values through a key path (arrays, relations).
    var isMultiValued: Bool {
        switch self {
        case .array, .relation: return true
        default: return false
        }
    }

    /// A bit per type rank (`typeRank`), to remember which types a field has held.
    var typeBit: UInt16 { 1 << UInt16(typeRank) }

    /// The type bits of the value and, for arrays and relations, of its elements (relation
    /// elements are pointers).
    var typeBitsWithElements: UInt16 {
        switch self {
        case .array(let items): return items.reduce(typeBit) { $0 | $1.typeBit }
        case .relation(_, let ids): return typeBit | (ids.isEmpty ? 0 : Value.pointerBit)
        default: return typeBit
        }
    }

    static let pointerBit: UInt16 = 1 << 10
}
