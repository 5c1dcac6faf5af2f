import Foundation
import QuarryCore
import QuarryData
import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// The direct loader (docs/STORAGE.md#direct-loading) against the record loader: every object
/// read back from the directly built columns is the record `DataFile.load` builds for the same
/// file, the schema is the same, and a bad file fails with the same located error.
@Suite struct DirectLoadTests {
    /// Loads `text` both ways from a file named `name` and compares.
    static func expectSameLoad(_ text: String, name: String = "Thing.json", _ context: Comment = "") throws {
        let path = try temporaryFile(name, text)
        defer { removeTemporaryFile(path) }
        let reference: Database
        do {
            reference = try DataFile.load(path: path)
        } catch {
            Issue.record("\(context): the record loader rejected the file: \(error)\n\(text)")
            return
        }
        // On this thread, and pipelined (the columns built on a second thread).
        for parallelism in Self.loadModes {
            let loaded = try Engine.load(contentsOfFile: path, parallelism: parallelism)
            let context: Comment = "\(context), \(parallelism.threads) thread(s)"
            #expect(loaded.direct, "\(context): the direct reader left the file to the record loader\n\(text)")
            ColumnRecordTests.expectSame(loaded.engine, reference, "\(context)\n\(text)\n")
            expectSameStatistics(loaded.engine, Engine(database: reference), "\(context)\n\(text)\n")
            #expect(loaded.schema.classNames == reference.classNames, context)
            for c in reference.classNames {
                #expect(loaded.schema.fieldNames(in: c) == reference.fieldNames(in: c), context)
                for f in reference.fieldNames(in: c) {
                    #expect(loaded.schema.fieldType(f, in: c) == reference.fieldType(f, in: c), "\(context) \(c).\(f)")
                }
            }
        }
    }

    /// The planner's statistics of the scalar and string columns (whose values the direct
    /// loader notes once the file is read, docs/STORAGE.md#direct-loading) against a store
    /// built from the records, which notes each value as it stores it: the same counts, types,
    /// bounds and distinct estimate. (Other columns note each value as it comes, repeated keys'
    /// overwritten values included, which the records no longer hold.)
    static func expectSameStatistics(_ loaded: Engine, _ built: Engine, _ context: Comment) {
        for name in built.store.classNames {
            guard let mine = loaded.store.table(name), let theirs = built.store.table(name) else { continue }
            for field in ["objectId"] + theirs.fieldNames {
                guard let m = mine.column(field), let t = theirs.column(field), m.kind == t.kind else { continue }
                // An array column's elements are noted after the load too.
                var pairs = [(m, t, field)]
                if let ma = m as? ArrayColumn, let ta = t as? ArrayColumn {
                    pairs.append((ma.elements, ta.elements, field + " elements"))
                }
                for (m, t, what) in pairs where m.defersValuesWell {
                    let a = m.statistics, b = t.statistics
                    let same =
                        (a.missing, a.nulls, a.typed, a.others, a.multiValued, a.typeBits)
                        == (b.missing, b.nulls, b.typed, b.others, b.multiValued, b.typeBits)
                        && a.distinct == b.distinct && sameBound(a.min, b.min) && sameBound(a.max, b.max)
                    #expect(same, "\(context) \(name).\(what): loaded \(a), built \(b)")
                }
            }
        }
    }

    /// Bounds are equal when they sort equal (an int and a double of one value are one bound).
    private static func sameBound(_ a: Value?, _ b: Value?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let a?, let b?): return Value.sortOrder(a, b) == 0
        default: return false
        }
    }

    static let loadModes: [ScanParallelism] = [.sequential, ScanParallelism(threads: 2)]

    static func temporaryFile(_ name: String, _ text: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("direct-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Removes a file `temporaryFile` made, with its folder.
    static func removeTemporaryFile(_ path: String) {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }

    // MARK: Random files

    /// Random JSON text for one field value: every value kind, wrappers in odd forms, escapes,
    /// big and small numbers, nesting.
    struct TextValues {
        var random: RandomData
        let classes: [String: [String]]

        mutating func value(depth: Int = 0) -> String {
            switch random.int(depth > 1 ? 4 : 9) {
            case 0: return random.pick(Self.numbers)
            case 1: return random.pick(Self.strings)
            case 2: return random.pick(["true", "false", "null"])
            case 3: return wrapper()
            case 4: return "[" + (0..<random.int(4)).map { _ in scalar() }.joined(separator: ", ") + "]"
            case 5: return "[" + (0..<random.int(3)).map { _ in value(depth: depth + 1) }.joined(separator: ",") + "]"
            case 6:
                return "{"
                    + (0..<random.int(3)).map { i in "\"k\(i % 2)\": \(value(depth: depth + 1))" }
                    .joined(separator: ", ") + "}"
            case 7: return wrapper()
            default: return pointer()
            }
        }

        mutating func scalar() -> String {
            random.pick([random.pick(Self.numbers), random.pick(Self.strings), "null", "true"])
        }

        /// A Pointer to an object that exists (in this class or another, earlier or later in the
        /// file) or to one that does not.
        mutating func pointer() -> String {
            let c = random.pick(Array(classes.keys).sorted())
            let id = random.chance(80) ? random.pick(classes[c] ?? ["x"]) : "missing"
            return random.chance(70)
                ? #"{"__type": "Pointer", "className": "\#(c)", "objectId": "\#(id)"}"#
                : #"{"objectId": "\#(id)", "className": "\#(c)", "__type": "Pointer"}"#
        }

        mutating func wrapper() -> String {
            switch random.int(6) {
            case 0: return #"{"__type": "Date", "iso": "\#(random.pick(Self.dates))"}"#
            case 1: return #"{"iso": "2015-03-23T00:00:00.000Z", "__type": "Date", "extra": 1}"#
            case 2:
                let (lat, lon) = random.pick([("30.27", "-97.74"), ("0", "0"), ("-90", "180"), ("1e1", "-2")])
                return random.chance(50)
                    ? #"{"__type": "GeoPoint", "latitude": \#(lat), "longitude": \#(lon)}"#
                    : #"{"longitude": \#(lon), "__type": "GeoPoint", "latitude": \#(lat)}"#
            case 3:
                let ids = (classes["B"] ?? []).prefix(2).map {
                    #"{"__type": "Pointer", "className": "B", "objectId": "\#($0)"}"#
                }
                return #"{"__type": "Relation", "className": "B", "objects": [\#(ids.joined(separator: ","))]}"#
            case 4: return #"{"__type": "Bytes", "base64": "AAEC/w=="}"#
            default:
                return random.pick([
                    #"{"__type": "File", "name": "f.txt", "url": "https://x/f.txt"}"#,
                    #"{"__type": "Polygon", "coordinates": [[0, 0], [0, 1], [1, 1]]}"#,
                    #"{"__type": "Object", "className": "B", "objectId": "b1", "n": 1, "createdAt": "2020-01-01T00:00:00Z"}"#,
                ])
            }
        }

        static let numbers = [
            "0", "-0", "7", "-3", "42", "1.5", "-0.0", "2.0", "1e3", "1E-400", "-2.25e-3", "9007199254740993",
            "9223372036854775807", "-9223372036854775808", "9223372036854775808", "123456789012345678901234567890",
            "0.1", "100.25", "1.7976931348623157e308", "5e-324",
        ]
        static let strings = [
            #""""#, #""a""#, #""Joe""#, #""é""#, #""e\u0301""#, #""\u00e9\t\n""#, #""\ud83d\ude00 smile""#,
            #""quote \" and \\ slash \/""#, #""2015-03-23""#, #""ß""#, "\"\u{1F600}\"", #""\u0000""#,
        ]
        static let dates = ["2015-03-23T00:00:00.000Z", "1970-01-01T00:00:00Z", "2023-06-30T12:34:56.789+02:00"]
    }

    /// A random file of classes A and B (pointers between them both ways), in one of the layouts.
    static func randomFile(seed: UInt64) -> (text: String, name: String) {
        var random = RandomData(seed: seed)
        let ids = ["A": (0..<12).map { "a\($0)" }, "B": (0..<6).map { "b\($0)" }]
        var values = TextValues(random: RandomData(seed: seed &+ 1000), classes: ids)
        let keys = ["n", "s", "mixed", "tags", "where", "ref", "when", "createdAt", "updatedAt", "na\\u006de", "name"]
        func object(_ id: String, _ index: Int) -> String {
            var members: [String] = []
            if index % 7 != 3 { members.append(#""objectId": "\#(id)""#) }
            for key in keys where random.chance(60) {
                switch key {
                case "createdAt", "updatedAt":
                    members.append(
                        #""\#(key)": "#
                            + random.pick([
                                #""2020-01-01T00:00:00.000Z""#, "null",
                                #"{"__type": "Date", "iso": "2021-02-03T04:05:06Z"}"#,
                            ]))
                case "ref": members.append(#""ref": \#(values.pointer())"#)
                default: members.append(#""\#(key)": \#(values.value())"#)
                }
            }
            if random.chance(10), let first = members.last { members.append(first) }  // a repeated key
            if random.chance(10) { members.append(#""n": \#(values.value())"#) }
            if random.chance(20) { members.shuffle(using: &random.rng) }
            return "{" + members.joined(separator: random.chance(50) ? ", " : ",") + "}"
        }
        func objects(_ c: String) -> [String] {
            ids[c]!.enumerated().map { i, id in object(i % 7 == 3 ? "\(c)-\(i + 1)" : id, i) }
        }
        switch random.int(4) {
        case 0:
            // B after A: pointers from A into B resolve once B is read.
            let a = objects("A").joined(separator: ",\n"), b = objects("B").joined(separator: ",\n")
            return ("{\"A\": [\n\(a)\n], \"B\": [\(b)]}\n", "db.json")
        case 1: return ("[" + objects("A").joined(separator: ",\n") + "]", "A.json")
        case 2: return (#"{"results": ["# + objects("A").joined(separator: ", ") + #"], "count": 12}"#, "A.json")
        default: return (objects("A").joined(separator: "\n") + "\n", "A.ndjson")
        }
    }

    @Test(arguments: 0..<40 as Range<UInt64>)
    func randomFilesLoadAsTheRecordLoaderLoadsThem(seed: UInt64) throws {
        let (text, name) = Self.randomFile(seed: seed)
        try Self.expectSameLoad(text, name: name, "seed \(seed)")
    }

    /// Typed columns past their first rows: many objects, a field whose first values are null
    /// or empty arrays, numbers that start as ints and turn to doubles, strings that repeat.
    @Test func longFilesSettleTheirColumns() throws {
        var lines: [String] = []
        for i in 0..<3000 {
            let score = i < 3 ? "null" : (i < 100 ? "\(i)" : "\(i).5")
            let tags = i % 5 == 0 ? "[]" : #"["t\#(i % 7)", "u\#(i % 3)"]"#
            let late = i > 2000 ? #", "late": "x\#(i % 4)""# : ""
            lines.append(
                #"{"objectId": "p\#(i)", "name": "N\#(i % 40)", "score": \#(score), "tags": \#(tags)\#(late)}"#)
        }
        try Self.expectSameLoad(lines.joined(separator: "\n"), name: "P.ndjson")
        let path = try Self.temporaryFile("P.ndjson", lines.joined(separator: "\n"))
        defer { Self.removeTemporaryFile(path) }
        let table = try Engine.load(contentsOfFile: path).engine.store.table("P")
        #expect(table?.column("score")?.kind == .double)
        #expect(table?.column("tags")?.kind == .array(of: .string))
        #expect(table?.column("name")?.kind == .string)
    }

    /// An array column's elements note their statistics once the file is read, as a string
    /// column does (docs/STORAGE.md#direct-loading): the same as a store built from the records.
    @Test func arrayElementsNoteTheirStatisticsAfterTheLoad() throws {
        let lines = (0..<300).map { i in #"{"objectId": "p\#(i)", "tags": ["t\#(i % 7)", "u\#(i % 3)"]}"# }
        let path = try Self.temporaryFile("P.ndjson", lines.joined(separator: "\n"))
        defer { Self.removeTemporaryFile(path) }
        for parallelism in Self.loadModes {
            let engine = try Engine.load(contentsOfFile: path, parallelism: parallelism).engine
            let elements = try #require((engine.store.table("P")?.column("tags") as? ArrayColumn)?.elements)
            #expect(elements.statistics.min == .string("t0") && elements.statistics.max == .string("u2"))
            #expect(elements.statistics.typed == 600)
            Self.expectSameStatistics(engine, Engine(database: try DataFile.load(path: path)), "")
        }
    }

    /// String columns take their dictionary as they load (docs/STORAGE.md#direct-loading) and
    /// end in the form a store built from the records settles into: unique strings past 65,536
    /// rows go back to plain; few distinct strings keep their codes, in first-seen order, even
    /// when the first rows hold no string or a null element; a string replaced by a repeated key
    /// leaves no entry behind.
    @Test func stringColumnsCodeAsTheyLoad() throws {
        var lines: [String] = []
        for i in 0..<(1 << 16) + 10 {
            let name = i < 3 ? "" : (i == 3 ? #", "n": null"# : #", "n": "n\#(i % 50)""#)
            let tags = i == 0 ? #"[null]"# : #"["t\#(i % 7)", "u\#(i % 3)"]"#
            let repeated = i == 500 ? #", "r": "only-here", "r": "r1""# : #", "r": "r\#(i % 5)""#
            lines.append(#"{"objectId": "p\#(i)", "u": "unique\#(i)"\#(name), "tags": \#(tags)\#(repeated)}"#)
        }
        let path = try Self.temporaryFile("P.ndjson", lines.joined(separator: "\n"))
        defer { Self.removeTemporaryFile(path) }
        let engine = try Engine.load(contentsOfFile: path, parallelism: ScanParallelism(threads: 2)).engine
        let records = try DataFile.load(path: path)
        let reference = Engine(database: records)
        ColumnRecordTests.expectSame(engine, records)
        Self.expectSameStatistics(engine, reference, "")
        let loaded = try #require(engine.store.table("P")), built = try #require(reference.store.table("P"))
        func strings(_ table: ClassTable, _ field: String) -> StringColumn? {
            let column = table.column(field)
            return (column as? StringColumn) ?? ((column as? ArrayColumn)?.elements as? StringColumn)
        }
        for field in ["u", "n", "tags", "r"] {
            let mine = try #require(strings(loaded, field)), theirs = try #require(strings(built, field))
            #expect(mine.coded == theirs.coded, "\(field)")
            for probe in ["n0", "n49", "t3", "u2", "r1", "r4", "only-here"] {
                #expect(mine.entry(of: Array(probe.utf8)) == theirs.entry(of: Array(probe.utf8)), "\(field) \(probe)")
            }
        }
        #expect(strings(loaded, "u")?.coded == false)
        #expect(strings(loaded, "n")?.coded == true)
        #expect(strings(loaded, "r")?.entry(of: Array("only-here".utf8)) == -1)
    }

    /// While loading, a column of few distinct strings is coded already, and one of unique
    /// strings goes back to plain at 65,536 rows instead of growing a dictionary as large as
    /// its rows (the load's peak memory).
    @Test func uniqueStringsStopCodingWhileLoading() throws {
        var loader = ColumnLoader()
        loader.beginClass("P")
        let unique = loader.field(named: "u"), few = loader.field(named: "f")
        for i in 0..<1 << 16 {
            loader.value(.string("unique\(i)"), field: unique)
            loader.value(.string("f\(i % 9)"), field: few)
            let added = loader.endObject(objectId: "p\(i)")
            #expect(added)
        }
        let table = try #require(loader.store.table("P"))
        #expect((table.column("u") as? StringColumn)?.coded == false)
        #expect((table.column("f") as? StringColumn)?.coded == true)
    }

    /// Field types that stay and field types that turn mixed, value after value, for each kind
    /// `LoadedSchema.keeps` answers without building the type: the schema is the record loader's.
    @Test func fieldTypesMergeAsTheRecordLoaderMergesThem() throws {
        func ptr(_ c: String, _ id: String) -> String {
            #"{"__type": "Pointer", "className": "\#(c)", "objectId": "\#(id)"}"#
        }
        let rows = [
            #"{"objectId": "a", "r": [\#(ptr("A", "a"))], "q": [\#(ptr("A", "a"))], "s": [1, 2], "p": \#(ptr("A", "a")), "e": [], "n": 1}"#,
            #"{"objectId": "b", "r": [\#(ptr("A", "a")), "x"], "q": [], "s": [1, "y"], "p": \#(ptr("B", "b")), "e": [null], "n": "z"}"#,
            #"{"objectId": "c", "r": [\#(ptr("A", "a"))], "q": [\#(ptr("A", "b")), null], "s": [3], "p": null, "e": [1.5], "n": 2}"#,
            #"{"objectId": "d", "q": [\#(ptr("A", "c"))], "e": [2, [3]], "t": [[1]], "u": [1]}"#,
            #"{"objectId": "e", "t": [[1]], "u": [[1]], "v": [\#(ptr("A", "a"))]}"#,
            #"{"objectId": "f", "t": [[2]], "u": [1], "v": [\#(ptr("B", "a"))]}"#,
            // An element type of its own kind: arrays of arrays, and of mixed elements.
            #"{"objectId": "g", "w": [[1]], "m": [1, "x"]}"#,
            #"{"objectId": "h", "w": [[]], "m": [1]}"#,
            // A repeated key: only the last value's type counts, whichever of the two changes it.
            #"{"objectId": "i", "k": 1, "l": "x"}"#,
            #"{"objectId": "j", "k": "x", "k": 2, "l": "y", "l": 3}"#,
        ]
        try Self.expectSameLoad(rows.joined(separator: "\n"), name: "T.ndjson")
    }

    /// Date, GeoPoint and Pointer wrappers in the forms the in-place reader takes and in those
    /// it leaves to the tree path (escapes, other orders, extra or repeated members, values of
    /// other kinds, bad dates and coordinates): each file loads, or fails, as the record loader
    /// says.
    @Test(arguments: wrapperTexts.indices)
    func wrappersReadAsTheRecordLoaderReadsThem(index: Int) throws {
        let text = #"{"objectId": "a", "w": \#(Self.wrapperTexts[index])}"# + "\n" + #"{"objectId": "b", "n": 1}"#
        let path = try Self.temporaryFile("W.ndjson", text)
        defer { Self.removeTemporaryFile(path) }
        var rejected: DataFileError?
        do { _ = try DataFile.load(path: path) } catch { rejected = error }
        guard let rejected else {
            try Self.expectSameLoad(text, name: "W.ndjson", "\(Self.wrapperTexts[index])")
            return
        }
        for parallelism in Self.loadModes {
            #expect(throws: rejected, "\(Self.wrapperTexts[index])") {
                try Engine.load(contentsOfFile: path, parallelism: parallelism)
            }
        }
    }

    static let wrapperTexts = [
        #"{"__type":"Date","iso":"2020-12-03T08:36:15.908Z"}"#,
        #"{ "iso" : "2020-12-03T08:36:15.908Z" , "__type" : "Date" }"#,
        #"{"__type":"Date","iso":"2020-12-03"}"#,
        #"{"__type":"Date","iso":"2020-12-03T08:36:15.908+02:00"}"#,
        #"{"__type":"D\u0061te","iso":"2020-12-03T08:36:15Z"}"#,
        #"{"__t\u0079pe":"Date","iso":"2020-12-03T08:36:15Z"}"#,
        #"{"__type":"Date","iso":"2020-12-03T08:36:15.908Z","extra":1}"#,
        #"{"__type":"Date","iso":"2020-12-03T08:36:15Z","iso":"2021-01-01"}"#,
        #"{"__type":"Date","iso":"2020-13-03"}"#,
        #"{"__type":"Date","iso":"2020-12-03\u0000"}"#,
        #"{"__type":"Date","iso":20201203}"#,
        #"{"__type":"Date"}"#,
        #"{"__type":"Date","iso":"2020-12-03","latitude":1}"#,
        #"{"__type":"Pointer","className":"City","objectId":"c1","iso":"2020-12-03"}"#,
        #"{"__type":"GeoPoint","latitude":1e1,"longitude":-2}"#,
        #"{"longitude":180,"latitude":-90,"__type":"GeoPoint"}"#,
        #"{"__type":"GeoPoint","latitude":0.5,"longitude":-0.0}"#,
        #"{"__type":"GeoPoint","latitude":91,"longitude":0}"#,
        #"{"__type":"GeoPoint","latitude":"1","longitude":0}"#,
        #"{"__type":"GeoPoint","latitude":1,"longitude":2,"latitude":3}"#,
        #"{"__type":"GeoPoint","latitude":1}"#,
        #"{"__type":"Pointer","className":"City","objectId":"c1"}"#,
        #"{"objectId":"x","__type":"Pointer","className":"City"}"#,
        #"{"__type":"Pointer","className":"City","objectId":"c\u0031"}"#,
        #"{"__type":"Pointer","className":"","objectId":"x"}"#,
        #"{"__type":"Pointer","className":"City","objectId":7}"#,
        #"{"__type":"Pointer","className":"City","objectId":"p","objectId":"q"}"#,
        #"{"__type":"Widget","iso":"2020-12-03"}"#,
        #"{"__typo":"Date","iso":"2020-12-03"}"#,
        #"{"__type":"Pointer","className":"City","objectid":"c1"}"#,
        #"{"__type":null,"iso":"2020-12-03"}"#,
        #"{"__type":"Date","iso":"2020-12-03","other":{"a":[1]}}"#,
        #"{}"#,
    ]

    /// Pointers into a class the file does not hold all dangle: the column stays one of pointers
    /// and does not count them as misfits (which rebuilt it after every object, quadratic in the
    /// file's length: `quarry run --data people.ndjson` on the benchmark's 1M rows never ended).
    @Test func danglingPointersAreNotMisfits() throws {
        let lines = (0..<2000).map {
            #"{"objectId": "p\#($0)", "city": {"__type": "Pointer", "className": "City", "objectId": "c\#($0 % 9)"}}"#
        }
        try Self.expectSameLoad(lines.joined(separator: "\n"), name: "P.ndjson")
        let path = try Self.temporaryFile("P.ndjson", lines.joined(separator: "\n"))
        defer { Self.removeTemporaryFile(path) }
        let column = try #require(try Engine.load(contentsOfFile: path).engine.store.table("P")?.column("city"))
        #expect(column.kind == .pointer(to: "City"))
        #expect(column.statistics.others == 2000)
        #expect(column.misfits == 0)
    }

    /// The benchmark's shape, generated: the same records as written.
    @Test func syntheticDataLoadsDirectly() throws {
        let data = SyntheticData(rows: 500, seed: 7)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("people-\(UUID().uuidString).json")
            .path
        try data.write(toFile: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let loaded = try Engine.load(contentsOfFile: path)
        #expect(loaded.direct)
        ColumnRecordTests.expectSame(loaded.engine, data.database())
    }

    /// Pointers into objects of their own class, written later in the file, are resolved once
    /// the file is read: a path through them answers as on the records (`ColumnLoader.finish`
    /// takes a class's own pointers as read after it).
    @Test func pointersIntoTheirOwnClassAreFollowed() throws {
        let objects = (0..<50).map { i in
            #"{"objectId": "a\#(i)", "n": \#(i), "next": {"__type": "Pointer", "className": "A", "objectId": "a\#((i + 1) % 50)"}}"#
        }
        let path = try Self.temporaryFile("A.ndjson", objects.joined(separator: "\n"))
        defer { Self.removeTemporaryFile(path) }
        let engine = try Engine.load(contentsOfFile: path).engine
        let records = try DataFile.load(path: path)
        let query = Query(
            className: "A", predicate: .leaf(.compare(.key("next.n"), .gt, .literal(.int(40)), []), .sql))
        #expect(try engine.run(query).objectIds == (40..<49).map { "a\($0)" })
        #expect(try engine.run(query) == ReferenceEvaluator(database: records).run(query))
    }

    // MARK: Bad files

    static let badFiles: [(String, String)] = [
        (
            "utf8.json",
            "[{\"objectId\": \"a\", \"s\": \"\u{FF}\"}]".replacingOccurrences(of: "\u{FF}", with: "\u{FFFD}")
        ),
        ("number.json", #"[{"objectId": "a", "n": 1e400}]"#),
        (
            "deep.json",
            #"[{"objectId": "a", "n": "# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
                + "}]"
        ),
        ("truncated.json", #"{"A": [{"objectId": "a", "n": 1}, {"objectId": "b", "#),
        ("truncated-string.ndjson", "{\"objectId\": \"a\"}\n{\"objectId\": \"b\", \"s\": \"abc"),
        ("duplicate.json", #"[{"objectId": "a"}, {"objectId": "b"}, {"objectId": "a"}]"#),
        // A class's objectIds are filed once it is read: before the next class's first object,
        // and at the end when the next class is empty.
        ("duplicate-first.json", #"{"A": [{"objectId": "a"}, {"objectId": "a"}], "B": [{"objectId": "b"}]}"#),
        ("duplicate-before-empty.json", #"{"A": [{"objectId": "a"}, {"objectId": "a"}], "B": []}"#),
        ("wrapper.json", #"[{"objectId": "a", "p": {"__type": "Pointer", "className": "B"}}]"#),
        ("geo.json", #"[{"objectId": "a", "g": {"__type": "GeoPoint", "latitude": 100, "longitude": 0}}]"#),
        ("date.json", #"[{"objectId": "a", "createdAt": "yesterday"}]"#),
        ("trailing.json", #"[{"objectId": "a"},]"#),
        ("shape.json", #"[{"objectId": "a"}, 42]"#),
        ("id.json", #"[{"objectId": 7}]"#),
        ("twice.json", #"{"A": [], "A": []}"#),
        ("after.json", #"[{"objectId": "a"}] x"#),
        ("empty.json", ""),
        ("type.json", #"[{"objectId": "a", "x": {"__type": "Widget"}}]"#),
        ("count.json", #"{"count": 3}"#),
    ]

    @Test(arguments: badFiles.indices)
    func badFilesFailWithTheRecordLoadersError(index: Int) throws {
        let (name, text) = Self.badFiles[index]
        var bytes = Array(text.utf8)
        if name == "utf8.json", let at = bytes.firstIndex(of: 0xEF) { bytes.replaceSubrange(at..<at + 3, with: [0xFF]) }
        let path = try Self.temporaryFile(name, "")
        defer { Self.removeTemporaryFile(path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var expected: DataFileError?
        do { _ = try DataFile.load(path: path) } catch { expected = error }
        #expect(expected != nil, "\(name) should be rejected")
        for parallelism in Self.loadModes {
            do {
                _ = try Engine.load(contentsOfFile: path, parallelism: parallelism)
                Issue.record("\(name): the direct loader accepted a bad file")
            } catch {
                #expect(error == expected, "\(name), \(parallelism.threads) thread(s)")
            }
        }
    }

    /// A duplicate objectId far into a file: the pipelined builder refuses it batches after the
    /// reader went past, and the load still fails with the record loader's located error.
    @Test func aDuplicateFarIntoTheFileFailsAsTheRecordLoaderSays() throws {
        let lines = (0..<12_000).map { i in #"{"objectId": "p\#(i == 11_000 ? 7 : i)", "n": \#(i), "s": "x\#(i % 9)"}"#
        }
        let path = try Self.temporaryFile("P.ndjson", lines.joined(separator: "\n"))
        defer { Self.removeTemporaryFile(path) }
        var rejected: DataFileError?
        do { _ = try DataFile.load(path: path) } catch { rejected = error }
        let expected = try #require(rejected)
        #expect(expected.code == "data.duplicate-id" && expected.line == 11_001, "\(expected)")
        for parallelism in Self.loadModes {
            #expect(throws: expected) { try Engine.load(contentsOfFile: path, parallelism: parallelism) }
        }
    }
}
