import QuarryCore

/// A column whose rows are slices of a flat list of entries (array elements, pointer targets):
/// a start and a count per row. A replaced or removed row leaves its entries behind as
/// garbage until the store rebuilds the column; `entryCount` says how many entries the flat
/// list holds, so the next row starts after them.
class SlicedColumn: Column {
    @exclusivity(unchecked) final var starts: [Int32] = []
    @exclusivity(unchecked) final var counts: [Int32] = []
    private(set) final var garbage = 0

    /// Entries in the flat list, live and dead.
    var entryCount: Int { 0 }

    /// The slices' and the base's state into a copy.
    final func copySlices(to c: SlicedColumn) {
        c.starts = starts
        c.counts = counts
        c.garbage = garbage
        copyBase(to: c)
    }

    /// Worth rebuilding: more dead entries than live ones.
    final var wasteful: Bool { garbage > 4096 && garbage > entryCount / 2 }

    /// Points a row at the next `count` entries, about to be appended.
    final func startSlice(at row: Int, count: Int) {
        starts[row] = Int32(entryCount)
        counts[row] = Int32(count)
    }

    final var sliceBytes: Int { (starts.capacity + counts.capacity) * 4 }

    override func reserveTyped(_ n: Int) {
        starts.reserveCapacity(starts.count + n)
        counts.reserveCapacity(counts.count + n)
    }
    override func trimTyped() {
        starts.trimCapacity()
        counts.trimCapacity()
    }
    override func appendPlaceholder() {
        starts.append(Int32(entryCount))
        counts.append(0)
    }
    override func forgetTyped(at row: Int) {
        garbage += Int(counts[row])
        counts[row] = 0
    }
}
