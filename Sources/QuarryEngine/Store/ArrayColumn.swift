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
    /// dictionary-coded one notes each distinct string once); the arrays themselves are
    /// noted as they come.
    override func deferStatisticsWhileLoading() { elements.deferStatisticsWhileLoading() }

    override func noteDeferredValues() {
        elements.noteDeferredValues()
        super.noteDeferredValues()
    }

    override func settle() {
        elements.settle()
        super.settle()
    }
}
