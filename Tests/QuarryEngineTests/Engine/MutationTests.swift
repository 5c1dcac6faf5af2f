import QuarryCore
import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// Inserts, replacements and deletes keep the store, its statistics-driven rewrites and every
/// kind of index in step with the data: after each change the engine still answers exactly
/// as the reference does on a database changed the same way.
@Suite struct MutationTests {
    /// A plan holds an array column's slices (`ElementSource`); were it still cached when its
    /// replica is written, each append would copy them whole. Cached plans go before a write
    /// (`Replica.enterWriting`), so a write between queries appends in place.
    @Test func aWriteBetweenQueriesAppendsInPlace() throws {
        let records = (0..<2000).map { i in record("t\(i)", ["tags": .array([.string(i % 2 == 0 ? "a" : "b")])]) }
        let engine = Engine(database: database(("T", records)), parallelism: .sequential)
        let query = Query(className: "T", predicate: compare("tags", .eq, "a", .sql))
        func insert(_ i: Int) { engine.insert(record("n\(i)", ["tags": .array([.string("a")])]), into: "T") }
        func starts() -> [UnsafeRawPointer?] {
            engine.replicas.replicas.map { r in
                (r.store.table("T")?.column("tags") as? ArrayColumn)?.starts.withUnsafeBufferPointer {
                    UnsafeRawPointer($0.baseAddress)
                }
            }
        }
        // Both replicas made and grown once past their loaded size.
        for i in 0..<4 {
            _ = try engine.run(query)
            insert(i)
        }
        let before = starts()
        #expect(before.count == 2)
        for i in 4..<12 {
            #expect(try engine.run(query).records.count == 1000 + i)
            insert(i)
        }
        #expect(starts() == before)
    }

    @Test(arguments: SoakSeeds.seeds([21, 22, 23], more: 1000))
    func changesInterleavedWithQueries(seed: UInt64) throws {
        var random = RandomData(seed: seed)
        var db = random.database(items: 30, others: 6)
        let engine = Engine(database: db, now: { 0 }, random: { 0.5 })
        // Paths through pointers (one and two steps, relations, back into Item) and pointer
        // values: their rows change when the objects they reach do.
        for key in [
            "i", "d", "s", "dt", "tags", "ptr", "ptr.name", "objectId", "rel", "rel.name", "ptr.owner.s", "ptr.n",
        ] as [FieldPath] {
            try engine.createIndex(random.chance(50) ? .hash : .ordered, on: key, in: "Item")
        }
        try engine.createIndex(.geo, on: "g", in: "Item")
        try engine.createIndex(.geo, on: "m", in: "Item")
        try engine.createIndex(.geo, on: "ptr.owner.g", in: "Item")
        try engine.createIndex(.hash, on: "name", in: "Other")
        try engine.createIndex(.ordered, on: "owner.s", in: "Other")
        try engine.createIndex(.hash, on: "owner", in: "Other")
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
                    var fields: [(String, Value)] = [
                        ("name", .string(random.pick(RandomData.strings))), ("n", .int(Int64(random.int(5)))),
                    ]
                    if random.chance(60) {
                        fields.append(("owner", .pointer(Pointer(className: "Item", objectId: "i\(random.int(40))"))))
                    }
                    let record = Record(objectId: id, fields: fields)
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
            for n in 0..<8 {
                var q = random.query(depth: 1)
                // Coordinate ranges on the geo-indexed key, which the grid may answer as a box.
                if n < 2 { q.predicate = .and(Self.coordinateRanges(&random) + [q.predicate]) }
                let expected = EngineAgreementTests.outcome { () throws(Diagnostic) in try reference.run(q) }
                let actual = EngineAgreementTests.outcome { () throws(Diagnostic) in try engine.run(q) }
                #expect(actual == expected, "step \(step): \(PredicateText.render(q.predicate))")
                if actual != expected { return }
            }
        }
    }

    static func coordinateRanges(_ random: inout RandomData) -> [Filter] {
        let s = random.semantics()
        let bounds: [Double] = [-97.74, -96, -95.36, -34, 0, 29.76, 30, 30.27, 151.2, .nan, 200]
        return (0..<(1 + random.int(2))).map { _ in
            let key: FieldPath = random.pick(["g.latitude", "g.longitude"])
            if random.chance(50) {
                return .leaf(
                    .between(
                        .key(key), lower: .literal(.double(random.pick(bounds))),
                        upper: .literal(.double(random.pick(bounds)))), s)
            }
            return .leaf(
                .compare(
                    .key(key), random.pick([.lt, .le, .gt, .ge, .eq]), .literal(.double(random.pick(bounds))), []), s)
        }
    }

    /// Bounds only widen as values go; on a key with an ordered index they stay exact.
    @Test func boundsStayExactWithAnOrderedIndex() throws {
        let records = (0..<100).map { record("r\($0)", ["x": .int(Int64($0)), "y": .int(Int64($0))]) }
        let engine = Engine(database: database(("T", records)))
        try engine.createIndex(.ordered, on: "x", in: "T")
        for i in 50..<100 { engine.delete("r\(i)", from: "T") }
        engine.insert(record("r0", ["x": 7, "y": 7]), into: "T")
        let x = try #require(engine.storage.statistics(of: "x", in: "T"))
        #expect(x.min == .int(1) && x.max == .int(49))
        let y = try #require(engine.storage.statistics(of: "y", in: "T"))
        #expect(y.min == .int(0) && y.max == .int(99))
        for i in 0..<50 { engine.delete("r\(i)", from: "T") }
        #expect(engine.storage.statistics(of: "x", in: "T")?.min == nil)
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
        // b2's pointer now dangles (still a pointer, with nothing behind it), then resolves
        // again when a2 comes back.
        #expect(engine.delete("a2", from: "A"))
        let throughIt = Query(className: "B", predicate: .leaf(.isNull(.key("a.n")), .predicate))
        let itself = Query(className: "B", predicate: compare("a", .eq, pointer("A", "a2"), .predicate))
        let isNull = Query(className: "B", predicate: .leaf(.isNull(.key("a")), .predicate))
        #expect(try engine.run(throughIt).objectIds == ["b2"])
        #expect(try engine.run(itself).objectIds == ["b2"])
        #expect(try engine.run(isNull).objectIds == [])
        engine.insert(record("a2", ["n": 2]), into: "A")
        #expect(try engine.run(throughIt).objectIds == [])
        #expect(try engine.run(itself).objectIds == ["b2"])
        #expect(try engine.run(Query(className: "B", predicate: compare("a.n", .eq, 2, .sql))).objectIds == ["b2"])
    }

    /// Arrays of pointers and relations are lists of rows of their class: they follow the
    /// target class's inserts and deletes (a dangling element stays a pointer).
    @Test func pointerListsFollowTheirTargets() throws {
        let db = database(
            ("A", [record("a1", ["n": 1]), record("a2", ["n": 2]), record("a3", ["n": 3])]),
            (
                "B",
                [
                    record("b1", ["as": .array([pointer("A", "a1"), pointer("A", "a3")])]),
                    record("b2", ["as": .relation(className: "A", objectIds: ["a2", "a4"])]),
                    record("b3", ["as": .array([])]),
                ]
            ))
        let engine = Engine(database: db)
        #expect(engine.store.table("B")?.column("as")?.kind == .pointerList(to: "A"))
        var current = db
        let inner = Query(className: "A", predicate: compare("n", .ge, 2, .document))
        let queries = [
            Query(className: "B", predicate: .leaf(.inQuery("as", inner), .document)),
            Query(className: "B", predicate: .leaf(.inQuery("as", inner), negated: true, .sql)),
            Query(className: "B", predicate: .leaf(.isNull(.key("as")), .sql)),
            Query(className: "B", predicate: .leaf(.arraySize(.key("as"), 2), .predicate)),
        ]
        func agree() throws {
            let reference = ReferenceEvaluator(database: current)
            for q in queries { #expect(try engine.run(q) == reference.run(q), "\(PredicateText.render(q.predicate))") }
        }
        try agree()
        for (change, apply) in [
            (
                "delete a3",
                { (db: inout Database, e: Engine) in
                    _ = db.remove("a3", from: "A"); e.delete("a3", from: "A")
                }
            ),
            (
                "insert a4",
                { (db: inout Database, e: Engine) in
                    let r = record("a4", ["n": 4]); db.insert(r, into: "A"); e.insert(r, into: "A")
                }
            ),
            (
                "delete a1",
                { (db: inout Database, e: Engine) in
                    _ = db.remove("a1", from: "A"); e.delete("a1", from: "A")
                }
            ),
            (
                "insert a3",
                { (db: inout Database, e: Engine) in
                    let r = record("a3", ["n": 0]); db.insert(r, into: "A"); e.insert(r, into: "A")
                }
            ),
        ] as [(String, (inout Database, Engine) -> Void)] {
            apply(&current, engine)
            try agree()
            _ = change
        }
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
