import Foundation
import Quarry
import QuarrySQLite
import Testing

/// A class with more fields than a SQLite table has columns (docs/STORAGE.md#tables): the
/// fields past the table's columns live in the document only, their tests are left to Quarry,
/// and the store answers as the reference evaluator does, before and after it is reopened and
/// after objects are replaced and deleted.
@Suite struct WideClassTests {
    /// 1,200 objects, each with `n` and a field of its own: 1,201 fields, past the 997 a table
    /// of 2,000 columns holds.
    static func database() -> Database {
        let records = (0..<1_200).map { i in
            Record(objectId: "w\(i)", fields: [("n", .int(Int64(i % 10))), ("f\(i)", .int(Int64(i)))])
        }
        return Database([ClassData(name: "Wide", records: records)])
    }

    static let queries: [Filter] = [
        .leaf(.compare(.key("f5"), .eq, .literal(.int(5)), []), .sql),
        .leaf(.compare(.key("f1100"), .eq, .literal(.int(1100)), []), .sql),
        .or([
            .leaf(.compare(.key("f1199"), .gt, .literal(.int(0)), []), .sql),
            .leaf(.compare(.key("f3"), .lt, .literal(.int(4)), []), .sql),
        ]),
        .and([
            .leaf(.compare(.key("n"), .eq, .literal(.int(7)), []), .sql),
            .leaf(.compare(.key("f1057"), .ne, .literal(.int(0)), []), .sql),
        ]),
        .leaf(.isNull(.key("f1150")), .sql),
    ]

    static func expectAgreement(_ store: SQLiteStore, _ db: Database, _ context: Comment) throws {
        let reference = ReferenceEvaluator(database: db)
        for predicate in queries {
            for order: [SortKey] in [[], [.key("f1180", .descending)]] {
                let q = Query(className: "Wide", predicate: predicate, order: order)
                #expect(try store.query(q) == reference.run(q), "\(context): \(predicate) \(order)")
            }
        }
    }

    @Test func fieldsPastTheColumnsLiveInTheDocument() async throws {
        let file = StoreFile()
        var db = Self.database()
        do {
            let store = try file.open()
            try store.save(db)
            try Self.expectAgreement(store, db, "written")
            // A field past the columns is residual, with the reason; one within them is pushed.
            let past = try await store.explain(Query(className: "Wide", predicate: Self.queries[1]), variables: [:])
            #expect(past.residual.contains { $0.reason.contains("lives in the document only") }, "\(past.residual)")
            let within = try await store.explain(Query(className: "Wide", predicate: Self.queries[0]), variables: [:])
            #expect(within.residual.isEmpty)
            do {
                try store.declareIndex(.ordered, on: "f1100", in: "Wide")
                Issue.record("a document-only field was indexed")
            } catch {
                #expect(error.code == "index.invalid-key")
                #expect(error.message.hasPrefix("'f1100' of class 'Wide' cannot be indexed in a SQLite store"))
            }
        }
        // Reopened: the catalog read back; replacements (in place) and deletes, then new fields.
        let store = try file.open()
        try Self.expectAgreement(store, db, "reopened")
        var changes: [StoreChange] = []
        for i in stride(from: 0, to: 1_200, by: 7) {
            let r = Record(objectId: "w\(i)", fields: [("f\(1_199 - i)", .int(-1)), ("n", .int(7))])
            changes.append(.save(r, in: "Wide"))
            db.insert(r, into: "Wide")
        }
        for i in stride(from: 3, to: 1_200, by: 11) {
            changes.append(.delete(objectId: "w\(i)", from: "Wide"))
            _ = db.remove("w\(i)", from: "Wide")
        }
        let added = Record(objectId: "new", fields: [("brand", .string("x")), ("f1150", .null)])
        changes.append(.save(added, in: "Wide"))
        db.insert(added, into: "Wide")
        try store.apply(changes)
        try Self.expectAgreement(store, db, "changed")
        let all = Query(className: "Wide")
        #expect(try store.query(all) == ReferenceEvaluator(database: db).run(all))
    }
}
