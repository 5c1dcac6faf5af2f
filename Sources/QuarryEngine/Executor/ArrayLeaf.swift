import QuarryCore

/// A test on the elements of an array column, under `.sql` (some non-null element passes the
/// test, negation applied per element) or `.document` (some element passes; negation is NOT).
final class ArrayElementsLeaf: KeyLeaf {
    /// The test on one element, typed by the element column.
    enum Test {
        case ints(IntRange)
        case intSet(Set<Int64>)
        case doubles(DoubleRange)
        case doubleSet(Set<UInt64>, nan: Bool)
        case bools(IntRange)
        case strings(lower: ([UInt8], Bool)?, upper: ([UInt8], Bool)?, invert: Bool, folder: ByteFolder)
        /// Equal (or, inverted, unequal) to one string, compared as stored (no options).
        case stringEqual([UInt8], invert: Bool)
        case stringSet(ByteStringSet, folder: ByteFolder)
        case affix(StringAffixLeaf.Kind, [UInt8], folder: ByteFolder)
        case like(ByteLikePattern, folder: ByteFolder)
        /// Text search on a string element.
        case text(TextMatcher)
        /// The same answer for every non-null element (types that never compare: equality is
        /// false, inequality true, order unknown = nil, which no element passes).
        case constant(Bool?)

        /// Whether (folded) string bytes lie between the bounds of a `.strings` test; each
        /// bound is its bytes and whether it is included.
        static func inRange(_ x: UnsafeBufferPointer<UInt8>, _ lower: ([UInt8], Bool)?, _ upper: ([UInt8], Bool)?)
            -> Bool
        {
            if let (lo, incl) = lower {
                let o = lo.withUnsafeBufferPointer { Bytes.compare(x, $0) }
                if o < 0 || (o == 0 && !incl) { return false }
            }
            if let (hi, incl) = upper {
                let o = hi.withUnsafeBufferPointer { Bytes.compare(x, $0) }
                if o > 0 || (o == 0 && !incl) { return false }
            }
            return true
        }
    }

    let source: ElementSource
    let test: Test
    /// `.sql`: an element must pass `test != perElementNegation`.
    let perElementNegation: Bool
    /// `.document`: the answer is `(some element passes) != resultNegation`.
    let resultNegation: Bool
    /// The test for the execution's literal, when the leaf reads it (docs/ARCHITECTURE.md#plan-parameters).
    let testOf: Parameter<Test>?

    /// - Parameter invertResult: `.document` tests `!=` as "no element equals", that is the
    ///   equality test with the result inverted.
    init(
        _ leaf: Leaf, access: KeyAccess, source: ElementSource, test: Test, invertResult: Bool = false,
        answers: SlotAnswers, selectivity: Double, parameter: Parameter<Test>? = nil
    ) {
        self.source = source
        self.test = test
        perElementNegation = leaf.semantics == .sql && leaf.negated
        resultNegation = leaf.semantics == .document && (leaf.negated != invertResult)
        testOf = parameter
        super.init(
            leaf, access: access, answers: answers, cost: 15, selectivity: selectivity, parameterSlots: parameter?.slots
        )
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let test = testOf?.madeValue(ctx, for: self) ?? self.test
        let en = perElementNegation, rn = resultNegation
        let elements = source.elements
        let mapped = source.targets != nil, asks = source.danglingAsks
        try source.starts.withUnsafeBufferPointer { (starts) throws(Diagnostic) in
            try source.counts.withUnsafeBufferPointer { (counts) throws(Diagnostic) in
                try (source.targets ?? []).withUnsafeBufferPointer { (targets) throws(Diagnostic) in
                    try elements.slots.withUnsafeBufferPointer { (slots) throws(Diagnostic) in
                        /// Some non-null element `e` with `pass(e) != en`, then `!= rn`.
                        func any(_ b: inout Batch, _ pass: (Int) -> Bool) throws(Diagnostic) {
                            if asks {
                                try driveDeciding(&b, ctx) { t in
                                    let start = Int(starts[t])
                                    for i in start..<start + Int(counts[t]) {
                                        let e = Int(targets[i])
                                        if e < 0 { return 2 }
                                        if slots[e] == 2 && pass(e) != en { return rn ? 0 : 1 }
                                    }
                                    return rn ? 1 : 0
                                }
                                return
                            }
                            if mapped {
                                try drive(&b, ctx) { t in
                                    let start = Int(starts[t])
                                    for i in start..<start + Int(counts[t]) {
                                        let e = Int(targets[i])
                                        if e >= 0 && slots[e] == 2 && pass(e) != en { return !rn }
                                    }
                                    return rn
                                }
                                return
                            }
                            try drive(&b, ctx) { t in
                                let start = Int(starts[t]), end = start + Int(counts[t])
                                var e = start
                                while e < end {
                                    if slots[e] == 2 && pass(e) != en { return !rn }
                                    e += 1
                                }
                                return rn
                            }
                        }
                        switch test {
                        case .ints(let range):
                            guard let c = elements as? Int64Column else { return }
                            try c.values.withUnsafeBufferPointer { (v) throws(Diagnostic) in
                                try any(&b) { range.contains(v[$0]) }
                            }
                        case .intSet(let set):
                            guard let c = elements as? Int64Column else { return }
                            try c.values.withUnsafeBufferPointer { (v) throws(Diagnostic) in
                                try any(&b) { set.contains(v[$0]) }
                            }
                        case .doubles(let range):
                            guard let c = elements as? DoubleColumn else { return }
                            try c.values.withUnsafeBufferPointer { (v) throws(Diagnostic) in
                                try any(&b) { range.contains(v[$0]) }
                            }
                        case .doubleSet(let set, let nan):
                            guard let c = elements as? DoubleColumn else { return }
                            try c.values.withUnsafeBufferPointer { (v) throws(Diagnostic) in
                                try any(&b) { e in
                                    let x = v[e]
                                    return x.isNaN ? nan : set.contains((x == 0 ? 0.0 : x).bitPattern)
                                }
                            }
                        case .bools(let range):
                            guard let c = elements as? BoolColumn else { return }
                            try c.values.withUnsafeBufferPointer { (v) throws(Diagnostic) in
                                try any(&b) { range.contains(v[$0] ? 1 : 0) }
                            }
                        case .strings(let lower, let upper, let invert, let folder):
                            guard let c = elements as? StringColumn else { return }
                            try c.withBytes { (s) throws(Diagnostic) in
                                try any(&b) { e in
                                    folder.fold(s.span(e)) { Test.inRange($0, lower, upper) != invert }
                                }
                            }
                        case .stringEqual(let literal, let invert):
                            guard let c = elements as? StringColumn else { return }
                            if let entry = c.entry(of: literal) {
                                // Tags and the like are dictionary-encoded: one code compared per element.
                                try c.withBytes { (s) throws(Diagnostic) in
                                    try any(&b) { e in (s.entry(e) == entry) != invert }
                                }
                                return
                            }
                            try literal.withUnsafeBufferPointer { (l) throws(Diagnostic) in
                                try c.withBytes { (s) throws(Diagnostic) in
                                    if l.count <= 8 {
                                        let n = l.count, word = Bytes.word(literal)
                                        try any(&b) { e in
                                            (s.count(e) == n && Bytes.load(s.bytes, s.start(e), n) == word) != invert
                                        }
                                    } else {
                                        try any(&b) { e in Bytes.equal(s.span(e), l) != invert }
                                    }
                                }
                            }
                        case .stringSet(let set, let folder):
                            guard let c = elements as? StringColumn else { return }
                            try c.withBytes { (s) throws(Diagnostic) in
                                try any(&b) { e in folder.fold(s.span(e)) { set.contains($0) } }
                            }
                        case .affix(let kind, let pattern, let folder):
                            guard let c = elements as? StringColumn else { return }
                            try pattern.withUnsafeBufferPointer { (p) throws(Diagnostic) in
                                try c.withBytes { (s) throws(Diagnostic) in
                                    try any(&b) { e in
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
                        case .like(let pattern, let folder):
                            guard let c = elements as? StringColumn else { return }
                            try c.withBytes { (s) throws(Diagnostic) in
                                try any(&b) { e in folder.fold(s.span(e)) { pattern.matches($0) } }
                            }
                        case .text(let matcher):
                            guard let c = elements as? StringColumn else { return }
                            try c.withBytes { (s) throws(Diagnostic) in
                                try any(&b) { e in matcher.matches(s.string(e)) }
                            }
                        case .constant(let raw):
                            try any(&b) { _ in raw ?? en }
                        }
                    }
                }
            }
        }
    }
}

/// Where an array leaf finds a row's elements: an array column's slice of its element column,
/// or, for a key path through a list of pointers (`rel.name`), the list's targets read in a
/// column of the target class (dangling targets and targets without the field reach nothing,
/// except at `objectId`, which the reference reads from the stored pointer).
struct ElementSource {
    let starts: [Int32]
    let counts: [Int32]
    let elements: Column
    /// The element row of each list entry (negative: dangling); nil for array columns.
    let targets: [Int32]?
    /// A row with a dangling entry goes to the reference.
    let danglingAsks: Bool

    init(_ arrays: ArrayColumn) {
        starts = arrays.starts
        counts = arrays.counts
        elements = arrays.elements
        targets = nil
        danglingAsks = false
    }

    init(_ list: PointerListColumn, _ column: Column, danglingAsks: Bool) {
        starts = list.starts
        counts = list.counts
        elements = column
        targets = list.targets
        self.danglingAsks = danglingAsks
    }
}

/// `arraySize(key, n)` on an array column: the element count, nulls included.
final class ArraySizeLeaf: KeyLeaf {
    let arrays: ArrayColumn
    let size: Int32
    let invert: Bool

    init(_ leaf: Leaf, access: KeyAccess, arrays: ArrayColumn, size: Int, answers: SlotAnswers) {
        self.arrays = arrays
        self.size = Int32(clamping: size)
        self.invert = leaf.negated
        super.init(leaf, access: access, answers: answers, cost: 0.25, selectivity: 0.1)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let size = self.size, invert = self.invert
        try arrays.counts.withUnsafeBufferPointer { (counts) throws(Diagnostic) in
            try drive(&b, ctx) { t in (counts[t] == size) != invert }
        }
    }
}

/// SQL `isNull` on an array column: no element that is not null.
final class ArrayEmptyLeaf: KeyLeaf {
    let arrays: ArrayColumn
    let invert: Bool

    init(_ leaf: Leaf, access: KeyAccess, arrays: ArrayColumn, answers: SlotAnswers) {
        self.arrays = arrays
        self.invert = leaf.negated
        super.init(leaf, access: access, answers: answers, cost: 1, selectivity: 0.1)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let invert = self.invert
        try arrays.starts.withUnsafeBufferPointer { (starts) throws(Diagnostic) in
            try arrays.counts.withUnsafeBufferPointer { (counts) throws(Diagnostic) in
                try arrays.elements.slots.withUnsafeBufferPointer { (slots) throws(Diagnostic) in
                    try drive(&b, ctx) { t in
                        let start = Int(starts[t])
                        var empty = true
                        for e in start..<start + Int(counts[t]) where slots[e] != Slot.null.rawValue {
                            empty = false; break
                        }
                        return empty != invert
                    }
                }
            }
        }
    }
}
