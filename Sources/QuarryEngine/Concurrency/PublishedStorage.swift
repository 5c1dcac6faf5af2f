import QuarryCore

/// `Engine.storage`: each answer read from the replica published when it is asked.
final class PublishedStorage: Storage, Sendable {
    let replicas: ReplicaPair

    init(replicas: ReplicaPair) { self.replicas = replicas }

    func rowCount(of className: String) -> Int? { replicas.read { $0.store.rowCount(of: className) } }

    func indexKinds(on key: FieldPath, in className: String) -> [IndexKind] {
        replicas.read { $0.store.indexKinds(on: key, in: className) }
    }

    func statistics(of key: FieldPath, in className: String) -> KeyStatistics? {
        replicas.read { $0.store.statistics(of: key, in: className) }
    }

    func estimatedRows(for probe: IndexProbe, on key: FieldPath, in className: String) -> Int? {
        replicas.read { $0.store.estimatedRows(for: probe, on: key, in: className) }
    }
}
