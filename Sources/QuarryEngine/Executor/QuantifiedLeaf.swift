import QuarryCore

/// ANY / ALL / NONE over an array column whose elements are all typed or null, with a simple
/// test on the element (a comparison, IN list or prefix/suffix/substring test of the
/// variable): the element test runs typed over each row's slice of the element column. A
/// typed scalar column is a collection of one (its own value). The inner leaf's answer for a
/// null element is the reference's, taken once.
final class QuantifiedLeaf: KeyLeaf {
    let elements: Column
    /// Nil when each row's value is its only element.
    let arrays: ArrayColumn?
    let quantifier: Quantifier
    /// The raw test on a typed element; nil when every typed element answers `whenTypedElement`.
    let test: ArrayElementsLeaf.Test?
    let whenTypedElement: Bool
    let inner: LeafSemantics
    let innerNegated: Bool
    let whenNullElement: Bool
    /// `.sql`: a collection of nothing but nulls fails, whatever the quantifier and negation.
    let sqlNulls: Bool
    let invert: Bool
    /// `SUBQUERY(…).@count op n`: the number of passing elements in this range (inversion
    /// included) decides, instead of the quantifier.
    let count: IntRange?

    init(
        _ leaf: Leaf, access: KeyAccess, elements: Column, arrays: ArrayColumn?, quantifier: Quantifier,
        test: ArrayElementsLeaf.Test?, whenTypedElement: Bool, inner: Leaf, whenNullElement: Bool,
        count: IntRange? = nil,
        answers: SlotAnswers
    ) {
        self.elements = elements
        self.arrays = arrays
        self.quantifier = quantifier
        self.test = test
        self.whenTypedElement = whenTypedElement
        self.inner = inner.semantics
        self.innerNegated = inner.negated
        self.whenNullElement = whenNullElement
        self.sqlNulls = leaf.semantics == .sql
        self.invert = leaf.negated
        self.count = count
        super.init(leaf, access: access, answers: answers, cost: 20, selectivity: 0.3)
    }

    /// The inner leaf's answer for an element whose raw test gave `raw` (nil: unknown).
    @inline(__always)
    private static func answer(_ raw: Bool?, _ semantics: LeafSemantics, _ negated: Bool) -> Bool {
        switch semantics {
        case .sql: return raw.map { $0 != negated } ?? false
        case .predicate: return (raw ?? false) != negated
        case .document: return (raw == true) != negated
        }
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let q = quantifier, semantics = inner, neg = innerNegated, whenNull = whenNullElement
        let fixed = test == nil ? whenTypedElement : nil
        let sqlNulls = self.sqlNulls, invert = self.invert, count = self.count
        /// The quantifier over elements `range` whose slots are `slots`.
        @inline(__always)
        func decide(_ range: Range<Int>, _ slots: UnsafeBufferPointer<UInt8>, _ pass: (Int) -> Bool?) -> Bool {
            if let count {
                var n: Int64 = 0
                for e in range
                where slots[e] == Slot.value.rawValue ? fixed ?? Self.answer(pass(e), semantics, neg) : whenNull {
                    n += 1
                }
                return count.contains(n)
            }
            if sqlNulls, !range.contains(where: { slots[$0] == Slot.value.rawValue }) { return false }
            var any = false, all = true
            for e in range {
                let passed = slots[e] == Slot.value.rawValue ? fixed ?? Self.answer(pass(e), semantics, neg) : whenNull
                if passed {
                    any = true
                    if q != .all { break }
                } else {
                    all = false
                    if q == .all { break }
                }
            }
            switch q {
            case .any: return any != invert
            case .all: return all != invert
            case .none: return !any != invert
            }
        }
        try elements.slots.withUnsafeBufferPointer { (slots) throws(Diagnostic) in
            try (test ?? .constant(nil)).withPass(elements) { (pass) throws(Diagnostic) in
                guard let arrays else {
                    try drive(&b, ctx) { t in decide(t..<t + 1, slots, pass) }
                    return
                }
                try arrays.starts.withUnsafeBufferPointer { (starts) throws(Diagnostic) in
                    try arrays.counts.withUnsafeBufferPointer { (counts) throws(Diagnostic) in
                        try drive(&b, ctx) { t in
                            let start = Int(starts[t])
                            return decide(start..<start + Int(counts[t]), slots, pass)
                        }
                    }
                }
            }
        }
    }
}

extension ArrayElementsLeaf.Test {
    /// Runs `body` with the raw test on one element of `elements` (nil: unknown, types that
    /// never order). A column of another type than the test's answers unknown.
    func withPass(_ elements: Column, _ body: ((Int) -> Bool?) throws(Diagnostic) -> Void) throws(Diagnostic) {
        switch (self, elements) {
        case (.ints(let range), let c as Int64Column):
            try c.values.withUnsafeBufferPointer { (v) throws(Diagnostic) in try body { range.contains(v[$0]) } }
        case (.intSet(let set), let c as Int64Column):
            try c.values.withUnsafeBufferPointer { (v) throws(Diagnostic) in try body { set.contains(v[$0]) } }
        case (.doubles(let range), let c as DoubleColumn):
            try c.values.withUnsafeBufferPointer { (v) throws(Diagnostic) in try body { range.contains(v[$0]) } }
        case (.doubleSet(let set, let nan), let c as DoubleColumn):
            try c.values.withUnsafeBufferPointer { (v) throws(Diagnostic) in
                try body { e in
                    let x = v[e]
                    return x.isNaN ? nan : set.contains((x == 0 ? 0.0 : x).bitPattern)
                }
            }
        case (.bools(let range), let c as BoolColumn):
            try c.values.withUnsafeBufferPointer { (v) throws(Diagnostic) in try body { range.contains(v[$0] ? 1 : 0) }
            }
        case (.strings(let lower, let upper, let invert, let folder), let c as StringColumn):
            try c.withBytes { (s) throws(Diagnostic) in
                try body { e in
                    folder.fold(s.span(e)) { ArrayElementsLeaf.Test.inRange($0, lower, upper) != invert }
                }
            }
        case (.stringEqual(let literal, let invert), let c as StringColumn):
            try c.withBytes { (s) throws(Diagnostic) in
                try literal.withUnsafeBufferPointer { (l) throws(Diagnostic) in
                    try body { Bytes.equal(s.span($0), l) != invert }
                }
            }
        case (.stringSet(let set, let folder), let c as StringColumn):
            try c.withBytes { (s) throws(Diagnostic) in try body { e in folder.fold(s.span(e)) { set.contains($0) } } }
        case (.affix(let kind, let pattern, let folder), let c as StringColumn):
            try c.withBytes { (s) throws(Diagnostic) in
                try pattern.withUnsafeBufferPointer { (p) throws(Diagnostic) in
                    try body { e in
                        folder.fold(s.span(e)) { x in
                            switch kind {
                            case .prefix: return Bytes.hasPrefix(x, p)
                            case .suffix: return Bytes.hasSuffix(x, p)
                            case .substring: return Bytes.contains(x, p)
                            }
                        }
                    }
                }
            }
        case (.like(let pattern, let folder), let c as StringColumn):
            try c.withBytes { (s) throws(Diagnostic) in try body { e in folder.fold(s.span(e)) { pattern.matches($0) } }
            }
        case (.text(let matcher), let c as StringColumn):
            try c.withBytes { (s) throws(Diagnostic) in try body { e in matcher.matches(s.string(e)) } }
        case (.constant(let raw), _):
            try body { _ in raw }
        default:
            try body { _ in nil }
        }
    }
}
