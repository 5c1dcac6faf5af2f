import QuarryCore

/// Arrays of pointers into one class and Parse Relations, as lists of row numbers of that
/// class: each row's targets are consecutive entries of `targets`, `PointerColumn.dangling`
/// for a pointer to an object that does not exist. Rows holding anything else are `other`.
/// The store re-resolves entries when the target class changes.
final class PointerListColumn: Column {
    let targetClass: String
    @exclusivity(unchecked) var starts: [Int32] = []
    @exclusivity(unchecked) var counts: [Int32] = []
    @exclusivity(unchecked) var targets: [Int32] = []
    private(set) var garbage = 0
    private let locate: (String) -> Int?

    init(targetClass: String, locate: @escaping (String) -> Int?) {
        self.targetClass = targetClass
        self.locate = locate
        super.init(kind: .pointerList(to: targetClass))
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
        starts[row] = Int32(targets.count)
        counts[row] = Int32(ids.count)
        for id in ids { targets.append(locate(id).map { Int32($0) } ?? PointerColumn.dangling) }
        return true
    }

    override func appendPlaceholder() {
        starts.append(Int32(targets.count))
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

    var wasteful: Bool { garbage > 4096 && garbage > targets.count / 2 }

    /// The target class gained an object at `targetRow`: entries naming it resolve.
    /// `idsAt(row)` reads the objectIds a row's value lists.
    func resolveDangling(objectId: String, targetRow: Int, idsAt: (Int) -> [String]?) {
        for row in 0..<rowCount where slots[row] == Slot.value.rawValue {
            let start = Int(starts[row]), n = Int(counts[row])
            guard (start..<start + n).contains(where: { targets[$0] == PointerColumn.dangling }),
                let ids = idsAt(row), ids.count == n
            else { continue }
            for i in 0..<n where targets[start + i] == PointerColumn.dangling && ids[i] == objectId {
                targets[start + i] = Int32(targetRow)
            }
        }
    }

    /// The target class lost the object at `targetRow`: entries naming it dangle, later rows
    /// move up by one.
    func targetRemoved(at targetRow: Int) {
        let removed = Int32(targetRow)
        for i in targets.indices {
            if targets[i] == removed { targets[i] = PointerColumn.dangling } else if targets[i] > removed { targets[i] -= 1 }
        }
    }

    /// For `ids(_:)` from the store.
    func listedIds(_ v: Value) -> [String]? { ids(v) }
}
