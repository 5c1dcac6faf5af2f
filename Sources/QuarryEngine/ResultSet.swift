import Foundation
import QuarryCore

/// What `Engine.runLazily` returns: the matched objects' ids, or their number for a count query.
public enum LazyQueryResult: Sendable {
    case rows(ResultSet)
    case count(Int)
}

/// The objectIds of the objects a query matched, in result order, copied from the store while
/// the query ran (no record is built): their UTF-8 bytes one after another, a `String` made
/// only when one is asked for (docs/ARCHITECTURE.md#result-sets). A built value: later changes
/// to the engine do not touch it (docs/ARCHITECTURE.md#concurrency).
public struct ResultSet: RandomAccessCollection, Sendable {
    /// Every objectId's bytes, in result order.
    @usableFromInline let bytes: [UInt8]
    /// Where each objectId ends in `bytes`; each starts where the one before it ends.
    @usableFromInline let ends: [Int]

    /// The objectIds of `rows` of a class, copied on several threads when there are many.
    init(rows: [Int], of objectIds: StringColumn, parallelism: ScanParallelism) {
        (bytes, ends) = objectIds.withBytes { s in
            rows.withUnsafeBufferPointer { rows in
                ObjectIdCopy(source: s, rows: rows, chunkSize: parallelism.morselRows).run(threads: parallelism.threads)
            }
        }
    }

    /// The objectIds of `rows`, copied on the calling thread from spans it holds (a morsel's
    /// rows, by the thread that filtered them: docs/ARCHITECTURE.md#result-sets).
    init(rows: [Int], of objectIds: StringSpans) {
        (bytes, ends) = rows.withUnsafeBufferPointer { rows in
            ObjectIdCopy(source: objectIds, rows: rows, chunkSize: Swift.max(1, rows.count)).run(threads: 1)
        }
    }

    init(bytes: [UInt8], ends: [Int]) {
        self.bytes = bytes
        self.ends = ends
    }

    /// The first `n` objectIds.
    func first(_ n: Int) -> ResultSet {
        guard n < count else { return self }
        let n = Swift.max(0, n)
        return ResultSet(bytes: Array(bytes[..<(n == 0 ? 0 : ends[n - 1])]), ends: Array(ends[..<n]))
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { ends.count }

    /// The `i`-th object's objectId.
    public subscript(i: Int) -> String { objectId(at: i) }

    /// The `i`-th object's objectId.
    public func objectId(at i: Int) -> String { withUTF8(at: i) { String(decoding: $0, as: UTF8.self) } }

    /// Calls `body` with the `i`-th objectId's UTF-8 bytes, valid only inside it (no `String`
    /// is made: for writing ids out or comparing them by their bytes).
    @inlinable
    public func withUTF8<R>(at i: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let start = i == 0 ? 0 : ends[i - 1], end = ends[i]
        return try bytes.withUnsafeBufferPointer { b in try body(UnsafeBufferPointer(rebasing: b[start..<end])) }
    }

    /// Every objectId, in result order, as strings (one `String` each, made now).
    public var objectIds: [String] { Array(self) }
}

/// Copies the objectIds of a result's rows into one byte buffer (docs/ARCHITECTURE.md#result-sets),
/// in chunks of a morsel's size shared out over the scan threads: first each chunk's ends
/// counted from the chunk's start, then, once every chunk's size is known, the chunks moved
/// to their offsets and their bytes copied. The pointers are valid while `run` runs, and each
/// phase returns only when every thread is done with it.
private final class ObjectIdCopy: @unchecked Sendable {
    private let source: StringSpans
    private let rows: UnsafeBufferPointer<Int>
    private var ends = UnsafeMutableBufferPointer<Int>(start: nil, count: 0)
    private var target: UnsafeMutableRawPointer? = nil
    private let chunkSize: Int
    /// Each chunk's byte count, then (before the second phase) its offset in the buffer; each
    /// element written by the one thread that took its chunk.
    private let chunkBytes: UnsafeMutableBufferPointer<Int>

    init(source: StringSpans, rows: UnsafeBufferPointer<Int>, chunkSize: Int) {
        self.source = source
        self.rows = rows
        self.chunkSize = chunkSize
        chunkBytes = .allocate(capacity: (rows.count + chunkSize - 1) / chunkSize)
        chunkBytes.initialize(repeating: 0)
    }

    deinit { chunkBytes.deallocate() }

    func run(threads: Int) -> (bytes: [UInt8], ends: [Int]) {
        let chunks = chunkBytes.count
        let helpers = threads > 1 && chunks >= 2 ? Swift.min(threads, chunks) - 1 : 0
        var bytes: [UInt8] = []
        // Not zeroed first: the first phase writes every element, on the threads.
        let ends = [Int](unsafeUninitializedCapacity: rows.count) { e, initialized in
            self.ends = e
            everyChunk(helpers, .measure)
            var total = 0
            for c in 0..<chunks {
                let size = chunkBytes[c]
                chunkBytes[c] = total
                total += size
            }
            bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
                target = UnsafeMutableRawPointer(buffer.baseAddress)
                everyChunk(helpers, .place)
                initialized = total
            }
            self.ends = UnsafeMutableBufferPointer(start: nil, count: 0)
            initialized = rows.count
        }
        return (bytes, ends)
    }

    private enum Phase { case measure, place }

    /// A phase on every chunk, on the calling thread and `helpers` scan threads.
    private func everyChunk(_ helpers: Int, _ phase: Phase) {
        let chunks = SharedItems(chunkBytes.count)
        ScanThreads.shared.run(helpers: helpers) {
            while let c = chunks.take() {
                switch phase {
                case .measure: self.measure(c)
                case .place: self.place(c)
                }
            }
        }
    }

    private func indices(_ chunk: Int) -> Range<Int> {
        chunk * chunkSize..<Swift.min(rows.count, (chunk + 1) * chunkSize)
    }

    /// First phase: the chunk's ends from its start, and its size.
    private func measure(_ chunk: Int) {
        var total = 0
        for i in indices(chunk) {
            total += source.count(rows[i])
            ends[i] = total
        }
        chunkBytes[chunk] = total
    }

    /// Second phase: the chunk's ends moved by its offset, and its bytes copied there.
    private func place(_ chunk: Int) {
        guard let out = target else { return }
        let offset = chunkBytes[chunk]
        var start = offset
        for i in indices(chunk) {
            let end = ends[i] + offset
            ends[i] = end
            let count = end - start
            defer { start = end }
            guard count > 0, let from = source.base(rows[i]).map(UnsafeRawPointer.init) else { continue }
            // Most objectIds are short: two loads that may overlap, instead of a call to
            // memmove (ids of 7 bytes or fewer went through it before: a tenth of the time of a
            // scan of 1M rows that returns half of them).
            let to = out + start
            switch count {
            case 8...16: Self.copyOverlapping(UInt64.self, from, to, count)
            case 4...7: Self.copyOverlapping(UInt32.self, from, to, count)
            case 2...3: Self.copyOverlapping(UInt16.self, from, to, count)
            case 1: to.storeBytes(of: from.load(as: UInt8.self), as: UInt8.self)
            default: to.copyMemory(from: from, byteCount: count)
            }
        }
    }

    /// Copies `count` bytes, from one to two `Word`s' worth, as the first and the last word.
    @inline(__always)
    private static func copyOverlapping<Word: FixedWidthInteger>(
        _: Word.Type, _ from: UnsafeRawPointer, _ to: UnsafeMutableRawPointer, _ count: Int
    ) {
        let size = MemoryLayout<Word>.size
        to.storeBytes(of: from.loadUnaligned(as: Word.self), as: Word.self)
        (to + count - size).storeBytes(
            of: from.loadUnaligned(fromByteOffset: count - size, as: Word.self), as: Word.self)
    }
}
