import QuarryCore

/// Arrays of scalars: each row's elements are consecutive rows of a typed element column
/// (strings in an arena, ints, doubles…), so element tests run typed. Replaced and removed
/// rows leave their elements behind until the store rebuilds the column.
final class ArrayColumn: SlicedColumn {
    let elements: Column

    init(elements: Column) {
        self.elements = elements
        super.init(kind: .array(of: elements.kind))
    }

    override func copy(targets: (String) -> PointerTargets) -> Column {
        let c = ArrayColumn(elements: elements.copy(targets: targets))
        copySlices(to: c)
        return c
    }

    override func storeTyped(_ v: Value, at row: Int) -> Bool {
        guard case .array(let items) = v else { return false }
        startSlice(at: row, count: items.count)
        for item in items { elements.append(item) }
        return true
    }

    override func typedValue(at row: Int) -> Value {
        let start = Int(starts[row])
        return .array((start..<start + Int(counts[row])).map { elements.value(at: $0) ?? .null })
    }
    override var typedBytes: Int { sliceBytes + elements.heapBytes }
    override var entryCount: Int { elements.rowCount }

    override func codeStringsWhileLoading() { elements.codeStringsWhileLoading() }

    /// The elements are a scalar or string column, whose values are cheap to read back (a
    /// dictionary-coded one notes each distinct string once). Arrays of strings are noted
    /// afterwards too, from their elements' bytes; other arrays as they come.
    override func deferStatisticsWhileLoading() {
        elements.deferStatisticsWhileLoading()
        super.deferStatisticsWhileLoading()
    }

    override var defersValuesWell: Bool { elements is StringColumn }

    /// For arrays of strings: each array hashed from its elements' bytes (a dictionary-coded
    /// string's hash made once) and ordered by them, as `Value.sortOrder` orders arrays; only
    /// the two bounds become `Value`s. An array with an element the column does not hold typed
    /// is noted as a `Value`.
    override func noteTypedValues() {
        guard let strings = elements as? StringColumn else { return super.noteTypedValues() }
        let arrayBits = Value.array([]).typeBit
        let stringBit = Value.string("").typeBit, nullBit = Value.null.typeBit
        let elementSlots = elements.slots
        strings.withBytes { s in
            var entryHashes = [UInt64?](repeating: nil, count: s.isCoded ? s.entryCount : 0)
            func hash(_ e: Int) -> UInt64 {
                guard s.isCoded else { return DistinctSketch.stringHash(s.span(e)) }
                if let h = entryHashes[s.entry(e)] { return h }
                let h = DistinctSketch.stringHash(s.span(e))
                entryHashes[s.entry(e)] = h
                return h
            }
            /// `Value.sortOrder` of two arrays: element by element (null before any string),
            /// then the shorter first.
            func order(_ a: Int, _ b: Int) -> Int {
                let sa = Int(starts[a]), na = Int(counts[a]), sb = Int(starts[b]), nb = Int(counts[b])
                for i in 0..<Swift.min(na, nb) {
                    let x = elementSlots[sa + i] == Slot.value.rawValue, y = elementSlots[sb + i] == Slot.value.rawValue
                    if x != y { return x ? 1 : -1 }
                    guard x else { continue }
                    let c = Bytes.compare(s.span(sa + i), s.span(sb + i))
                    if c != 0 { return c }
                }
                return na == nb ? 0 : (na < nb ? -1 : 1)
            }
            var bounds = BoundRows()
            var hashes: [UInt64] = []
            for row in slots.indices where slots[row] == Slot.value.rawValue {
                let start = Int(starts[row]), count = Int(counts[row])
                hashes.removeAll(keepingCapacity: true)
                var bits = arrayBits, typed = true
                for e in start..<start + count {
                    switch elementSlots[e] {
                    case Slot.value.rawValue:
                        hashes.append(hash(e))
                        bits |= stringBit
                    case Slot.null.rawValue, Slot.missing.rawValue:
                        hashes.append(0)
                        bits |= nullBit
                    default:
                        typed = false
                    }
                }
                guard typed else {
                    statistics.note(typedValue(at: row))
                    continue
                }
                statistics.typeBits |= bits
                statistics.multiValued += 1
                statistics.distinct.add(arrayOf: hashes)
                bounds.see(row, order)
            }
            for row in bounds.rows { statistics.widen(typedValue(at: row)) }
        }
    }

    override func noteDeferredValues() {
        elements.noteDeferredValues()
        super.noteDeferredValues()
    }

    override func settle() {
        elements.settle()
        super.settle()
    }
}
