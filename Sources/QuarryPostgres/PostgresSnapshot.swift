import NIOCore
import PostgresNIO
import Quarry

/// The store's objects as one read transaction sees them (`StoredObjects`), for the
/// reference machinery that finishes a pushed-down query.
final class PostgresSnapshot: StoredObjects {
    let session: PostgresSession
    let catalog: PostgresCatalog
    /// Threads that decode a large answer's documents.
    let threads: Int
    private var resolved: [Pointer: Record?] = [:]

    init(session: PostgresSession, catalog: PostgresCatalog, threads: Int) {
        self.session = session
        self.catalog = catalog
        self.threads = threads
    }

    func hasClass(_ className: String) -> Bool { catalog.classes[className] != nil }

    func object(_ p: Pointer) throws(Diagnostic) -> Record? {
        if let r = resolved[p] { return r }
        guard let c = catalog.classes[p.className], !p.objectId.utf8.contains(0) else { return nil }
        let record = try startRecords(
            "SELECT objectid, raw FROM \(c.table) WHERE objectid = $1::text", [p.objectId], prepared: true
        ).finish().first
        if resolved.count < 100_000 { resolved[p] = record }
        return record
    }

    func objects(in className: String) throws(Diagnostic) -> [Record] {
        guard let c = catalog.classes[className] else { return [] }
        return try records("SELECT objectid, raw FROM \(c.table) ORDER BY seq", [])
    }

    func count(of className: String) throws(Diagnostic) -> Int {
        guard let c = catalog.classes[className] else { return 0 }
        return try storeCall {
            Int(try session.rows("SELECT count(*)::text FROM \(c.table)").first?.text(0) ?? "") ?? 0
        }
    }

    /// Rows of `objectid, raw` decoded as records; a large answer is decoded on several threads
    /// (docs/STORAGE.md#reading-rows).
    func records(_ sql: String, _ binds: [String?]) throws(Diagnostic) -> [Record] {
        try startRecords(sql, binds).finish()
    }

    /// `records` without waiting: the statement is sent, its rows are decoded as they arrive,
    /// and `finish` waits for the last. A query's statement (`PostgresPushdown`) has a third
    /// column, the catalog version, kept from its first row as `PendingRecords.version`; with
    /// `alone`, the statement runs outside the read's transaction, and with `prepared`, it is
    /// one the store sends again and again (`PostgresSession.startEach`). With `marked`, a
    /// fourth column says which rows Quarry must test a narrowed conjunct on
    /// (`PendingRecords.undecidedRows`).
    func startRecords(
        _ sql: String, _ binds: [String?], versioned: Bool = false, marked: Bool = false, alone: Bool = false,
        prepared: Bool = false
    ) -> PendingRecords {
        let batches = Batches(StoredRecordBatches(corruption: .store.postgresCorrupt, threads: threads))
        let done = session.startEach(sql, binds, alone: alone, prepared: prepared) { row in
            // The rows after the first failure are let through: an error thrown here would
            // cancel the query, and PostgresNIO would report the cancellation instead.
            guard batches.failure == nil else { return }
            do {
                // The cells are read in place: no array of cells and no `String` of the document
                // per row, on the event loop that every row passes through
                // (docs/STORAGE.md#reading-rows).
                var cells = row.makeIterator()
                guard let id = cells.next(), let raw = cells.next() else {
                    throw Diagnostic(.store.postgresCorrupt, "a row of the answer has fewer than two columns")
                }
                if versioned {
                    let version = cells.next()
                    if batches.version == nil { batches.version = try version?.decode(String?.self) ?? "" }
                }
                if marked {
                    if cells.next()?.isFalse != true { batches.undecidedRows.append(batches.count) }
                    batches.count += 1
                }
                let objectId = try id.decode(String?.self) ?? ""
                try raw.withText { try batches.rows.append(objectId: objectId, document: $0) }
            } catch {
                batches.failure = error
            }
        }
        return PendingRecords(batches: batches, done: done)
    }

    /// A statement's rows on their way; `finish` waits for the last and returns the records.
    struct PendingRecords {
        fileprivate let batches: Batches
        let done: EventLoopFuture<Void>

        func finish() throws(Diagnostic) -> [Record] {
            try storeCall {
                _ = try done.wait()
                if let failure = batches.failure { throw failure }
            }
            return try batches.rows.finish()
        }

        /// The catalog version in the first row (nil for no row), once `done` has completed.
        var version: Int64? { batches.version.map { Int64($0) ?? -1 } }
        /// With `marked`, the ascending positions of the rows whose fourth column was not FALSE,
        /// once `done` has completed.
        var undecidedRows: [Int] { batches.undecidedRows }
    }

    /// The answer's rows as they arrive on the connection's event loop, read by the waiting
    /// thread once the query's future completes (which orders the two).
    fileprivate final class Batches: @unchecked Sendable {
        let rows: StoredRecordBatches
        /// The first row that could not be read, and why.
        var failure: (any Error)?
        var version: String?
        /// Rows read so far, and the positions of those marked undecided (`marked`).
        var count = 0
        var undecidedRows: [Int] = []
        init(_ rows: StoredRecordBatches) { self.rows = rows }
    }
}

extension PostgresCell {
    /// Whether the cell is a boolean FALSE, in the binary (a zero byte) or the text format (`f`).
    var isFalse: Bool {
        guard let bytes, let first = bytes.getInteger(at: bytes.readerIndex, as: UInt8.self) else { return false }
        return first == 0 || first == UInt8(ascii: "f")
    }

    /// The UTF-8 bytes of a text column, in place; any other type is decoded as a `String` first.
    /// A NULL is the empty text, as `decode(String?.self) ?? ""` reads it.
    func withText<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) throws -> T {
        guard dataType == .text || dataType == .varchar else {
            var text = try decode(String?.self) ?? ""
            return try text.withUTF8(body)
        }
        guard let bytes else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try bytes.withUnsafeReadableBytes { try body($0.assumingMemoryBound(to: UInt8.self)) }
    }
}
