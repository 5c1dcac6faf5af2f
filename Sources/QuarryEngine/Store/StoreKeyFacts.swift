import QuarryCore

/// `KeyFacts` read from the store's column statistics for one class. Statistics only widen
/// as data changes, so a fact that holds here holds for every row.
struct StoreKeyFacts: KeyFacts {
    let store: ColumnStore
    let table: ClassTable

    func reachableTypes(_ path: FieldPath) -> UInt16? {
        guard let access = clean(path) else { return nil }
        return access.column?.statistics.typeBits ?? 0
    }

    func isSingleValued(_ path: FieldPath) -> Bool {
        guard let access = clean(path) else { return false }
        return (access.column?.statistics.multiValued ?? 0) == 0
    }

    /// The path when every step is a pointer column holding only pointers into its class.
    private func clean(_ path: FieldPath) -> KeyAccess? {
        guard let access = KeyAccess(path, in: table, store: store),
            access.hops.allSatisfy({ $0.foreignCount == 0 })
        else { return nil }
        return access
    }
}
