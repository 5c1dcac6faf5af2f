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

    static let indexes: [(IndexKind, FieldPath, String)] = [
        (.ordered, "i", "Item"), (.ordered, "d", "Item"), (.hash, "s", "Item"), (.ordered, "s", "Item"),
        (.ordered, "tags", "Item"), (.hash, "ptr.name", "Item"), (.ordered, "ptr", "Item"), (.geo, "g", "Item"),
        (.hash, "name", "Other"),
    ]

    static func indexed(_ store: ColumnStore) -> ColumnStore {
        for (kind, path, className) in indexes { store.createIndex(kind, on: path, in: className) }
        return store
    }

    /// What each index of `indexes` finds, by objectId: an ordered index's entries in order, a
    /// hash index's rows for each value the data holds, a geo index's points in the world.
    /// (Type bits only widen, so a changed store's may exceed a fresh one's: not compared.)
    static func indexContents(_ store: ColumnStore, _ db: Database) -> [String] {
        var out: [String] = []
        for (kind, path, className) in indexes {
            guard let table = store.table(className) else { continue }
            let id = { (row: Int32) in table.objectIds.string(at: Int(row)) }
            if kind == .geo, let index = store.geoIndex(className, path) {
                let world = LatLonBox(south: -.infinity, west: -.infinity, north: .infinity, east: .infinity)
                out.append("\(path) geo \(index.rows(in: world).map(id)) irregular \(index.irregularRows)")
            }
            for index in store.valueIndexes(className, path) where index.kind == kind {
                out.append("\(path) \(kind) nil \(index.nilRows.map(id))")
                if kind == .ordered {
                    out.append("\(zip(index.keys, index.rows.map(id)).map { "\($0)=\($1)" })")
                } else {
                    let values = Set(
                        (db[className]?.records ?? []).compactMap { $0[path.first] }.flatMap { v -> [Value] in
                            if case .array(let items) = v { return items } else { return [v] }
                        }.map { "\($0)" })
                    for v in values.sorted() {
                        let value = (db[className]?.records ?? []).lazy.compactMap { $0[path.first] }.first {
                            "\($0)" == v
                        }
                        if let value { out.append("\(v): \(index.rows(equalTo: [value]).map(id))") }
                    }
                }
            }
        }
        return out
    }

    /// A copy takes the original's indexes with their storage shared (`ColumnStore.copy`,
    /// and a replica replaying an index's creation): after changes to the copy, its indexes
    /// are those of a store built with the changes, and the original's are as they were.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func aCopysIndexesChangeApartFromTheOriginals(seed: UInt64) {
        var random = RandomData(seed: seed)
        var db = random.database(items: 120, others: 12)
        let base = Self.indexed(ColumnStore(database: db))
        Self.apply(Self.changes(&random, &db, count: 30), to: base)
        let before = db
        let copy = base.copy()
        let later = Self.changes(&random, &db, count: 80)
        Self.apply(later, to: copy)
        #expect(Self.indexContents(copy, db) == Self.indexContents(Self.indexed(ColumnStore(database: db)), db))
        #expect(
            Self.indexContents(base, before) == Self.indexContents(Self.indexed(ColumnStore(database: before)), before))
        // The same through `createIndex(copying:)`: indexes declared on a bare copy.
        let bare = ColumnStore(database: before)
        let other = bare.copy()
        for (kind, path, className) in Self.indexes {
            bare.createIndex(kind, on: path, in: className)
            #expect(other.createIndex(kind, on: path, in: className, copying: bare))
        }
        #expect(!other.createIndex(.hash, on: "b", in: "Item", copying: bare))
        Self.apply(later, to: other)
        #expect(Self.indexContents(other, db) == Self.indexContents(Self.indexed(ColumnStore(database: db)), db))
        #expect(
            Self.indexContents(bare, before) == Self.indexContents(Self.indexed(ColumnStore(database: before)), before))
    }

    /// Indexes declared together (`ColumnStore.createIndexes`, built side by side on several
    /// threads) are those declared one after another, a repeated one declared once.
    @Test(arguments: [1, 2] as [UInt64])
    func indexesBuiltTogetherAreThoseBuiltInTurn(seed: UInt64) {
        var random = RandomData(seed: seed)
        var db = random.database(items: 150, others: 12)
        let store = ColumnStore(database: db)
        Self.apply(Self.changes(&random, &db, count: 40), to: store)  // deleted rows among them
        let together = store.copy()
        together.createIndexes(
            Self.indexes.map { (kind: $0.0, path: $0.1, className: $0.2) } + [(.ordered, "i", "Item")], threads: 4)
        #expect(Self.indexContents(together, db) == Self.indexContents(Self.indexed(store), db))
        #expect(together.valueIndexes("Item", "i").count == 1)
        #expect(together.version == store.version)
    }

    /// `Engine.createIndexes` is one change, refused whole when a key is refused.
    @Test func anEnginesIndexesDeclaredTogetherAreRefusedWhole() throws {
        var random = RandomData(seed: 3)
        let engine = Engine(database: random.database(items: 40, others: 4))
        #expect(throws: Diagnostic.self) {
            try engine.createIndexes([(.ordered, "i"), (.hash, "nope")], in: "Item")
        }
        #expect(engine.replicas.read { $0.store.valueIndexes("Item", "i") }.isEmpty)
        #expect(engine.indexProblem("nope", in: "Item")?.code == "index.unknown-field")
        #expect(engine.indexProblem("i", in: "Item") == nil)
        try engine.createIndexes([(.ordered, "i"), (.geo, "g"), (.hash, "ptr.name")], in: "Item")
        _ = engine.replicas.write([.refreshStatistics("Item")])  // the other replica replays them
        for replica in engine.replicas.replicas {
            #expect(replica.store.valueIndexes("Item", "i").count == 1)
            #expect(replica.store.geoIndex("Item", "g") != nil)
        }
    }

    /// The writer applies each batch to one replica, then replays it on the other
    /// (`Replica.replay`), copying an index the batch created from the replica that built it
    /// only when no save or delete follows in the batch: after one, the index built first
    /// holds what came later, and the replay must build its own.
    @Test(arguments: [false, true])
    func aReplayCopiesOnlyIndexesNoChangeFollowed(changesFollow: Bool) {
        var random = RandomData(seed: changesFollow ? 11 : 12)
        var db = random.database(items: 80, others: 8)
        let engine = Engine(database: db)
        _ = engine.replicas.write([.refreshStatistics("Item")])  // both replicas made
        var batch: [Change] = Self.indexes.filter { $0.0 == .ordered }.map { .createIndex($0.0, $0.1, in: $0.2) }
        let changes = Self.changes(&random, &db, count: 25).map { record, objectId, className -> Change in
            record.map { .save($0, in: className) } ?? .delete(objectId: objectId, from: className)
        }
        batch = changesFollow ? batch + changes : changes + batch
        batch += Self.indexes.filter { $0.0 != .ordered }.map { .createIndex($0.0, $0.1, in: $0.2) }
        _ = engine.replicas.write(batch)
        _ = engine.replicas.write([.refreshStatistics("Item")])  // the batch replayed
        let expected = Self.indexContents(Self.indexed(ColumnStore(database: db)), db)
        let replicas = engine.replicas.replicas
        #expect(replicas.count == 2)
        for (n, replica) in replicas.enumerated() {
            #expect(Self.indexContents(replica.store, db) == expected, "replica \(n)")
        }
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
