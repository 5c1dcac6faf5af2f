import Foundation
import QuarryCore

/// The rows a store's query returns, decoded into records a batch at a time on several threads
/// (docs/STORAGE.md#reading-rows): the caller steps the database's cursor and copies each row's
/// objectId and document here; a full batch is cut into slices that the scan threads decode
/// while the caller reads the next batch, and that the caller helps finish before it hands that
/// one over. Each slice has its own `StoredRecordReader.FieldNames`. Records keep the rows'
/// order, and a corrupt document fails with the first one's error in that order. An answer of
/// fewer rows than a batch is decoded without a hand-off (on the caller's thread alone when it
/// is under two slices).
public final class StoredRecordBatches {
    private let fields: Set<String>?
    private let corruption: DiagnosticCode
    private let threads: Int
    private var batch = Batch()
    /// The records decoded so far, in row order, moved into one array by `finish`.
    private var chunks: [RecordChunk] = []
    /// The last full batch, being decoded while the caller reads the next.
    private var inFlight: InFlight?
    /// Rows the current batch holds before it is handed over: two slices for the first, twice
    /// as many for each next one up to `batchRows`, so that an answer of a few thousand rows is
    /// decoded while the rest arrives rather than after its last row.
    private var handOverAt = 2 * sliceRows

    /// Rows a batch holds at most before it is decoded; a thread decodes at least one slice of
    /// them.
    static let batchRows = 16_384
    static let sliceRows = 1_024

    /// - Parameters:
    ///   - fields: the fields to keep (a `keys` projection), or nil for all.
    ///   - corruption: the code of a document that is not one.
    ///   - threads: how many threads decode, the caller's included.
    public init(fields: Set<String>? = nil, corruption: DiagnosticCode, threads: Int) {
        self.fields = fields
        self.corruption = corruption
        self.threads = Swift.max(1, threads)
    }

    /// Adds a row, copying its document's bytes; hands the batch over once it is full.
    public func append(objectId: String, document: UnsafeBufferPointer<UInt8>) throws(Diagnostic) {
        batch.append(objectId, document)
        if batch.count == handOverAt {
            handOverAt = Swift.min(2 * handOverAt, Self.batchRows)
            try handOver(last: false)
        }
    }

    /// Every row's record, in the order the rows came.
    public func finish() throws(Diagnostic) -> [Record] {
        try handOver(last: true)
        defer { chunks.removeAll() }
        return RecordChunk.join(chunks)
    }

    /// Starts decoding the current batch on the scan threads, then finishes the one before it
    /// (the caller helping) and takes its records; the last batch is finished at once. A batch
    /// under two slices (a short answer's, or a long one's tail) is decoded on this thread, after
    /// the one before it.
    private func handOver(last: Bool) throws(Diagnostic) {
        let previous = inFlight
        inFlight = nil
        guard threads > 1, batch.count >= 2 * Self.sliceRows else {
            try previous?.complete(into: &chunks)
            let chunk = RecordChunk(capacity: batch.count)
            chunks.append(chunk)
            try batch.decode(0..<batch.count, fields, corruption, StoredRecordReader.FieldNames(), into: chunk)
            batch.removeAll()
            return
        }
        let work = SliceWork(batch: batch, fields: fields, corruption: corruption)
        batch.removeAll()
        let current = InFlight(work, ScanThreads.shared.start(helpers: threads - 1) { work.decodeSlices() })
        inFlight = current
        // A failure leaves the current batch in flight: dropping it withdraws it.
        try previous?.complete(into: &chunks)
        if last {
            inFlight = nil
            try current.complete(into: &chunks)
        }
    }

    /// Rows copied out of the cursor: objectIds, and the documents' bytes end to end.
    fileprivate struct Batch {
        var objectIds: [String] = []
        var bytes: [UInt8] = []
        var ends: [Int] = []

        var count: Int { objectIds.count }

        mutating func append(_ objectId: String, _ document: UnsafeBufferPointer<UInt8>) {
            objectIds.append(objectId)
            bytes.append(contentsOf: document)
            ends.append(bytes.count)
        }

        /// Empties the batch, keeping its capacity (new storage when a decoding shares it).
        mutating func removeAll() {
            objectIds.removeAll(keepingCapacity: true)
            bytes.removeAll(keepingCapacity: true)
            ends.removeAll(keepingCapacity: true)
        }

        func decode(
            _ rows: Range<Int>, _ fields: Set<String>?, _ corruption: DiagnosticCode,
            _ names: StoredRecordReader.FieldNames, into out: RecordChunk
        ) throws(Diagnostic) {
            try bytes.withUnsafeBufferPointer { (all) throws(Diagnostic) in
                for row in rows {
                    let start = row == 0 ? 0 : ends[row - 1]
                    out.append(
                        try StoredRecordReader.record(
                            UnsafeBufferPointer(rebasing: all[start..<ends[row]]), objectId: objectIds[row],
                            fields: fields, names: names, corruption: corruption))
                }
            }
        }
    }
}

/// A batch handed to the scan threads: the caller completes it (decoding what no helper has
/// taken, waiting for the helpers) before it takes its records; dropped uncompleted (the
/// caller failed first), it stops handing out slices and waits for those being decoded.
private final class InFlight {
    private let work: SliceWork
    private let offer: ScanThreads.Offer
    private var completed = false

    init(_ work: SliceWork, _ offer: ScanThreads.Offer) {
        self.work = work
        self.offer = offer
    }

    func complete(into chunks: inout [RecordChunk]) throws(Diagnostic) {
        work.decodeSlices()
        ScanThreads.shared.finish(offer)
        completed = true
        try work.collect(into: &chunks)
    }

    deinit {
        guard !completed else { return }
        work.cancel()
        ScanThreads.shared.finish(offer)
    }
}

/// One batch's slices, taken one at a time by the threads decoding them; each slice's
/// records (or its first error) land in its own place.
private final class SliceWork: @unchecked Sendable {
    private let batch: StoredRecordBatches.Batch
    private let fields: Set<String>?
    private let corruption: DiagnosticCode
    private let slices: SharedItems
    /// Guards `results`.
    private let lock = NSLock()
    private var results: [Result<RecordChunk, Diagnostic>?]

    init(batch: StoredRecordBatches.Batch, fields: Set<String>?, corruption: DiagnosticCode) {
        self.batch = batch
        self.fields = fields
        self.corruption = corruption
        let count = (batch.count + StoredRecordBatches.sliceRows - 1) / StoredRecordBatches.sliceRows
        slices = SharedItems(count)
        results = Array(repeating: nil, count: count)
    }

    func decodeSlices() {
        while let slice = slices.take() {
            let rows =
                slice
                * StoredRecordBatches.sliceRows..<Swift.min(
                    batch.count, (slice + 1) * StoredRecordBatches.sliceRows)
            let out = RecordChunk(capacity: rows.count)
            let result: Result<RecordChunk, Diagnostic>
            do throws(Diagnostic) {
                try batch.decode(rows, fields, corruption, StoredRecordReader.FieldNames(), into: out)
                result = .success(out)
            } catch {
                result = .failure(error)
            }
            lock.lock()
            results[slice] = result
            lock.unlock()
        }
    }

    /// Hands out no more slices.
    func cancel() { slices.stop() }

    /// The slices' records in order, or the first slice's error (every slice has been
    /// decoded: the caller took what was left, and the helpers have returned).
    func collect(into chunks: inout [RecordChunk]) throws(Diagnostic) {
        for result in results {
            switch result {
            case .success(let slice)?: chunks.append(slice)
            case .failure(let error)?: throw error
            case nil: preconditionFailure("a slice was left undecoded")
            }
        }
    }
}

/// Records decoded into storage of their own, later moved (not copied) into the answer's one
/// array: appending each slice's records to a growing array retained every record's parts
/// and released them again with the slice, and copied the array on each growth
/// (docs/STORAGE.md#reading-rows).
private final class RecordChunk {
    private let base: UnsafeMutablePointer<Record>
    private let capacity: Int
    /// The records initialized so far, from `base`.
    private var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: Swift.max(1, capacity))
    }

    func append(_ record: Record) {
        precondition(count < capacity, "a record chunk is full")
        (base + count).initialize(to: record)
        count += 1
    }

    /// Every chunk's records in order, moved out of them (they are left empty).
    static func join(_ chunks: [RecordChunk]) -> [Record] {
        let total = chunks.reduce(0) { $0 + $1.count }
        return Array(unsafeUninitializedCapacity: total) { buffer, initialized in
            for chunk in chunks {
                (buffer.baseAddress! + initialized).moveInitialize(from: chunk.base, count: chunk.count)
                initialized += chunk.count
                chunk.count = 0
            }
        }
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }
}
