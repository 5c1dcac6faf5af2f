import QuarryCore

/// `containsAll(arr, list)` and `containedBy(arr, list)` on an array column whose elements are
/// all typed or null: each element is matched against the list once, as a bit per list member
/// it equals (the reference's equality: numbers by value, strings exactly, null equal to null,
/// under the document semantics a pointer equal to the string of its objectId, other types
/// never equal).
final class ArrayListLeaf: KeyLeaf {
    enum Mode { case containsAll, containedBy }

    /// A list member as the element column compares with it.
    enum Member: Equatable {
        case int(Int64)
        case double(Double)
        case string([UInt8])
        case bool(Bool)
        case null
        /// Equal to no element of this column.
        case never
    }

    let arrays: ElementSource
    let mode: Mode
    let members: [Member]
    let invert: Bool
    /// The members of the execution's list, when the leaf reads them (docs/ARCHITECTURE.md#plan-parameters).
    let membersOf: Parameter<[Member]>?

    /// Nil when the list is too long for one word of bits (64 members).
    /// - Parameter invertResult: Parse's `$ne: null` (no null element) as `containsAll([null])`.
    init?(
        _ leaf: Leaf, access: KeyAccess, elements arrays: ElementSource, mode: Mode, list: [Value],
        invertResult: Bool = false,
        answers: SlotAnswers, parameter: Parameter<[Member]>? = nil
    ) {
        guard list.count <= 64, arrays.targets == nil else { return nil }
        self.arrays = arrays
        self.mode = mode
        let document = leaf.semantics == .document
        self.members = list.map { Self.member($0, arrays.elements.kind, document: document) }
        self.invert = leaf.negated != invertResult
        membersOf = parameter
        super.init(
            leaf, access: access, answers: answers, cost: 5 + Double(list.count), selectivity: 0.1,
            parameterSlots: parameter?.slots)
    }

    static func member(_ v: Value, _ kind: ColumnKind, document: Bool) -> Member {
        if document, kind == .string, let p = v.objectIdentity { return .string(Array(p.objectId.utf8)) }
        switch (kind, v) {
        case (_, .null): return .null
        case (.int, .int(let i)), (.date, .date(let i)): return .int(i)
        case (.int, .double(let d)):
            guard d == d.rounded(.towardZero), d >= -9.223372036854775808e18, d < 9.223372036854775808e18 else {
                return .never
            }
            return .int(Int64(d))
        case (.double, .double(let d)): return .double(d)
        case (.double, .int(let i)): return DoubleColumn.holdsExactly(i) ? .double(Double(i)) : .never
        case (.string, .string(let s)): return .string(Array(s.utf8))
        case (.bool, .bool(let b)): return .bool(b)
        default: return .never
        }
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let members = membersOf?.madeValue(ctx, for: self) ?? self.members
        let nullBits = members.enumerated().reduce(UInt64(0)) {
            $0 | ($1.element == .null ? 1 << UInt64($1.offset) : 0)
        }
        let elements = arrays.elements
        switch elements {
        case let c as Int64Column:
            let keys = members.map { m -> Int64? in if case .int(let i) = m { return i } else { return nil } }
            try c.values.withUnsafeBufferPointer { (v) throws(Diagnostic) in
                try scan(&b, ctx, members.count, nullBits) { e in Self.bits(keys) { $0 == v[e] } }
            }
        case let c as DoubleColumn:
            let keys = members.map { m -> Double? in if case .double(let d) = m { return d } else { return nil } }
            try c.values.withUnsafeBufferPointer { (v) throws(Diagnostic) in
                try scan(&b, ctx, members.count, nullBits) { e in
                    let x = v[e]
                    return Self.bits(keys) { x.isNaN ? $0.isNaN : $0 == x }
                }
            }
        case let c as BoolColumn:
            let keys = members.map { m -> Bool? in if case .bool(let x) = m { return x } else { return nil } }
            try c.values.withUnsafeBufferPointer { (v) throws(Diagnostic) in
                try scan(&b, ctx, members.count, nullBits) { e in Self.bits(keys) { $0 == v[e] } }
            }
        case let c as StringColumn:
            let keys = members.map { m -> [UInt8]? in if case .string(let s) = m { return s } else { return nil } }
            try c.withBytes { (s) throws(Diagnostic) in
                try scan(&b, ctx, members.count, nullBits) { e in
                    let x = s.span(e)
                    return Self.bits(keys) { (k: [UInt8]) in k.withUnsafeBufferPointer { Bytes.equal(x, $0) } }
                }
            }
        default:
            try scan(&b, ctx, members.count, nullBits) { _ in 0 }
        }
    }

    /// The members (by position) that `equal` says an element equals.
    @inline(__always)
    private static func bits<K>(_ keys: [K?], _ equal: (K) -> Bool) -> UInt64 {
        var out: UInt64 = 0
        for i in 0..<keys.count {
            if let k = keys[i], equal(k) { out |= 1 << UInt64(i) }
        }
        return out
    }

    /// Each row's elements through `typed` (the members a typed element equals); null elements
    /// equal the null members.
    @inline(__always)
    private func scan(
        _ b: inout Batch, _ ctx: ExecContext, _ count: Int, _ nullBits: UInt64,
        _ typed: (Int) -> UInt64
    ) throws(Diagnostic) {
        let all: UInt64 = count == 64 ? ~0 : (1 << UInt64(count)) - 1
        let mode = self.mode, invert = self.invert
        try arrays.starts.withUnsafeBufferPointer { (starts) throws(Diagnostic) in
            try arrays.counts.withUnsafeBufferPointer { (counts) throws(Diagnostic) in
                try arrays.elements.slots.withUnsafeBufferPointer { (slots) throws(Diagnostic) in
                    try drive(&b, ctx) { t in
                        let start = Int(starts[t]), end = start + Int(counts[t])
                        switch mode {
                        case .containsAll:
                            guard all != 0 else { return invert }
                            var found: UInt64 = 0
                            for e in start..<end {
                                found |= slots[e] == Slot.value.rawValue ? typed(e) : nullBits
                                if found == all { return !invert }
                            }
                            return invert
                        case .containedBy:
                            for e in start..<end where (slots[e] == Slot.value.rawValue ? typed(e) : nullBits) == 0 {
                                return invert
                            }
                            return !invert
                        }
                    }
                }
            }
        }
    }
}
