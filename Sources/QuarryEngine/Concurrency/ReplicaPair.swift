import QuarryCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Two replicas of the data: readers enter the published one, the writer changes the other and
/// then publishes it (docs/ARCHITECTURE.md#concurrency). A change is applied to each replica in
/// turn: to the unpublished one when it is made, and to the other just before the next change,
/// once the readers that were inside it have left. Readers never wait and never see a change
/// half applied; a writer waits only for readers that entered before the previous publication.
///
/// The second replica is made from the first at the first change, so data that is only read
/// is held once.
final class ReplicaPair: @unchecked Sendable {
    /// The published replica's slot (0 or 1).
    private let published = Atomic<Int>(0)
    /// Written only by the writer, before the slot is first published; read by readers only
    /// after they load `published`, which orders the two.
    private let first: Replica
    private var second: Replica?
    /// Serializes writers and holds the changes the unpublished replica has yet to apply.
    private let writer = Mutex<[Change]>([])

    init(_ replica: Replica) { first = replica }

    private func replica(_ slot: Int) -> Replica? { slot == 0 ? first : second }

    /// Runs `body` inside the published replica.
    func read<R, E: Error>(_ body: (Replica) throws(E) -> R) throws(E) -> R {
        while true {
            let slot = published.load(ordering: .sequentiallyConsistent)
            guard let r = replica(slot), r.enter() else { continue }
            // Still published: the writer will not start on it until this reader leaves.
            if published.load(ordering: .sequentiallyConsistent) == slot {
                defer { r.leave() }
                return try body(r)
            }
            r.leave()
        }
    }

    /// Applies changes as one: readers see all of them or none. `check` runs first on the
    /// published replica (which no writer changes meanwhile) and may refuse the changes.
    /// Returns what each change reports (see `Replica.apply`).
    func write<E: Error>(_ changes: [Change], check: (Replica) throws(E) -> Void) throws(E) -> [Bool] {
        try writer.withLock { (pending) throws(E) -> [Bool] in
            let front = published.load(ordering: .sequentiallyConsistent)
            try check(replica(front)!)
            let backSlot = 1 - front
            let back: Replica
            if let existing = replica(backSlot) {
                back = existing
                back.enterWriting()
                back.replay(pending, after: replica(front)!)
            } else {
                back = replica(front)!.copy()
                second = back
                back.enterWriting()
            }
            let results = back.apply(changes)
            back.leaveWriting()
            published.store(backSlot, ordering: .sequentiallyConsistent)
            pending = changes
            return results
        }
    }

    func write(_ changes: [Change]) -> [Bool] {
        write(changes) { (_) throws(Never) in }
    }

    /// Every replica made so far.
    var replicas: [Replica] { writer.withLock { _ in [first] + (second.map { [$0] } ?? []) } }
}

/// Waiting for readers to leave: spin briefly, then yield, then sleep a little.
enum Backoff {
    static func pause(_ spins: Int) {
        if spins < 64 { return }
        if spins < 256 {
            sched_yield()
        } else {
            usleep(50)
        }
    }
}
