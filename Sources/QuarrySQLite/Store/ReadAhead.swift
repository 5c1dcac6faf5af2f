import Foundation
import Quarry

/// `DataFile.stream` with the parsing on a thread of its own (docs/STORAGE.md#writes): while
/// the calling thread saves one batch of objects, the next batches are parsed. `body` sees
/// the same objects in the same order, on the calling thread, and the first error is the one
/// the plain stream would meet: a parse error after every object before it was handed over,
/// or `body`'s own error (the parser is then stopped and what it read ahead is dropped).
public enum ReadAhead {
    /// Objects handed over at a time, and the batches parsed ahead at most.
    static let batchSize = 512
    static let batchesAhead = 8

    public static func stream(
        path: String, className: String? = nil, _ body: (Record, String) throws -> Void
    ) throws {
        let channel = Channel()
        let parser = Thread {
            var batch: [(Record, String)] = []
            batch.reserveCapacity(batchSize)
            do {
                try DataFile.stream(path: path, className: className) { record, name throws(DataFileError) in
                    batch.append((record, name))
                    guard batch.count == batchSize else { return }
                    guard channel.put(batch) else {
                        throw DataFileError(code: .store.write, message: "the import stopped", file: path)
                    }
                    batch.removeAll(keepingCapacity: true)
                }
                if !batch.isEmpty { _ = channel.put(batch) }
                channel.finish(nil)
            } catch {
                // The objects read before the error are handed over first, as the plain stream does.
                if !batch.isEmpty { _ = channel.put(batch) }
                channel.finish(error)
            }
        }
        // The parser recurses into nested values; a secondary thread's default stack is small.
        parser.stackSize = 8 << 20
        parser.start()
        do {
            while let batch = try channel.take() {
                for (record, name) in batch { try body(record, name) }
            }
        } catch {
            channel.cancel()
            throw error
        }
    }

    /// The batches between the parser and the caller, bounded so memory stays flat.
    private final class Channel: @unchecked Sendable {
        private let condition = NSCondition()
        private var batches: [[(Record, String)]] = []
        private var finished = false
        private var failure: (any Error)?
        private var cancelled = false

        /// Hands a batch over, waiting for room; false once the caller has stopped.
        func put(_ batch: [(Record, String)]) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while batches.count >= ReadAhead.batchesAhead, !cancelled { condition.wait() }
            guard !cancelled else { return false }
            batches.append(batch)
            condition.broadcast()
            return true
        }

        /// The next batch; nil at the end of the file; the parser's error after its last batch.
        func take() throws -> [(Record, String)]? {
            condition.lock()
            defer { condition.unlock() }
            while batches.isEmpty, !finished { condition.wait() }
            if !batches.isEmpty {
                condition.broadcast()
                return batches.removeFirst()
            }
            if let failure { throw failure }
            return nil
        }

        func finish(_ error: (any Error)?) {
            condition.lock()
            finished = true
            failure = error
            condition.broadcast()
            condition.unlock()
        }

        /// Stops the parser at its next batch and waits until it has.
        func cancel() {
            condition.lock()
            cancelled = true
            condition.broadcast()
            while !finished { condition.wait() }
            condition.unlock()
        }
    }
}
