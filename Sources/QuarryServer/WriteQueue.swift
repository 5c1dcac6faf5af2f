/// Serializes read-modify-write sequences (an update reads the object, applies the operators
/// and saves it): one at a time, in arrival order, while reads go on concurrently. An actor's
/// methods interleave at every `await`, so the queue hands out turns explicitly.
actor WriteQueue {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func perform<T: Sendable>(_ body: @Sendable () async throws(APIError) -> T) async throws(APIError) -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        if !busy {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
