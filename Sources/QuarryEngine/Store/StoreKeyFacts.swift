import QuarryCore

/// `KeyFacts` read from the store's column statistics for one class. Statistics only widen
/// as data changes, so a fact that holds here holds for every row.
struct StoreKeyFacts: KeyFacts {
    let store: ColumnStore
    let table: ClassTable

    func reachableTypes(_ path: FieldPath) -> UInt16? { Self.reachableTypes(KeyAccess(path, in: table, store: store)) }

    func isSingleValued(_ path: FieldPath) -> Bool { Self.isSingleValued(KeyAccess(path, in: table, store: store)) }

    /// The types a key's access reaches (nil: unknown).
    static func reachableTypes(_ access: KeyAccess?) -> UInt16? {
        guard let access = clean(access) else { return nil }
        return access.column?.statistics.typeBits ?? 0
    }

    /// Whether a key's access reaches one value per object at most.
    static func isSingleValued(_ access: KeyAccess?) -> Bool {
        guard let access = clean(access) else { return false }
        return (access.column?.statistics.multiValued ?? 0) == 0
    }

    /// The access when every step is a pointer column holding only pointers into its class.
    private static func clean(_ access: KeyAccess?) -> KeyAccess? {
        guard let access, access.hops.allSatisfy({ $0.foreignCount == 0 }) else { return nil }
        return access
    }
}
