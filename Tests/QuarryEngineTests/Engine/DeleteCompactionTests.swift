import QuarryCore
import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// Deletes leave empty rows that scans skip, and a class whose deleted rows outnumber its
/// objects is compacted (docs/STORAGE.md#deletes): before and after, with indexes and with
/// pointers into the class, the engine answers as the reference does.
@Suite struct DeleteCompactionTests {
    static func agree(
        _ engine: Engine, _ db: Database, _ random: inout RandomData, _ what: String
    ) {
        let reference = ReferenceEvaluator(database: db, now: { 0 }, random: { 0.5 })
        for _ in 0..<40 {
            let q = random.query(depth: 2)
            let expected = EngineAgreementTests.outcome { () throws(Diagnostic) in try reference.run(q) }
            let actual = EngineAgreementTests.outcome { () throws(Diagnostic) in try engine.run(q) }
            #expect(actual == expected, "\(what): \(PredicateText.render(q.predicate))")
            if actual != expected { return }
        }
    }

    @Test(arguments: [31, 32] as [UInt64])
    func manyDeletesThenCompaction(seed: UInt64) throws {
        var random = RandomData(seed: seed)
        let items = ColumnStore.compactionFloor * 2 + 400
        var db = random.database(items: items, others: 40)
        let engine = Engine(database: db, now: { 0 }, random: { 0.5 })
        for key in ["i", "s", "ptr.name", "tags"] as [FieldPath] {
            try engine.createIndex(.ordered, on: key, in: "Item")
        }
        try engine.createIndex(.hash, on: "d", in: "Item")
        try engine.createIndex(.geo, on: "g", in: "Item")
        try engine.createIndex(.hash, on: "owner", in: "Other")
        let ids = db["Item"]!.records.map(\.objectId).shuffled(using: &random.rng)
        // Below the floor: deleted rows stay, empty.
        for id in ids.prefix(ColumnStore.compactionFloor - 1) {
            #expect(engine.delete(id, from: "Item") == (db.remove(id, from: "Item") != nil))
        }
        #expect(engine.store.table("Item")?.deletedCount == ColumnStore.compactionFloor - 1)
        Self.agree(engine, db, &random, "with deleted rows")
        // A few objects come back (new rows), then enough deletes to compact.
        for id in ids.prefix(20) {
            let record = Record(objectId: id, fields: [("i", .int(Int64(random.int(9)))), ("s", "back")])
            db.insert(record, into: "Item")
            engine.insert(record, into: "Item")
        }
        for id in ids.dropFirst(ColumnStore.compactionFloor - 1).prefix(items / 2) {
            #expect(engine.delete(id, from: "Item") == (db.remove(id, from: "Item") != nil))
        }
        let table = try #require(engine.store.table("Item"))
        #expect(table.deletedCount < ColumnStore.compactionFloor)
        #expect(table.liveCount == db["Item"]!.records.count)
        #expect(engine.database["Item"]?.records == db["Item"]?.records)
        #expect(engine.database["Other"]?.records == db["Other"]?.records)
        Self.agree(engine, db, &random, "after compaction")
    }
}
