import QuarryCore

/// What `Engine.runLazily` returns: the matched objects' ids, or their number for a count query.
public enum LazyQueryResult: Sendable {
    case rows(ResultSet)
    case count(Int)
}

/// The objectIds of the objects a query matched, in result order, read from the store while
/// the query ran (no record is built). A built value: later changes to the engine do not
/// touch it (docs/ARCHITECTURE.md#concurrency).
public struct ResultSet: RandomAccessCollection, Sendable {
    /// Every objectId, in result order.
    public let objectIds: [String]

    init(objectIds: [String]) { self.objectIds = objectIds }

    public var startIndex: Int { 0 }
    public var endIndex: Int { objectIds.count }

    /// The `i`-th object's objectId.
    public subscript(i: Int) -> String { objectIds[i] }

    /// The `i`-th object's objectId.
    public func objectId(at i: Int) -> String { objectIds[i] }
}
