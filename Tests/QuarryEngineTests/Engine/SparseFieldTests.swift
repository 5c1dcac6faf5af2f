import Foundation
import QuarryCore
import QuarryData
import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// Fields few objects of a large class hold (docs/STORAGE.md#sparse-fields): their columns are
/// generic whichever way the store is built (from records, from a data file's bytes, by
/// inserts), the answers are the reference's, and a class too sparse for the in-memory store
/// is refused where it crosses the limit.
@Suite struct SparseFieldTests {
    static let items = 5_000

    /// A random database whose `Item` class is thinned: `i` kept on one item in 300, `tags` on
    /// one in 500, a field of its own on one in 97, `late` on every item from 4,500 on, and
    /// `early` on the first 18 only (not sparse yet at 4,096 rows, the direct loader's last
    /// look while it reads, but sparse at 5,000: it turns generic when the file is read).
    static func sparseDatabase(seed: UInt64, mixesTypes: Bool = true) -> Database {
        var random = RandomData(seed: seed, mixesTypes: mixesTypes)
        let db = random.database(items: items, others: 40)
        let thinned = db["Item"]!.records.enumerated().map { (n, r) -> Record in
            var fields: [(String, Value)] = r.fieldOrder.compactMap { f in
                switch f {
                case "i" where n % 300 != 0, "tags" where n % 500 != 0: return nil
                default: return r.fields[f].map { (f, $0) }
                }
            }
            if n % 97 == 0 { fields.append(("own\(n)", .int(Int64(n)))) }
            if n >= 4_500 { fields.append(("late", .int(Int64(n % 13)))) }
            if n < 18 { fields.append(("early", .double(Double(n) / 4))) }
            return Record(objectId: r.objectId, fields: fields)
        }
        return Database([ClassData(name: "Item", records: thinned), db["Other"]!])
    }

    /// The data as a data file's text.
    static func text(_ db: Database) -> String {
        var out: [UInt8] = Array("{".utf8)
        for (c, name) in db.classNames.enumerated() {
            out += Array("\(c == 0 ? "" : ",")\"\(name)\":[".utf8)
            for (i, record) in (db[name]?.records ?? []).enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                ParseJSON.write(record, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    static func kinds(_ engine: Engine, _ className: String) -> [String: ColumnKind] {
        guard let table = engine.store.table(className) else { return [:] }
        return table.columns.mapValues(\.kind)
    }

    @Test func sparseFieldsGetGenericColumnsFromRecords() {
        let engine = Engine(database: Self.sparseDatabase(seed: 7))
        let kinds = Self.kinds(engine, "Item")
        #expect(kinds["i"] == .generic)
        #expect(kinds["tags"] == .generic)
        #expect(kinds["own97"] == .generic)
        #expect(kinds["early"] == .generic)
        // 500 of 5,000 items: more than one in 256, so typed.
        #expect(kinds["late"] == .int)
    }

    /// A class of few fields finds its sparse ones as it builds each column (a class of many
    /// counts them first): the same kinds, and the same answers as the reference.
    @Test func aNarrowClassFindsItsSparseFieldsAsItBuilds() throws {
        let records = (0..<5_000).map { n -> Record in
            var fields: [(String, Value)] = [("n", .int(Int64(n)))]
            if n % 300 == 0 { fields.append(("rare", .int(Int64(n / 300)))) }
            if n < 18 { fields.append(("early", .string("e\(n)"))) }
            if n % 10 == 0 { fields.append(("tenth", .double(Double(n) / 3))) }
            return Record(objectId: "o\(n)", fields: fields)
        }
        let db = Database([ClassData(name: "T", records: records)])
        let engine = Engine(database: db)
        let kinds = Self.kinds(engine, "T")
        #expect(kinds["rare"] == .generic)
        #expect(kinds["early"] == .generic)
        #expect(kinds["tenth"] == .double)
        #expect(kinds["n"] == .int)
        let reference = ReferenceEvaluator(database: db)
        for predicate in [
            compare("rare", .gt, 5, .sql), compare("early", .ne, "e3", .document), compare("tenth", .lt, 40, .sql),
        ] {
            let q = Query(className: "T", predicate: predicate)
            #expect(try engine.run(q) == (try reference.run(q)))
        }
    }

    @Test(arguments: [3, 4] as [UInt64])
    func recordBuiltStoreAnswersAsTheReference(seed: UInt64) {
        var random = RandomData(seed: seed)
        let db = Self.sparseDatabase(seed: seed)
        DeleteCompactionTests.agree(Engine(database: db, now: { 0 }, random: { 0.5 }), db, &random, "seed \(seed)")
    }

    /// The same data as a file: the direct loader's columns read back as the records, with
    /// the same kinds and statistics as a store built from the records, and the same answers.
    @Test(arguments: [5, 6] as [UInt64])
    func directLoadMatchesTheRecords(seed: UInt64) throws {
        let path = try DirectLoadTests.temporaryFile(
            "Item.json", Self.text(Self.sparseDatabase(seed: seed, mixesTypes: false)))
        defer { DirectLoadTests.removeTemporaryFile(path) }
        let reference = try DataFile.load(path: path)
        let built = Engine(database: reference)
        for parallelism in DirectLoadTests.loadModes {
            let loaded = try Engine.load(contentsOfFile: path, parallelism: parallelism)
            let context: Comment = "seed \(seed), \(parallelism.threads) thread(s)"
            #expect(loaded.direct, context)
            ColumnRecordTests.expectSame(loaded.engine, reference, context)
            DirectLoadTests.expectSameStatistics(loaded.engine, built, context)
            // Which columns are generic (ints and doubles may settle differently in a small class).
            let generic = { (e: Engine) in Self.kinds(e, "Item").filter { $0.value == .generic }.keys.sorted() }
            #expect(generic(loaded.engine) == generic(built), context)
            #expect(Self.kinds(loaded.engine, "Item")["i"] == .generic, context)
            var random = RandomData(seed: seed)
            DeleteCompactionTests.agree(loaded.engine, reference, &random, "\(context)")
        }
    }

    /// A field added to a large class by inserts starts generic and gets its kind once more
    /// than one object in 256 holds it.
    @Test func aFieldFilledByInsertsGetsItsKind() throws {
        var db = Self.sparseDatabase(seed: 8)
        let engine = Engine(database: db, now: { 0 }, random: { 0.5 })
        let query = Query(className: "Item", predicate: compare("added", .gt, .int(3), .sql))
        var records = db["Item"]!.records
        for n in 0..<100 {
            records[n * 7].fields["added"] = .int(Int64(n % 11))
            records[n * 7].fieldOrder.append("added")
            engine.insert(records[n * 7], into: "Item")
            db.insert(records[n * 7], into: "Item")
            if n == 0 || n == 62 { #expect(Self.kinds(engine, "Item")["added"] == .generic, "after \(n + 1)") }
            if n == 0 || n == 99 { #expect(try engine.run(query).objectIds == ids(db, query), "after \(n + 1)") }
        }
        // 64 × 256 ≥ 5,000: looked at again at 64 values, and typed.
        #expect(Self.kinds(engine, "Item")["added"] == .int)
    }

    @Test func theLimitCountsCellsPerValue() {
        let limit = Limits.default.maxSparseCells
        #expect(limit == 1 << 28)
        #expect(!SparseLimit.exceeded(fields: 300, objects: 1_000_000, values: 300_000_000, limit: limit))
        #expect(!SparseLimit.exceeded(fields: 1 << 14, objects: 1 << 14, values: 1, limit: limit))
        #expect(SparseLimit.exceeded(fields: (1 << 14) + 1, objects: 1 << 14, values: 1 << 14, limit: limit))
        #expect(!SparseLimit.exceeded(fields: 4_000, objects: 100_000, values: 100_000_000 / 16, limit: limit))
        #expect(SparseLimit.exceeded(fields: 4_000, objects: 100_000, values: 100_000_000 / 16 - 1, limit: limit))
        #expect(SparseLimit.exceeded(fields: Int.max / 2, objects: 3, values: 0, limit: limit))
    }

    /// A limit of 2^20 cells for the tests (the default, 2^28, is met at 16,385 such objects).
    static let limits = Limits(maxSparseCells: 1 << 20)

    /// Objects each with a field of their own: the class passes 2^20 cells at object 1,025
    /// (1,025 fields × 1,025 objects), with 64 cells per value long passed; loading stops there
    /// with a located error, the same in both threads' modes and from the records.
    @Test func aFileTooSparseFailsWhereItCrosses() throws {
        var text = ""
        for i in 0..<1_100 { text += "{\"objectId\":\"o\(i)\",\"f\(i)\":\(i)}\n" }
        let path = try DirectLoadTests.temporaryFile("Wide.ndjson", text)
        defer { DirectLoadTests.removeTemporaryFile(path) }
        let fromRecords = SparseLimit.firstExcess(
            in: try DataFile.load(path: path), file: path, limit: Self.limits.maxSparseCells)
        #expect(fromRecords?.objectIndex == 1_025)
        for parallelism in DirectLoadTests.loadModes {
            do {
                _ = try Engine.load(contentsOfFile: path, limits: Self.limits, parallelism: parallelism)
                Issue.record("the file loaded")
            } catch {
                #expect(error == fromRecords)
                #expect(error.code == "limit.sparse-class")
                #expect(error.className == "Wide" && error.objectId == "o1024")
                #expect(
                    error.description
                        == "\(path): class 'Wide', object #1025 (objectId 'o1024'): the class would have 1025 fields "
                        + "over 1025 objects, 1050625 cells (the in-memory store keeps one for every field of every "
                        + "object) for 1025 values: more than the limit of 1048576 cells and more than 64 per value; "
                        + "data this sparse belongs in a SQLite or PostgreSQL store")
            }
        }
        // Within the default limit the same file loads, and its objects read back as the
        // records (most rows keep their own field list: one field of up to 1,100).
        let records = try DataFile.load(path: path)
        ColumnRecordTests.expectSame(try Engine.load(contentsOfFile: path).engine, records, "direct")
        ColumnRecordTests.expectSame(Engine(database: records), records, "from records")
    }

    /// A write that adds fields past the limit is refused whole, with Parse's code for an
    /// object too large; a write within it goes through.
    @Test func aWriteTooSparseIsRefusedWhole() async throws {
        let records = (0..<2_000).map { record("t\($0)", ["n": .int(Int64($0))]) }
        let engine = Engine(database: database(("T", records)), limits: Self.limits)
        let backend = InMemoryBackend(engine: engine)
        // 601 fields × 2,001 objects > 2^20 cells, for 2,600 values.
        let wide = Record(objectId: "w", fields: (0..<600).map { ("f\($0)", .int(Int64($0))) })
        do {
            try await backend.write([.save(record("t1", ["n": .int(-1)]), in: "T"), .save(wide, in: "T")])
            Issue.record("the write went through")
        } catch {
            #expect(error.code == "limit.sparse-class")
            #expect(error.parseCode == 116)
        }
        #expect(engine.store.table("T")?.fieldNames == ["n"])
        #expect(engine.store.table("T")?.liveCount == 2_000)
        #expect(try engine.run(Query(className: "T", predicate: compare("n", .lt, .int(0), .sql))).objectIds.isEmpty)
        try await backend.write([.save(record("x", ["extra": .int(1)]), in: "T")])
        #expect(engine.store.table("T")?.liveCount == 2_001)
    }
}
