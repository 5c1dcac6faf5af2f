import QuarryCore
import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// The engine keeps its data only in columns: every object reads back from them exactly as it
/// was stored (same cases, same bits, same field order), before and after changes.
@Suite struct ColumnRecordTests {
    /// Exact sameness: `int` is not `double`, -0.0 is not 0.0, NaN is NaN, order of fields kept.
    static func identical(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)), (.date(let x), .date(let y)): return x == y
        case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        case (.string(let x), .string(let y)): return x.utf8.elementsEqual(y.utf8)
        case (.bytes(let x), .bytes(let y)): return x == y
        case (.geoPoint(let x), .geoPoint(let y)):
            return x.latitude.bitPattern == y.latitude.bitPattern && x.longitude.bitPattern == y.longitude.bitPattern
        case (.polygon(let x), .polygon(let y)): return x == y
        case (.pointer(let x), .pointer(let y)): return x == y
        case (.relation(let cx, let ix), .relation(let cy, let iy)): return cx == cy && ix == iy
        case (.file(let x), .file(let y)): return x == y
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(identical)
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { k, v in y[k].map { identical(v, $0) } ?? false }
        default: return false
        }
    }

    static func identical(_ a: Record, _ b: Record) -> Bool {
        a.objectId == b.objectId && a.fieldOrder == b.fieldOrder
            && a.fieldOrder.allSatisfy { name in identical(a.fields[name] ?? .null, b.fields[name] ?? .null) }
    }

    /// Every class of the engine's data is the database's, record for record.
    static func expectSame(_ engine: Engine, _ db: Database, _ context: Comment = "") {
        let snapshot = engine.database
        #expect(snapshot.classNames.filter { db[$0] != nil } == db.classNames, context)
        for name in db.classNames {
            let mine = snapshot[name]?.records ?? [], theirs = db[name]?.records ?? []
            #expect(mine.count == theirs.count, context)
            for (m, t) in zip(mine, theirs) where !identical(m, t) {
                Issue.record("\(context) \(name).\(t.objectId): read back \(m), stored \(t)")
                return
            }
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func randomDataReadsBackExactly(seed: UInt64) {
        var random = RandomData(seed: seed)
        let db = random.database(items: 80, others: 8)
        Self.expectSame(Engine(database: db), db)
    }

    /// Values no column stores typed, and values beside a column's type, are kept in the column.
    @Test func otherAndGenericValuesReadBackExactly() {
        let odd: [Value] = [
            .object(["a": .int(1), "b": .array([.string("x"), .null])]),
            .bytes([0, 255, 7]),
            .polygon([GeoPoint(latitude: 1, longitude: 2), GeoPoint(latitude: 3, longitude: 4)]),
            .file(FileRef(name: "f.txt", url: "https://x/f.txt")),
            .relation(className: "B", objectIds: ["b1", "nope"]),
            .array([.int(1), .double(1.5), .null, .array([.bool(true)])]),
        ]
        var records = (0..<100).map { i in record("n\(i)", ["x": .int(Int64(i)), "d": .double(Double(i) + 0.5)]) }
        // A few odd values among typed ones: the columns stay typed, the odd rows are `other`.
        for (i, v) in odd.enumerated() { records.append(record("o\(i)", ["x": v, "d": .int(Int64(i))])) }
        records.append(record("z", ["x": .double(-0.0), "d": .double(.nan), "g": .object([:])]))
        let db = database(("A", records), ("B", [record("b1")]))
        let engine = Engine(database: db)
        // Ints and a double: a double column whose ints read back as ints.
        #expect(engine.store.table("A")?.column("x")?.kind == .double)
        #expect(engine.store.table("A")?.column("d")?.kind == .double)
        #expect(engine.store.table("A")?.column("g")?.kind == .generic)
        Self.expectSame(engine, db)
    }

    @Test func pointersRelationsAndDanglingReadBackExactly() {
        let db = database(
            ("A", [record("a1", ["n": 1]), record("a2", ["n": 2])]),
            (
                "B",
                [
                    record(
                        "b1",
                        [
                            "p": pointer("A", "a2"), "ps": .array([pointer("A", "a1"), pointer("A", "gone")]),
                            "r": .relation(className: "A", objectIds: ["a1", "a2"]),
                        ]),
                    record(
                        "b2",
                        ["p": pointer("A", "gone"), "ps": .array([]), "r": .relation(className: "A", objectIds: [])]),
                    record("b3", ["p": .string("b1"), "ps": .relation(className: "A", objectIds: ["a2"]), "r": .null]),
                    record("b4", ["p": .null]),
                ] + (5..<30).map { record("b\($0)", ["p": pointer("A", "a1")]) }
            ))
        let engine = Engine(database: db)
        #expect(engine.store.table("B")?.column("p")?.kind == .pointer(to: "A"))
        #expect(engine.store.table("B")?.column("ps")?.kind == .pointerList(to: "A"))
        Self.expectSame(engine, db)
    }

    @Test func datesBytesAndObjectsKeepTheirTypes() {
        let db = database(
            (
                "T",
                [
                    record(
                        "t1", ["when": .date(1_427_068_800_000), "raw": .bytes([1, 2]), "o": .object(["k": .date(5)])]),
                    record("t2", ["when": .date(-1), "raw": .bytes([]), "o": .object(["k": .string("v")])]),
                    record("t3", ["when": .int(5), "raw": .string("not bytes")]),
                ]
            ))
        Self.expectSame(Engine(database: db), db)
    }

    /// Objects whose fields were written in different orders each read back in their own.
    @Test func fieldOrderIsEachObjectsOwn() throws {
        let db = database(
            (
                "T",
                [
                    Record(objectId: "t1", fields: [("a", .int(1)), ("b", .int(2)), ("c", .int(3))]),
                    Record(objectId: "t2", fields: [("c", .int(3)), ("a", .int(1))]),
                    Record(objectId: "t3", fields: [("b", .int(2)), ("d", .int(4)), ("a", .int(1))]),
                    Record(objectId: "t4", fields: [("a", .null), ("d", .int(4))]),
                ]
            ))
        let engine = Engine(database: db)
        Self.expectSame(engine, db)
        let replaced = Record(objectId: "t2", fields: [("d", .int(0)), ("b", .int(9))])
        engine.insert(replaced, into: "T")
        var changed = db
        changed.insert(replaced, into: "T")
        Self.expectSame(engine, changed)
        #expect(
            try engine.run(Query(className: "T", predicate: .constant(true))).records.map(\.fieldOrder)
                == [["a", "b", "c"], ["d", "b"], ["b", "d", "a"], ["a", "d"]])
    }

    /// Inserts, replacements and deletes on the column-only store: the data reads back as the
    /// database changed the same way, pointers dangle when their object goes and resolve when
    /// it comes back.
    @Test(arguments: [7, 8, 9] as [UInt64])
    func changesReadBackExactly(seed: UInt64) {
        var random = RandomData(seed: seed)
        var db = random.database(items: 25, others: 6)
        let engine = Engine(database: db)
        for step in 0..<150 {
            switch random.int(4) {
            case 0:
                let id = "i\(random.int(35))"
                let fresh = random.database(items: 1, others: 0)["Item"]!.records[0]
                let r = Record(
                    objectId: id, fields: fresh.fieldOrder.shuffled(using: &random.rng).map { ($0, fresh.fields[$0]!) })
                db.insert(r, into: "Item")
                engine.insert(r, into: "Item")
            case 1:
                let id = "i\(random.int(35))"
                #expect(engine.delete(id, from: "Item") == (db.remove(id, from: "Item") != nil))
            case 2:
                let id = "o\(random.int(8))"
                let r = record(
                    id,
                    ["name": .string(random.pick(RandomData.strings)), "owner": pointer("Item", "i\(random.int(35))")])
                db.insert(r, into: "Other")
                engine.insert(r, into: "Other")
            default:
                let id = "o\(random.int(8))"
                #expect(engine.delete(id, from: "Other") == (db.remove(id, from: "Other") != nil))
            }
            Self.expectSame(engine, db, "step \(step)")
        }
    }

    /// Strings of few distinct values are dictionary encoded once loaded (strings and array
    /// elements); new strings join the dictionary, and queries agree with the reference.
    @Test func dictionaryEncodedStringsStayExactAndQueryable() throws {
        let words = ["Ann", "Bob", "é", "e\u{301}", "", "Zed", "ann"]
        var db = database(
            (
                "T",
                (0..<300).map { i in
                    record(
                        "t\(i)",
                        [
                            "w": .string(words[i % words.count]),
                            "tags": .array([.string(words[i % 3]), .string(words[i % 5])]),
                            "u": .string("unique-\(i)"),
                        ])
                }
            ))
        let engine = Engine(database: db)
        try engine.createIndex(.ordered, on: "w", in: "T")
        try engine.createIndex(.hash, on: "tags", in: "T")
        let table = try #require(engine.store.table("T"))
        #expect((table.column("w") as? StringColumn)?.coded == true)
        #expect(((table.column("tags") as? ArrayColumn)?.elements as? StringColumn)?.coded == true)
        #expect((table.column("u") as? StringColumn)?.coded == false)
        #expect(table.objectIds.coded == false)
        // Enough new strings to widen the codes past a byte.
        let many: [(String, Value?)] = (0..<300).map { ("t\(1000 + $0)", .string("w\($0)")) }
        let changes: [(String, Value?)] =
            [
                ("t3", .string("new")), ("t500", .string("newer")), ("t7", nil), ("t8", .int(4)),
                ("t501", .string("Bob")),
            ] + many + [("t1005", nil), ("t2", .string("w299"))]
        for (id, value) in changes {
            if let value {
                let r = record(id, ["w": value, "tags": .array([value])])
                db.insert(r, into: "T")
                engine.insert(r, into: "T")
            } else {
                _ = db.remove(id, from: "T")
                #expect(engine.delete(id, from: "T"))
            }
        }
        Self.expectSame(engine, db)
        let reference = ReferenceEvaluator(database: db)
        for q in [
            Query(className: "T", predicate: compare("w", .eq, "Bob", .sql)),
            Query(className: "T", predicate: compare("w", .eq, "new", .sql)),
            Query(
                className: "T",
                predicate: .leaf(.string(.key("w"), .beginsWith, .literal("A"), [.caseInsensitive]), .predicate)),
            Query(className: "T", predicate: compare("tags", .eq, "newer", .document)),
            Query(className: "T", predicate: compare("w", .gt, "B", .sql), order: [.key("w", .ascending)]),
        ] {
            #expect(try engine.run(q) == reference.run(q))
        }
    }

    @Test func objectIdLookupFollowsInsertsAndDeletes() {
        var table = ClassTable(name: "T")
        let ids = (0..<300).map { "id-\($0 * 7919 % 1000)" }
        for id in ids { _ = table.appendRow(id) }
        for (row, id) in ids.enumerated() { #expect(table.row(of: id) == row) }
        #expect(table.row(of: "absent") == nil)
        // A deleted object's row stays, empty; the lookup forgets its objectId only.
        let victims = Set(stride(from: 290, through: 0, by: -17))
        for victim in victims { table.removeRow(victim) }
        #expect(table.deletedCount == victims.count && table.liveCount == ids.count - victims.count)
        for (row, id) in ids.enumerated() {
            #expect(table.row(of: id) == (victims.contains(row) ? nil : row))
            #expect(table.isLive(row) == !victims.contains(row))
        }
        // The objectId comes back on a new row.
        _ = table.appendRow(ids[1])
        #expect(table.row(of: ids[1]) == ids.count)
        table = ClassTable(name: "U")
        #expect(table.row(of: "x") == nil)
    }

    @Test func packedCodesWiden() {
        var codes = PackedCodes([3, 0, 200])
        #expect(codes.width == 1)
        codes.append(70_000)
        #expect(codes.width == 4 && (0..<4).map { codes[$0] } == [3, 0, 200, 70_000])
        codes[0] = 9
        #expect((0..<codes.count).map { codes[$0] } == [9, 0, 200, 70_000])
        var narrow = PackedCodes()
        for c in [1, 255, 256, 65_535] as [UInt32] { narrow.append(c) }
        #expect(narrow.width == 2 && narrow.withReader { r in (0..<4).map { r[$0] } } == [1, 255, 256, 65_535])
    }

    @Test func rowBitsFindSetBitsInRanges() {
        var bits = RowBits()
        let set = [0, 5, 63, 64, 65, 127, 128, 200]
        for r in set { bits[r] = true }
        #expect((0..<260).filter { bits[$0] } == set)
        for lo in stride(from: 0, to: 260, by: 7) {
            for hi in stride(from: lo, to: 270, by: 11) {
                #expect(bits.any(in: lo..<hi) == set.contains { (lo..<hi).contains($0) }, "\(lo)..<\(hi)")
            }
        }
        bits[5] = false
        #expect(!bits[5] && bits[0])
    }
}
