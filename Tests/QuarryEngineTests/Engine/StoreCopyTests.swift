import QuarryCore
import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// `ColumnStore.copy`: the second replica shares the columns' arrays until one side writes
/// (docs/ARCHITECTURE.md#concurrency). Each side must then see its own changes only, and a
/// copy that was changed must equal a store built from scratch with the same changes.
@Suite struct StoreCopyTests {
    /// Every class of `store`, record for record, is `db`'s.
    static func expectSame(_ store: ColumnStore, _ db: Database, _ context: Comment) {
        let snapshot = store.snapshot()
        for name in db.classNames {
            let mine = snapshot[name]?.records ?? [], theirs = db[name]?.records ?? []
            #expect(mine.count == theirs.count, context)
            for (m, t) in zip(mine, theirs) where !ColumnRecordTests.identical(m, t) {
                Issue.record("\(context) \(name).\(t.objectId): \(m), expected \(t)")
                return
            }
        }
    }

    /// Random inserts (some arriving for dangling pointers), replaces and deletes, applied to a
    /// store and to the records alike.
    static func changes(_ random: inout RandomData, _ db: inout Database, count: Int) -> [(Record?, String, String)] {
        let fresh = random.database(items: count, others: count / 4)
        var out: [(Record?, String, String)] = []
        for _ in 0..<count {
            let className = random.chance(70) ? "Item" : "Other"
            let pool = fresh[className]?.records ?? []
            if random.chance(20), let victim = db[className]?.records.randomElement(using: &random.rng) {
                out.append((nil, victim.objectId, className))
            } else if var record = pool.randomElement(using: &random.rng) {
                // A new object, the replacement of a stored one, or one a dangling pointer names.
                let prefix = className == "Item" ? "i" : "o"
                record = Record(
                    objectId: prefix + String(random.int(random.chance(50) ? 400 : 40)),
                    fields: record.fieldOrder.map {
                        ($0, record.fields[$0]!)
                    })
                out.append((record, record.objectId, className))
            }
        }
        for (record, objectId, className) in out {
            if let record { db.insert(record, into: className) } else { db.remove(objectId, from: className) }
        }
        return out
    }

    static func apply(_ changes: [(Record?, String, String)], to store: ColumnStore) {
        for (record, objectId, className) in changes {
            if let record { store.insert(record, into: className) } else { _ = store.remove(objectId, from: className) }
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func aChangedCopyIsAFreshStoreAndTheOriginalIsUntouched(seed: UInt64) {
        var random = RandomData(seed: seed)
        var db = random.database(items: 120, others: 12)
        let base = ColumnStore(database: db)
        Self.apply(Self.changes(&random, &db, count: 30), to: base)  // deleted rows, replaced fields
        let before = db
        let copy = base.copy()
        Self.expectSame(copy, before, "copy of seed \(seed)")
        let later = Self.changes(&random, &db, count: 80)
        Self.apply(later, to: copy)
        Self.expectSame(copy, db, "changed copy of seed \(seed)")
        Self.expectSame(base, before, "original of seed \(seed) after its copy changed")
        Self.apply(later, to: base)
        Self.expectSame(base, db, "original of seed \(seed) changed after its copy")
    }

    /// Pointers in a copy resolve in the copy: an object that arrives in the copy for a
    /// dangling pointer is reached through that pointer there, and not in the original.
    @Test func pointersResolveWithinTheirOwnCopy() throws {
        var db = Database()
        db.insert(
            Record(objectId: "p1", fields: [("city", .pointer(Pointer(className: "City", objectId: "c1")))]), into: "P")
        db.insert(Record(objectId: "c0", fields: [("name", .string("Zero"))]), into: "City")
        let base = ColumnStore(database: db)
        let copy = base.copy()
        copy.insert(Record(objectId: "c1", fields: [("name", .string("One"))]), into: "City")
        #expect(copy.resolve(Pointer(className: "City", objectId: "c1"))?.fields["name"] == .string("One"))
        #expect(base.resolve(Pointer(className: "City", objectId: "c1")) == nil)
        let column = try #require(copy.table("P")?.columns["city"] as? PointerColumn)
        let baseColumn = try #require(base.table("P")?.columns["city"] as? PointerColumn)
        #expect(column.rows == [1] && column.danglingCount == 0)
        #expect(baseColumn.rows == [PointerColumn.dangling] && baseColumn.danglingCount == 1)
    }
}
