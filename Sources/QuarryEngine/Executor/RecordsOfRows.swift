import QuarryCore

extension ClassTable {
    /// The records of `rows`, in their order, built in chunks of an eighth of a morsel (1,024
    /// rows by default) shared out over the scan threads when there are at least two chunks
    /// and more than one thread (docs/ARCHITECTURE.md#result-sets). Each chunk's records go
    /// straight to their places in the result.
    func records(_ rows: [Int], parallelism: ScanParallelism) -> [Record] {
        let chunkRows = Swift.max(1, parallelism.morselRows / 8)
        let chunks = (rows.count + chunkRows - 1) / chunkRows
        guard parallelism.threads > 1, chunks >= 2 else { return rows.map(record) }
        return [Record](unsafeUninitializedCapacity: rows.count) { buffer, initialized in
            rows.withUnsafeBufferPointer { rows in
                let build = RecordBuild(table: self, rows: rows, chunkRows: chunkRows, into: buffer)
                let shared = SharedItems(chunks)
                ScanThreads.shared.run(helpers: Swift.min(parallelism.threads, chunks) - 1) {
                    while let chunk = shared.take() { build.chunk(chunk) }
                }
            }
            initialized = rows.count
        }
    }
}

/// One parallel build of records: each chunk is taken by one thread, which initializes its
/// slots of the result. The pointers are valid while `ScanThreads.run` runs.
private final class RecordBuild: @unchecked Sendable {
    private let table: ClassTable
    private let rows: UnsafeBufferPointer<Int>
    private let chunkRows: Int
    private let target: UnsafeMutableBufferPointer<Record>

    init(
        table: ClassTable, rows: UnsafeBufferPointer<Int>, chunkRows: Int,
        into target: UnsafeMutableBufferPointer<Record>
    ) {
        self.table = table
        self.rows = rows
        self.chunkRows = chunkRows
        self.target = target
    }

    func chunk(_ c: Int) {
        for i in c * chunkRows..<Swift.min(rows.count, (c + 1) * chunkRows) {
            (target.baseAddress! + i).initialize(to: table.record(rows[i]))
        }
    }
}
