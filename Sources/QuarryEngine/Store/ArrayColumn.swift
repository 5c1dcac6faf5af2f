import QuarryCore

/// Arrays of scalars: each row's elements are consecutive rows of a typed element column
/// (strings in an arena, ints, doubles…), so element tests run typed. Replaced and removed
/// rows leave their elements behind until the store rebuilds the column.
final class ArrayColumn: Column {
    let elements: Column
    @exclusivity(unchecked) var starts: [Int32] = []
    @exclusivity(unchecked) var counts: [Int32] = []
    private(set) var garbage = 0

    init(elements: Column) {
        self.elements = elements
        super.init(kind: .array(of: elements.kind))
    }

    override func storeTyped(_ v: Value, at row: Int) -> Bool {
        guard case .array(let items) = v else { return false }
        starts[row] = Int32(elements.rowCount)
        counts[row] = Int32(items.count)
        for item in items { elements.append(item) }
        return true
    }

    override func typedValue(at row: Int) -> Value {
        let start = Int(starts[row])
        return .array((start..<start + Int(counts[row])).map { elements.value(at: $0) ?? .null })
    }
    override var typedBytes: Int { (starts.capacity + counts.capacity) * 4 + elements.heapBytes }

    override func reserveTyped(_ n: Int) {
        starts.reserveCapacity(starts.count + n)
        counts.reserveCapacity(counts.count + n)
    }
    override func settle() {
        elements.settle()
        super.settle()
    }
    override func trimTyped() {
        starts.trimCapacity()
        counts.trimCapacity()
    }
    override func appendPlaceholder() {
        starts.append(Int32(elements.rowCount))
        counts.append(0)
    }
    override func removeTyped(at row: Int) {
        garbage += Int(counts[row])
        starts.remove(at: row)
        counts.remove(at: row)
    }
    override func forgetTyped(at row: Int) {
        garbage += Int(counts[row])
        counts[row] = 0
    }

    /// Worth rebuilding: more dead elements than live ones.
    var wasteful: Bool { garbage > 4096 && garbage > elements.rowCount / 2 }
}
