import Foundation

/// The threads parallel scans run their morsels on (docs/ARCHITECTURE.md#parallel-scans):
/// dedicated threads, started on first use and kept, not the Swift cooperative pool (a scan
/// blocks its thread for milliseconds to seconds, and blocking a cooperative thread starves
/// every task of the process) and not `DispatchQueue.concurrentPerform` (its caller waits for
/// every iteration, including those queued behind other work on the shared global queues).
///
/// The calling thread always takes part: `run` calls `body` on it and offers the other shares
/// to helper threads; shares no helper has taken by the time the caller's own share is done
/// are withdrawn. So a scan never waits for a busy pool, and two scans at once each still
/// make progress on their own threads.
final class ScanThreads: @unchecked Sendable {
    static let shared = ScanThreads()

    private let condition = NSCondition()
    /// Offers waiting for a helper, oldest first.
    private var offers: [Offer] = []
    private var started = 0

    final class Offer: @unchecked Sendable {
        fileprivate let body: @Sendable () -> Void
        /// Helpers that may still take it, and helpers running it (guarded by `condition`).
        fileprivate var open: Int
        fileprivate var running = 0
        init(body: @escaping @Sendable () -> Void, open: Int) {
            self.body = body
            self.open = open
        }
    }

    /// Runs `body` on the calling thread and on up to `helpers` pool threads at once; returns
    /// when every call that started has returned. `body` must share out its own work (each
    /// call takes what is left).
    func run(helpers: Int, _ body: @escaping @Sendable () -> Void) {
        guard helpers > 0 else { return body() }
        let offer = start(helpers: helpers, body)
        body()
        finish(offer)
    }

    /// Offers `body` to up to `helpers` pool threads and returns at once: the caller goes on
    /// with other work and later calls `body` itself and `finish` (work that overlaps what
    /// the caller does next, as a store's decoding overlaps its cursor).
    func start(helpers: Int, _ body: @escaping @Sendable () -> Void) -> Offer {
        let offer = Offer(body: body, open: helpers)
        condition.lock()
        while started < helpers { startThread() }
        offers.append(offer)
        condition.broadcast()
        condition.unlock()
        return offer
    }

    /// Withdraws what no helper has taken of an offer and waits for the calls that started.
    func finish(_ offer: Offer) {
        condition.lock()
        offer.open = 0
        offers.removeAll { $0 === offer }
        while offer.running > 0 { condition.wait() }
        condition.unlock()
    }

    /// Called with the lock held.
    private func startThread() {
        started += 1
        let thread = Thread { [unowned self] in self.serve() }
        thread.name = "quarry-scan-\(started)"
        thread.start()
    }

    private func serve() {
        condition.lock()
        while true {
            guard let offer = offers.first(where: { $0.open > 0 }) else {
                condition.wait()
                continue
            }
            offer.open -= 1
            offer.running += 1
            condition.unlock()
            offer.body()
            condition.lock()
            offer.running -= 1
            if offer.running == 0 { condition.broadcast() }
        }
    }
}

/// The items `0..<count` of some work shared over scan threads, handed out one at a time, so
/// that each is done by exactly one thread.
final class SharedItems: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private let count: Int

    init(_ count: Int) { self.count = count }

    /// The next item nobody has taken, nil when all are taken (or `stop` was called).
    func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < count else { return nil }
        defer { next += 1 }
        return next
    }

    /// Hands out no more items.
    func stop() {
        lock.lock()
        next = count
        lock.unlock()
    }
}
