import QuarryCore

/// Arrays of pointers into one class and Parse Relations, as lists of row numbers of that
/// class: each row's targets are consecutive entries of `targets`, `PointerColumn.dangling`
/// for a pointer to an object that does not exist. Rows holding anything else are `other`.
/// The store re-resolves entries when the target class changes.
final class PointerListColumn: SlicedColumn {
    let targetClass: String
    @exclusivity(unchecked) var targets: [Int32] = []
    private let lookup: PointerTargets
    /// Rows holding a Relation rather than an array of pointers.
    private var relations = RowBits()
    /// Rows listing a pointer whose object does not exist, with their value as stored: the
    /// objectIds of the dangling entries are needed to give the value back and to resolve
    /// them when the object arrives.
    private var withDangling: [Int: Value] = [:]

    init(targetClass: String, targets: PointerTargets) {
        self.targetClass = targetClass
        self.lookup = targets
        super.init(kind: .pointerList(to: targetClass))
    }

    override func copy(targets: (String) -> PointerTargets) -> Column {
        let c = PointerListColumn(targetClass: targetClass, targets: targets(targetClass))
        c.targets = self.targets
        c.relations = relations
        c.withDangling = withDangling
        copySlices(to: c)
        return c
    }

    /// The objectIds of a list value, or nil when it is not a list of pointers into the class.
    private func ids(_ v: Value) -> [String]? {
        switch v {
        case .relation(let c, let ids) where c == targetClass: return ids
        case .array(let items):
            var ids: [String] = []
            for item in items {
                guard case .pointer(let p) = item, p.className == targetClass else { return nil }
                ids.append(p.objectId)
            }
            return ids
        default: return nil
        }
    }

    override func storeTyped(_ v: Value, at row: Int) -> Bool {
        guard let ids = ids(v) else { return false }
        startSlice(at: row, count: ids.count)
        var dangles = false
        for id in ids {
            let target = lookup.row(id).map { Int32($0) } ?? PointerColumn.dangling
            dangles = dangles || target == PointerColumn.dangling
            targets.append(target)
        }
        if case .relation = v { relations[row] = true }
        if dangles { withDangling[row] = v }
        return true
    }

    override func typedValue(at row: Int) -> Value {
        if let v = withDangling[row] { return v }
        let start = Int(starts[row])
        let ids = targets[start..<start + Int(counts[row])].map { lookup.objectId(Int($0)) }
        if relations[row] { return .relation(className: targetClass, objectIds: ids) }
        return .array(ids.map { .pointer(Pointer(className: targetClass, objectId: $0)) })
    }

    override var entryCount: Int { targets.count }

    override func trimTyped() {
        super.trimTyped()
        targets.trimCapacity()
    }
    override func forgetTyped(at row: Int) {
        super.forgetTyped(at: row)
        relations[row] = false
        withDangling[row] = nil
    }
    override var typedBytes: Int { sliceBytes + targets.capacity * 4 + relations.bytes }

    /// The target class gained an object at `targetRow`: entries naming it resolve.
    func resolveDangling(objectId: String, targetRow: Int) {
        for (row, value) in withDangling {
            guard let ids = ids(value) else { continue }
            let start = Int(starts[row])
            var dangles = false
            for (i, id) in ids.enumerated() where targets[start + i] == PointerColumn.dangling {
                if id == objectId { targets[start + i] = Int32(targetRow) } else { dangles = true }
            }
            if !dangles { withDangling[row] = nil }
        }
    }

    /// The target class is about to lose the object at `targetRow` (still readable): entries
    /// naming it dangle.
    func targetRemoved(at targetRow: Int) {
        let removed = Int32(targetRow)
        for row in 0..<rowCount where slots[row] == Slot.value.rawValue && withDangling[row] == nil {
            let start = Int(starts[row])
            if targets[start..<start + Int(counts[row])].contains(removed) { withDangling[row] = typedValue(at: row) }
        }
        for i in targets.indices where targets[i] == removed { targets[i] = PointerColumn.dangling }
    }

    /// The target class was compacted: `moved[old]` is each target row's new row.
    func targetsMoved(_ moved: [Int32]) {
        for i in targets.indices where targets[i] >= 0 { targets[i] = moved[Int(targets[i])] }
    }
}
