import Quarry

/// The changes of one write turn, in order, and the objects as they leave them, so that a
/// later write of a transactional batch reads what an earlier one wrote (docs/SERVER.md#batch).
struct PendingWrites {
    private(set) var changes: [StoreChange] = []
    /// The latest state of each object written: the record, or nil once deleted.
    private var objects: [ObjectKey: Record?] = [:]

    private struct ObjectKey: Hashable {
        var className: String
        var objectId: String
    }

    mutating func save(_ record: Record, in className: String) {
        changes.append(.save(record, in: className))
        objects[ObjectKey(className: className, objectId: record.objectId)] = .some(record)
    }

    mutating func delete(_ objectId: String, from className: String) {
        changes.append(.delete(objectId: objectId, from: className))
        objects[ObjectKey(className: className, objectId: objectId)] = .some(nil)
    }

    /// `.some(record)` or `.some(nil)` (deleted) for an object written in this turn; nil for
    /// one the turn has not touched.
    func object(_ objectId: String, in className: String) -> Record?? {
        objects[ObjectKey(className: className, objectId: objectId)]
    }
}

/// One write of a transactional `/batch`.
enum BatchWrite: Sendable {
    case create(className: String, body: JSONObject)
    case update(className: String, objectId: String, body: JSONObject)
    case delete(className: String, objectId: String)
}
