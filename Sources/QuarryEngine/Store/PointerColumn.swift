import QuarryCore

/// Pointers into one class, resolved to the row numbers of their objects, so that a key path
/// such as `address.city` follows an array index rather than an objectId lookup.
///
/// `rows` holds the target row; `none` for rows without a pointer (missing or null);
/// `dangling` for a pointer whose object does not exist (slot `other`: it behaves as null, and
/// a path through it reaches nothing); `foreign` for any other value (slot `other`: a pointer
/// into another class, an array…, which only the reference path follows). The store
/// re-resolves rows when the target class changes.
final class PointerColumn: Column {
    let targetClass: String
    @exclusivity(unchecked) var rows: [Int32] = []
    private(set) var danglingCount = 0
    /// Rows holding something other than a pointer into the target class.
    private(set) var foreignCount = 0
    private let locate: (String) -> Int?

    static let none: Int32 = -1
    static let dangling: Int32 = -2
    static let foreign: Int32 = -3

    init(targetClass: String, locate: @escaping (String) -> Int?) {
        self.targetClass = targetClass
        self.locate = locate
        super.init(kind: .pointer(to: targetClass))
    }

    override func storeTyped(_ v: Value, at row: Int) -> Bool {
        guard case .pointer(let p) = v, p.className == targetClass else {
            rows[row] = Self.foreign
            foreignCount += 1
            return false
        }
        if let target = locate(p.objectId) {
            rows[row] = Int32(target)
            return true
        }
        // Dangling: null for every rule, but remembered so that a later insert can resolve it.
        rows[row] = Self.dangling
        danglingCount += 1
        return false
    }

    override func appendPlaceholder() { rows.append(Self.none) }
    override func removeTyped(at row: Int) { rows.remove(at: row) }
    override func forgetTyped(at row: Int) { rows[row] = Self.none }

    override func forgetOther(at row: Int) {
        if rows[row] == Self.dangling { danglingCount -= 1 }
        if rows[row] == Self.foreign { foreignCount -= 1 }
        rows[row] = Self.none
    }

    /// The target class gained an object at `targetRow`: rows whose dangling pointer names it
    /// now resolve. `objectId(row)` reads the pointer a row holds.
    func resolveDangling(objectId: String, targetRow: Int, pointerAt: (Int) -> Pointer?) {
        guard danglingCount > 0 else { return }
        for row in rows.indices where rows[row] == Self.dangling {
            guard pointerAt(row)?.objectId == objectId else { continue }
            rows[row] = Int32(targetRow)
            danglingCount -= 1
            statistics.count(Slot(rawValue: slots[row]) ?? .other, -1)
            slots[row] = Slot.value.rawValue
            statistics.count(.value, +1)
        }
    }

    /// The target class lost the object at `targetRow`: pointers to it dangle, later rows
    /// move up by one.
    func targetRemoved(at targetRow: Int) {
        let removed = Int32(targetRow)
        for row in rows.indices {
            let r = rows[row]
            if r == removed {
                rows[row] = Self.dangling
                danglingCount += 1
                statistics.count(.value, -1)
                slots[row] = Slot.other.rawValue
                statistics.count(.other, +1)
            } else if r > removed {
                rows[row] = r - 1
            }
        }
    }
}
