import Foundation

/// Reads that outgrew their time on the calling task (docs/STORAGE.md#reads-on-the-calling-task),
/// by a hash of the query and its variables: the same read goes straight to a thread of its own
/// next time, instead of spending that time again before it moves. A read that then answers
/// well within the time is taken off. At most `capacity` are kept; the set is emptied when full.
/// A hash that two reads share only sends one of them to a thread sooner: answers never depend
/// on it.
final class LongReads: @unchecked Sendable {
    static let capacity = 1_024

    private let lock = NSLock()
    // Guarded by `lock`.
    private var keys: Set<Int> = []

    func contains(_ key: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return keys.contains(key)
    }

    func insert(_ key: Int) {
        lock.lock()
        defer { lock.unlock() }
        if keys.count >= Self.capacity { keys.removeAll(keepingCapacity: true) }
        keys.insert(key)
    }

    func remove(_ key: Int) {
        lock.lock()
        defer { lock.unlock() }
        keys.remove(key)
    }

    /// Reads marked now (tests).
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return keys.count
    }
}
