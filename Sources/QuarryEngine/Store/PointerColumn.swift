import QuarryCore

/// Pointers into one class, resolved to the row numbers of their objects, so that a key path
/// such as `address.city` follows an array index rather than an objectId lookup.
///
/// `rows` holds the target row; `none` for rows without a pointer (missing or null);
/// `dangling` for a pointer whose object does not exist (slot `other`, the pointer kept as its
/// value: it behaves as null, and a path through it reaches nothing); `foreign` for any other
/// value (slot `other`: a pointer into another class, an array…, which only the reference path
/// follows). The store re-resolves rows when the target class changes.
final class PointerColumn: Column {
    let targetClass: String
    @exclusivity(unchecked) var rows: [Int32] = []
    private(set) var danglingCount = 0
    /// Rows holding something other than a pointer into the target class.
    private(set) var foreignCount = 0
    private let targets: PointerTargets
    /// The objectIds of dangling pointers written in row order (a load), by ascending row:
    /// kept here rather than in `others`, a hash table entry and a `Value` each, because a
    /// class loaded without its pointers' target class dangles on every row. Each objectId's
    /// bytes are a span of `keptBytes` (no `String` each, which made trimming the array a copy
    /// with a retain per objectId); a length of `forgotten` means the row's value went
    /// elsewhere. Dangling pointers written out of order go to `others`.
    private var keptRows: [Int32] = []
    private var keptStarts: [UInt32] = []
    private var keptLengths: [UInt32] = []
    private var keptBytes: [UInt8] = []
    private static let forgotten = UInt32.max

    static let none: Int32 = -1
    static let dangling: Int32 = -2
    static let foreign: Int32 = -3

    init(targetClass: String, targets: PointerTargets) {
        self.targetClass = targetClass
        self.targets = targets
        super.init(kind: .pointer(to: targetClass))
    }

    override func copy(targets: (String) -> PointerTargets) -> Column {
        let c = PointerColumn(targetClass: targetClass, targets: targets(targetClass))
        c.rows = rows
        c.danglingCount = danglingCount
        c.foreignCount = foreignCount
        c.keptRows = keptRows
        c.keptStarts = keptStarts
        c.keptLengths = keptLengths
        c.keptBytes = keptBytes
        copyBase(to: c)
        return c
    }

    override func storeTyped(_ v: Value, at row: Int) -> Bool {
        guard case .pointer(let p) = v, p.className == targetClass else {
            rows[row] = Self.foreign
            foreignCount += 1
            return false
        }
        if let target = targets.row(p.objectId) {
            rows[row] = Int32(target)
            return true
        }
        // Dangling: null for every rule, but kept so that a later insert can resolve it.
        rows[row] = Self.dangling
        danglingCount += 1
        return false
    }

    override func typedValue(at row: Int) -> Value {
        .pointer(Pointer(className: targetClass, objectId: targets.objectId(Int(rows[row]))))
    }
    override func reserveTyped(_ n: Int) {
        rows.reserveCapacity(rows.count + n)
        // Pointers that dangle so far (into a class not loaded yet) keep their objectIds here:
        // room for as many more, so that these arrays are not grown by doubling and then
        // trimmed, a copy of every objectId, once the file is read.
        guard !keptRows.isEmpty else { return }
        keptRows.reserveCapacity(keptRows.count + n)
        keptStarts.reserveCapacity(keptStarts.count + n)
        keptLengths.reserveCapacity(keptLengths.count + n)
    }
    override func trimTyped() {
        rows.trimCapacity()
        keptRows.trimCapacity()
        keptStarts.trimCapacity()
        keptLengths.trimCapacity()
        keptBytes.trimCapacity()
    }
    override func appendPlaceholder() { rows.append(Self.none) }
    override func forgetTyped(at row: Int) { rows[row] = Self.none }
    override var typedBytes: Int {
        rows.capacity * 4 + (keptRows.capacity + keptStarts.capacity + keptLengths.capacity) * 4 + keptBytes.capacity
    }

    /// The pointers' statistics are noted after a load, from their objectIds' bytes: every
    /// typed or kept pointer is into `targetClass`, so they order by objectId alone.
    override var defersValuesWell: Bool { true }

    override func noteTypedValues() {
        var bounds = PointerBounds(targetClass)
        for row in slots.indices where slots[row] == Slot.value.rawValue {
            var id = targets.objectId(Int(rows[row]))
            id.withUTF8 { bounds.note($0, &statistics) }
        }
        bounds.finish(&statistics)
    }

    override func noteOtherValues() {
        var bounds = PointerBounds(targetClass)
        var k = 0
        keptBytes.withUnsafeBufferPointer { bytes in
            for row in slots.indices where slots[row] == Slot.other.rawValue {
                while k < keptRows.count, Int(keptRows[k]) < row { k += 1 }
                if rows[row] == Self.dangling, k < keptRows.count, Int(keptRows[k]) == row,
                    keptLengths[k] != Self.forgotten
                {
                    let start = Int(keptStarts[k])
                    bounds.note(UnsafeBufferPointer(rebasing: bytes[start..<start + Int(keptLengths[k])]), &statistics)
                } else if let v = otherValue(at: row) {
                    statistics.note(v)
                }
            }
        }
        bounds.finish(&statistics)
    }

    /// A dangling pointer is kept as an `other` value but is of the column's kind: only foreign
    /// values are misfits (counting dangling ones rebuilt a column of pointers into a class not
    /// loaded yet after every object).
    override var misfits: Int { foreignCount }

    override func keepsOther(_ v: Value, at row: Int) -> Bool {
        guard rows[row] == Self.dangling, case .pointer(let p) = v, keptRows.last.map({ Int($0) < row }) ?? true
        else { return false }
        var id = p.objectId
        return id.withUTF8 { bytes in
            guard keptBytes.count + bytes.count < Int(Self.forgotten) else { return false }
            keptRows.append(Int32(row))
            keptStarts.append(UInt32(keptBytes.count))
            keptLengths.append(UInt32(bytes.count))
            keptBytes.append(contentsOf: bytes)
            return true
        }
    }

    override func otherValue(at row: Int) -> Value? {
        if rows[row] == Self.dangling, let i = kept(row), keptLengths[i] != Self.forgotten {
            let start = Int(keptStarts[i])
            let id = String(decoding: keptBytes[start..<start + Int(keptLengths[i])], as: UTF8.self)
            return .pointer(Pointer(className: targetClass, objectId: id))
        }
        return super.otherValue(at: row)
    }

    /// The position of `row` in `keptRows`.
    private func kept(_ row: Int) -> Int? {
        guard let last = keptRows.last, row <= Int(last) else { return nil }
        var low = 0, high = keptRows.count
        while low < high {
            let mid = (low + high) / 2
            if Int(keptRows[mid]) < row { low = mid + 1 } else { high = mid }
        }
        return Int(keptRows[low]) == row ? low : nil
    }

    private func forgetKept(_ row: Int) {
        if let i = kept(row) { keptLengths[i] = Self.forgotten }
    }

    override func forgetOther(at row: Int) {
        if rows[row] == Self.dangling {
            danglingCount -= 1
            forgetKept(row)
        }
        if rows[row] == Self.foreign { foreignCount -= 1 }
        rows[row] = Self.none
    }

    /// The target class gained an object at `targetRow`: rows whose dangling pointer names it
    /// now resolve.
    func resolveDangling(objectId: String, targetRow: Int) {
        guard danglingCount > 0 else { return }
        for row in rows.indices where rows[row] == Self.dangling {
            guard case .pointer(let p)? = value(at: row), p.objectId == objectId else { continue }
            rows[row] = Int32(targetRow)
            danglingCount -= 1
            forgetKept(row)
            setSlot(row, .value, keeping: nil)
        }
    }

    /// The target class lost the object at `targetRow` (whose objectId was `objectId`):
    /// pointers to it dangle.
    func targetRemoved(at targetRow: Int, objectId: String) {
        let removed = Int32(targetRow)
        for row in rows.indices where rows[row] == removed {
            rows[row] = Self.dangling
            danglingCount += 1
            setSlot(row, .other, keeping: .pointer(Pointer(className: targetClass, objectId: objectId)))
        }
    }

    /// The target class was compacted: `moved[old]` is each target row's new row.
    func targetsMoved(_ moved: [Int32]) {
        for row in rows.indices where rows[row] >= 0 { rows[row] = moved[Int(rows[row])] }
    }
}

/// The smallest and largest objectIds of pointers into one class, and their distinct count,
/// noted from the objectIds' bytes; only the two bounds become `Value`s.
private struct PointerBounds {
    let className: String
    let seed: UInt64
    var min: [UInt8]?
    var max: [UInt8]?

    init(_ className: String) {
        self.className = className
        seed = DistinctSketch.pointerSeed(className)
    }

    mutating func note(_ id: UnsafeBufferPointer<UInt8>, _ statistics: inout ColumnStatistics) {
        statistics.distinct.add(pointerTo: seed, objectId: id)
        if min.map({ m in m.withUnsafeBufferPointer { Bytes.compare(id, $0) < 0 } }) ?? true { min = Array(id) }
        if max.map({ m in m.withUnsafeBufferPointer { Bytes.compare(id, $0) > 0 } }) ?? true { max = Array(id) }
    }

    func finish(_ statistics: inout ColumnStatistics) {
        for id in [min, max] {
            guard let id else { continue }
            statistics.note(.pointer(Pointer(className: className, objectId: String(decoding: id, as: UTF8.self))))
        }
    }
}
