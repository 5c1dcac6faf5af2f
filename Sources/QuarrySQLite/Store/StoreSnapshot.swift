import GRDB
import Quarry
import QuarryCore

/// The store's objects as one read transaction sees them (`StoredObjects`), for the
/// reference machinery that finishes a pushed-down query.
final class StoreSnapshot: StoredObjects {
    let db: ReaderConnection
    let catalog: StoreCatalog
    let statements: StatementCache
    private var resolved: [Pointer: QuarryCore.Record?] = [:]

    /// Threads that decode a large answer's documents.
    let threads: Int

    init(db: ReaderConnection, catalog: StoreCatalog, statements: StatementCache, threads: Int) {
        self.db = db
        self.catalog = catalog
        self.statements = statements
        self.threads = threads
    }

    func hasClass(_ className: String) -> Bool { catalog.classes[className] != nil }

    func object(_ p: Pointer) throws(Diagnostic) -> QuarryCore.Record? {
        if let r = resolved[p] { return r }
        guard let c = catalog.classes[p.className] else { return nil }
        var record: QuarryCore.Record?
        try storeCall {
            try statements.each(db, "SELECT doc FROM \(c.table) WHERE objectId = ?1", [.text(p.objectId)]) { row in
                record = try row.withUTF8(0) {
                    try StoredRecordReader.record($0, objectId: p.objectId, corruption: .store.corrupt)
                }
            }
        }
        if resolved.count < 100_000 { resolved[p] = record }
        return record
    }

    func objects(in className: String) throws(Diagnostic) -> [QuarryCore.Record] {
        guard let c = catalog.classes[className] else { return [] }
        return try records("SELECT objectId, doc FROM \(c.table) ORDER BY seq", [])
    }

    func count(of className: String) throws(Diagnostic) -> Int {
        guard let c = catalog.classes[className] else { return 0 }
        var n = 0
        try storeCall { try statements.each(db, "SELECT count(*) FROM \(c.table)") { n = Int($0.int64(0)) } }
        return n
    }

    /// At least the number of objects of a class, read from the B-tree's last key instead of
    /// counting a million rows: `seq` is the rowid, positive and distinct, so there are no more
    /// objects than the largest. What an inner query's bound needs (docs/STORAGE.md#inner-queries).
    func countBound(of className: String) throws(Diagnostic) -> Int {
        guard let c = catalog.classes[className] else { return 0 }
        var n = 0
        try storeCall {
            try statements.each(db, "SELECT coalesce(max(seq), 0) FROM \(c.table)") { n = Int($0.int64(0)) }
        }
        return n
    }

    /// Rows of `objectId, doc` decoded as records, each with only the `fields` named when
    /// given; a large answer is decoded on several threads (docs/STORAGE.md#reading-rows).
    func records(
        _ sql: String, _ bindings: [SQLiteBinding?], fields: Set<String>? = nil
    ) throws(Diagnostic) -> [QuarryCore.Record] {
        try records(sql, bindings, fields: fields, noted: false).records
    }

    /// Rows of `objectId, doc`, and with `noted` a third column, nonzero on the rows
    /// `quarry_regexp_undecided()` marked: the records and the positions of the marked rows.
    func records(
        _ sql: String, _ bindings: [SQLiteBinding?], fields: Set<String>?, noted: Bool
    ) throws(Diagnostic) -> (records: [QuarryCore.Record], marked: [Int]) {
        let batches = StoredRecordBatches(fields: fields, corruption: .store.corrupt, threads: threads)
        var marked: [Int] = []
        var position = 0
        try storeCall {
            try statements.each(db, sql, bindings) { row in
                let objectId = row.string(0)
                try row.withUTF8(1) { doc in try batches.append(objectId: objectId, document: doc) }
                if noted, row.int64(2) != 0 { marked.append(position) }
                position += 1
            }
        }
        return (try batches.finish(), marked)
    }
}

/// Runs store work, reporting any failure as a `Diagnostic` (`store.sqlite` for SQLite's).
func storeCall<T>(_ body: () throws -> T) throws(Diagnostic) -> T {
    do {
        return try body()
    } catch {
        throw storeDiagnostic(error)
    }
}

func storeDiagnostic(_ error: any Error) -> Diagnostic {
    switch error {
    case let d as Diagnostic: return d
    case let e as SQLiteError: return Diagnostic(.store.sqlite, "SQLite failed: \(e.message) (code \(e.code))")
    case let e as DatabaseError:
        return Diagnostic(
            .store.sqlite, "SQLite failed: \(e.message ?? "\(e.resultCode)") (code \(e.resultCode.rawValue))")
    default: return Diagnostic(.store.sqlite, "the store failed: \(error)")
    }
}
