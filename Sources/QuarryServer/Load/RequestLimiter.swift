/// Backpressure (docs/SERVER.md#backpressure): at most `maxInFlight` requests are handled at
/// once; up to `maxQueued` more wait in arrival order for a turn; past that a request is
/// refused at once (503) rather than queued without bound. Handling is CPU-bound, so requests
/// beyond a few per core add latency but no throughput; the short queue absorbs bursts, and
/// its bound caps both the memory held by waiting requests and the wait any of them sees.
actor RequestLimiter {
    let maxInFlight: Int
    let maxQueued: Int
    private var inFlight = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(maxInFlight: Int, maxQueued: Int) {
        precondition(maxInFlight > 0 && maxQueued >= 0, "the limits are validated by ServerConfiguration")
        self.maxInFlight = maxInFlight
        self.maxQueued = maxQueued
    }

    /// Takes a turn, waiting in the queue when every turn is taken; false when the queue is
    /// full too (the request is to be refused).
    func acquire() async -> Bool {
        if inFlight < maxInFlight {
            inFlight += 1
            return true
        }
        guard waiting.count < maxQueued else { return false }
        // The releasing request hands its turn over: `inFlight` stays as it is.
        await withCheckedContinuation { waiting.append($0) }
        return true
    }

    func release() {
        if waiting.isEmpty {
            inFlight -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }

    /// Requests being handled and requests waiting.
    var load: (inFlight: Int, queued: Int) { (inFlight, waiting.count) }
}
