import QuarryCore
import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// A large answer's documents decoded in batches on several threads
/// (docs/STORAGE.md#reading-rows): the same records in the same order as one thread reads them
/// row by row, and a corrupt document fails with the first one's error in row order.
@Suite struct StoredRecordBatchesTests {
    static let code = DiagnosticCode(rawValue: "test.corrupt")

    /// More rows than two batches, so that full batches are cut into slices on two threads and
    /// the last batch, under two slices, is read on the caller's thread after them (the stores'
    /// tests end on a tail of several slices).
    static let rowCount = 2 * StoredRecordBatches.batchRows + StoredRecordBatches.sliceRows + 7

    static func documents(seed: UInt64) -> [(objectId: String, bytes: [UInt8])] {
        var random = RandomData(seed: seed)
        let records = random.database(items: 60, others: 6)["Item"]?.records ?? []
        return (0..<rowCount).map { i in
            var record = records[i % records.count]
            record.objectId = "r\(i)"
            // Names that change from row to row now and then, as the rows of a class do.
            if i % 97 == 0 { record.fields["extra\(i % 5)"] = .int(Int64(i)) }
            if i % 97 == 0 { record.fieldOrder.append("extra\(i % 5)") }
            var bytes: [UInt8] = []
            StoredRecordCodec.write(record, to: &bytes)
            return (record.objectId, bytes)
        }
    }

    static func decode(
        _ documents: [(objectId: String, bytes: [UInt8])], threads: Int, fields: Set<String>? = nil
    ) throws(Diagnostic) -> [Record] {
        let batches = StoredRecordBatches(fields: fields, corruption: code, threads: threads)
        for d in documents {
            try d.bytes.withUnsafeBufferPointer { (b) throws(Diagnostic) in
                try batches.append(objectId: d.objectId, document: b)
            }
        }
        return try batches.finish()
    }

    @Test(arguments: [nil, ["s", "extra1"]] as [Set<String>?])
    func threadsReadWhatOneRowAtATimeReads(fields: Set<String>?) throws {
        let documents = Self.documents(seed: 11)
        let names = StoredRecordReader.FieldNames()
        let expected = try documents.map { d in
            try d.bytes.withUnsafeBufferPointer {
                try StoredRecordReader.record(
                    $0, objectId: d.objectId, fields: fields, names: names, corruption: Self.code)
            }
        }
        for threads in [1, 2, 4] {
            let records = try Self.decode(documents, threads: threads, fields: fields)
            #expect(records.count == Self.rowCount)
            let firstDifference = records.indices.first { !ColumnRecordTests.identical(records[$0], expected[$0]) }
            #expect(firstDifference == nil, "\(threads) thread(s): row \(firstDifference ?? -1) differs")
        }
    }

    /// A reader dropped while a batch is in flight (its cursor failed) withdraws that batch:
    /// nothing hangs, and the scan threads decode the next answer as before.
    @Test func aDroppedReaderWithdrawsItsBatch() throws {
        let documents = Self.documents(seed: 13)
        for _ in 0..<3 {
            let abandoned = StoredRecordBatches(corruption: Self.code, threads: 2)
            for d in documents.prefix(StoredRecordBatches.batchRows + 10) {
                try d.bytes.withUnsafeBufferPointer { (b) throws(Diagnostic) in
                    try abandoned.append(objectId: d.objectId, document: b)
                }
            }
        }
        #expect(try Self.decode(documents, threads: 2).count == Self.rowCount)
    }

    /// Two damaged documents in different slices of one full batch (the third, rows 6,144 to
    /// 14,335: batches hold 2, 4, 8, then 16 slices), and one in a later batch: the error names
    /// the first.
    @Test func theFirstCorruptDocumentIsTheError() {
        var documents = Self.documents(seed: 12)
        let damaged = [
            StoredRecordBatches.sliceRows * 7 + 3, StoredRecordBatches.sliceRows * 11,
            StoredRecordBatches.batchRows + 1,
        ]
        for row in damaged { documents[row].bytes = Array(#"[["a",1]"#.utf8) }
        for threads in [1, 2] {
            #expect {
                try Self.decode(documents, threads: threads)
            } throws: { error in
                guard let d = error as? Diagnostic else { return false }
                return d.code == Self.code.rawValue && d.message.contains("r\(damaged[0]) ")
            }
        }
    }
}
