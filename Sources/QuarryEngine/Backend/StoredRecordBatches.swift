import Foundation
import QuarryCore

/// The rows a store's query returns, decoded into records a batch at a time on several threads
/// (docs/STORAGE.md#reading-rows): the caller steps the database's cursor and copies each row's
/// objectId and document here; a full batch is cut into slices that the caller and the scan
/// threads decode at once, each slice with its own `StoredRecordReader.FieldNames`. Records
/// keep the rows' order, and a corrupt document fails with the first one's error in that order.
/// An answer of fewer rows than a batch is decoded on the caller's thread alone.
public struct StoredRecordBatches {
    private let fields: Set<String>?
    private let corruption: DiagnosticCode
    private let threads: Int
    private var batch = Batch()
    private var records: [Record] = []

    /// Rows a batch holds before it is decoded; a thread decodes at least one slice of them.
    static let batchRows = 16_384
    static let sliceRows = 1_024

    /// - Parameters:
    ///   - fields: the fields to keep (a `keys` projection), or nil for all.
    ///   - corruption: the code of a document that is not one.
    ///   - threads: how many threads decode a full batch, the caller's included.
    public init(fields: Set<String>? = nil, corruption: DiagnosticCode, threads: Int) {
        self.fields = fields
        self.corruption = corruption
        self.threads = Swift.max(1, threads)
    }

    /// Adds a row, copying its document's bytes; decodes the batch once it is full.
    public mutating func append(objectId: String, document: UnsafeBufferPointer<UInt8>) throws(Diagnostic) {
        batch.append(objectId, document)
        if batch.count == Self.batchRows { try decodeBatch() }
    }

    /// Every row's record, in the order the rows came.
    public mutating func finish() throws(Diagnostic) -> [Record] {
        try decodeBatch()
        return records
    }

    private mutating func decodeBatch() throws(Diagnostic) {
        guard batch.count > 0 else { return }
        defer { batch.removeAll() }
        let slices = (batch.count + Self.sliceRows - 1) / Self.sliceRows
        let helpers = Swift.min(threads, slices) - 1
        guard helpers > 0 else {
            records.reserveCapacity(records.count + batch.count)
            try batch.decode(0..<batch.count, fields, corruption, StoredRecordReader.FieldNames(), into: &records)
            return
        }
        let work = SliceWork(batch: batch, slices: slices, fields: fields, corruption: corruption)
        ScanThreads.shared.run(helpers: helpers) { work.decodeSlices() }
        try work.collect(into: &records)
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

        mutating func removeAll() {
            objectIds.removeAll(keepingCapacity: true)
            bytes.removeAll(keepingCapacity: true)
            ends.removeAll(keepingCapacity: true)
        }

        func decode(
            _ rows: Range<Int>, _ fields: Set<String>?, _ corruption: DiagnosticCode,
            _ names: StoredRecordReader.FieldNames, into out: inout [Record]
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

/// One full batch's slices, taken one at a time by the threads decoding them; each slice's
/// records (or its first error) land in its own place.
private final class SliceWork: @unchecked Sendable {
    private let batch: StoredRecordBatches.Batch
    private let fields: Set<String>?
    private let corruption: DiagnosticCode
    private let lock = NSLock()
    private var next = 0
    private var results: [Result<[Record], Diagnostic>?]

    init(batch: StoredRecordBatches.Batch, slices: Int, fields: Set<String>?, corruption: DiagnosticCode) {
        self.batch = batch
        self.fields = fields
        self.corruption = corruption
        results = Array(repeating: nil, count: slices)
    }

    func decodeSlices() {
        while let slice = take() {
            let rows =
                slice
                * StoredRecordBatches.sliceRows..<Swift.min(
                    batch.count, (slice + 1) * StoredRecordBatches.sliceRows)
            var out: [Record] = []
            out.reserveCapacity(rows.count)
            let result: Result<[Record], Diagnostic>
            do throws(Diagnostic) {
                try batch.decode(rows, fields, corruption, StoredRecordReader.FieldNames(), into: &out)
                result = .success(out)
            } catch {
                result = .failure(error)
            }
            lock.lock()
            results[slice] = result
            lock.unlock()
        }
    }

    private func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < results.count else { return nil }
        defer { next += 1 }
        return next
    }

    /// The slices' records in order, or the first slice's error (every slice has run: `run`
    /// returns only once every call has).
    func collect(into records: inout [Record]) throws(Diagnostic) {
        records.reserveCapacity(records.count + batch.count)
        for result in results {
            switch result {
            case .success(let slice)?: records.append(contentsOf: slice)
            case .failure(let error)?: throw error
            case nil: preconditionFailure("a slice was left undecoded")
            }
        }
    }
}
