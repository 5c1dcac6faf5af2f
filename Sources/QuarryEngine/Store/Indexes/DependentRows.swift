import QuarryCore

/// An object as pointers name it: its class and objectId (whether or not it exists).
struct ObjectKey: Hashable {
    let className: String
    let objectId: String
}

/// Which rows of an index reached which objects of other rows (through pointer steps, or as
/// pointer values, which read as null while they dangle). When an object comes, changes or
/// goes, only the rows that reached it are indexed again. Lists live in one array, as the hash
/// index's postings do, so renumbering after a delete is a pass with no hashing.
struct DependentRows {
    private var slots: [ObjectKey: Int] = [:]
    private var lists: [[Int32]] = []
    private var freeSlots: [Int] = []

    var isEmpty: Bool { slots.isEmpty }

    /// Rows that reached the object, ascending.
    func rows(reaching key: ObjectKey) -> [Int32] { slots[key].map { lists[$0] } ?? [] }

    mutating func add(_ row: Int32, _ keys: [ObjectKey]) {
        for key in keys {
            if let slot = slots[key] {
                lists[slot].insertRow(row)
            } else if let slot = freeSlots.popLast() {
                lists[slot] = [row]
                slots[key] = slot
            } else {
                slots[key] = lists.count
                lists.append([row])
            }
        }
    }

    mutating func remove(_ row: Int32, _ keys: [ObjectKey]) {
        for key in keys {
            guard let slot = slots[key] else { continue }
            lists[slot].removeRow(row)
            if lists[slot].isEmpty {
                slots[key] = nil
                freeSlots.append(slot)
            }
        }
    }
}

extension IndexEntries {
    /// The objects a record's path passes through or ends at: every pointer (also in arrays,
    /// relations and embedded objects) met along the way, followed where it resolves. A
    /// dangling pointer is listed too: the object it names may come later.
    static func objectsReached(_ record: Record, _ path: FieldPath, _ resolve: (Pointer, String) -> Value?)
        -> [ObjectKey]
    {
        guard let first = record[path.first] else { return [] }
        var out: [ObjectKey] = []
        var current = [first]
        for name in path.components.dropFirst() {
            var next: [Value] = []
            for v in current { step(v, name, resolve, &next, &out) }
            current = next
        }
        for v in current { collect(v, &out) }
        return out
    }

    private static func step(
        _ v: Value, _ name: String, _ resolve: (Pointer, String) -> Value?, _ next: inout [Value],
        _ out: inout [ObjectKey]
    ) {
        switch v {
        case .pointer(let p):
            out.append(ObjectKey(className: p.className, objectId: p.objectId))
            if let field = resolve(p, name) { next.append(field) }
        case .relation(let className, let ids):
            for id in ids { step(.pointer(Pointer(className: className, objectId: id)), name, resolve, &next, &out) }
        case .array(let items):
            for item in items { step(item, name, resolve, &next, &out) }
        case .object(let fields):
            if let field = fields[name] { next.append(field) }
        default:
            break
        }
    }

    /// Pointers inside a reached value.
    private static func collect(_ v: Value, _ out: inout [ObjectKey]) {
        switch v {
        case .pointer(let p): out.append(ObjectKey(className: p.className, objectId: p.objectId))
        case .relation(let className, let ids): out += ids.map { ObjectKey(className: className, objectId: $0) }
        case .array(let items): for item in items { collect(item, &out) }
        case .object(let fields): for field in fields.values { collect(field, &out) }
        default: break
        }
    }
}
