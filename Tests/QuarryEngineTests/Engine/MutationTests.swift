import QuarryCore
import Testing

@testable import QuarryEngine

/// Inserts, replacements and deletes keep the store, its statistics-driven rewrites and every
/// kind of index in step with the data: after each change the engine still answers exactly
/// as the reference does on a database changed the same way.
@Suite struct MutationTests {
    @Test(arguments: [21, 22, 23] as [UInt64])
    func changesInterleavedWithQueries(seed: UInt64) throws {
        var random = RandomData(seed: seed)
        var db = random.database(items: 30, others: 6)
        let engine = Engine(database: db, now: { 0 }, random: { 0.5 })
        for key in ["i", "s", "tags", "ptr", "ptr.name"] as [KeyPath] {
            try engine.createIndex(random.chance(50) ? .hash : .ordered, on: key, in: "Item")
        }
        try engine.createIndex(.geo, on: "g", in: "Item")
        try engine.createIndex(.hash, on: "name", in: "Other")
        var next = 1000
        for step in 0..<120 {
            switch random.int(5) {
            case 0, 1:
                // A new object, or a new version of an existing one.
                let id = random.chance(50) ? "i\(random.int(40))" : "i\(next)"
                next += 1
                let fresh = random.database(items: 1, others: 0)["Item"]!.records[0]
                let record = Record(objectId: id, fields: fresh.fieldOrder.map { ($0, fresh.fields[$0]!) })
                db.insert(record, into: "Item")
                engine.insert(record, into: "Item")
            case 2:
                let id = "i\(random.int(40))"
                #expect(engine.delete(id, from: "Item") == (db.remove(id, from: "Item") != nil))
            case 3:
                // Pointer targets come and go: dangling pointers appear and resolve.
                let id = "o\(random.int(8))"
                if random.chance(50) {
                    let record = Record(objectId: id, fields: [("name", .string(random.pick(RandomData.strings))), ("n", .int(Int64(random.int(5))))])
                    db.insert(record, into: "Other")
                    engine.insert(record, into: "Other")
                } else {
                    #expect(engine.delete(id, from: "Other") == (db.remove(id, from: "Other") != nil))
                }
            default:
                break
            }
            #expect(engine.database["Item"]?.records == db["Item"]?.records)
            let reference = ReferenceEvaluator(database: db, now: { 0 }, random: { 0.5 })
            for _ in 0..<8 {
                let q = random.query(depth: 1)
                let expected = EngineAgreementTests.outcome { () throws(Diagnostic) in try reference.run(q) }
                let actual = EngineAgreementTests.outcome { () throws(Diagnostic) in try engine.run(q) }
                #expect(actual == expected, "step \(step): \(PredicateText.render(q.predicate))")
                if actual != expected { return }
            }
        }
    }

    @Test func deleteRenumbersRowsAndPointers() throws {
        let db = database(
            ("A", [record("a1", ["n": 1]), record("a2", ["n": 2]), record("a3", ["n": 3])]),
            ("B", [record("b1", ["a": pointer("A", "a3")]), record("b2", ["a": pointer("A", "a2")])]))
        let engine = Engine(database: db)
        try engine.createIndex(.hash, on: "n", in: "A")
        #expect(engine.delete("a1", from: "A"))
        #expect(!engine.delete("a1", from: "A"))
        let byPath = Query(className: "B", predicate: compare("a.n", .eq, 3, .sql))
        #expect(try engine.run(byPath).objectIds == ["b1"])
        #expect(try engine.run(Query(className: "A", predicate: compare("n", .eq, 3, .sql))).objectIds == ["a3"])
        // b2's pointer now dangles, then resolves again when a2 comes back.
        #expect(engine.delete("a2", from: "A"))
        let isNull = Query(className: "B", predicate: .leaf(.isNull(.key("a")), .predicate))
        #expect(try engine.run(isNull).objectIds == ["b2"])
        engine.insert(record("a2", ["n": 2]), into: "A")
        #expect(try engine.run(isNull).objectIds == [])
        #expect(try engine.run(Query(className: "B", predicate: compare("a.n", .eq, 2, .sql))).objectIds == ["b2"])
    }

    @Test func columnsChangeTypeWhenValuesStopFitting() throws {
        var records = (0..<100).map { record("r\($0)", ["x": .int(Int64($0))]) }
        let engine = Engine(database: database(("T", records)))
        for i in 0..<100 where i % 2 == 0 {
            let r = record("r\(i)", ["x": .string("s\(i)")])
            engine.insert(r, into: "T")
            records[i] = r
        }
        let reference = ReferenceEvaluator(database: database(("T", records)))
        for q in [compare("x", .gt, 50, .sql), compare("x", .ge, "s5", .document), compare("x", .ne, 3, .predicate)] {
            let query = Query(className: "T", predicate: q)
            #expect(try engine.run(query) == reference.run(query))
        }
    }
}
