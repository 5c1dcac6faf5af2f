import Testing
import QuarryCore
import QuarryEngine
import QuarrySQL

/// Random where clauses in the subset SQL and SQLite share (comparisons, AND/OR/NOT,
/// parentheses, IN, BETWEEN, IS NULL, ASCII LIKE with ESCAPE) over random rows with nulls:
/// Quarry (SQL front-end + reference evaluator) and SQLite `:memory:` return the same objects.
/// SQLite's three-valued logic is the oracle for Quarry's lowering of NOT into the leaves.
@Suite struct SQLiteDifferentialTests {
    static let rowCount = 40
    static let clausesPerChunk = 100

    /// Rows over columns i INTEGER, d REAL, s TEXT, t TEXT; a null is a missing field or an
    /// explicit null on Quarry's side, NULL on SQLite's.
    struct Dataset {
        var database: Database
        var sqlite: SQLiteMemory
    }

    static func dataset(seed: UInt64) throws -> Dataset {
        var random = SeededRandom(seed: seed)
        let sqlite = try SQLiteMemory()
        try sqlite.execute("CREATE TABLE T (objectId TEXT, i INTEGER, d REAL, s TEXT, t TEXT)")
        var records: [Record] = []
        var rows: [[SQLiteMemory.Cell]] = []
        for n in 0..<rowCount {
            let id = "o\(n)"
            var fields: [(String, Value)] = []
            var row: [SQLiteMemory.Cell] = [.text(id)]
            func column(_ name: String, _ value: Value?, _ cell: SQLiteMemory.Cell) {
                if let value {
                    fields.append((name, value))
                    row.append(cell)
                } else {
                    if random.chance(0.5) { fields.append((name, .null)) }
                    row.append(.null)
                }
            }
            let isNull = { (r: inout SeededRandom) in r.chance(0.15) }
            if isNull(&random) { column("i", nil, .null) } else {
                let v = Int64(random.int(-4...4))
                column("i", .int(v), .int(v))
            }
            if isNull(&random) { column("d", nil, .null) } else {
                let v = random.pick(doubles)
                column("d", .double(v), .double(v))
            }
            for name in ["s", "t"] {
                if isNull(&random) { column(name, nil, .null) } else {
                    let v = string(&random)
                    column(name, .string(v), .text(v))
                }
            }
            records.append(Record(objectId: id, fields: fields))
            rows.append(row)
        }
        try sqlite.insert(into: "T", columns: ["objectId", "i", "d", "s", "t"], rows: rows)
        return Dataset(database: Database([ClassData(name: "T", records: records)]), sqlite: sqlite)
    }

    static let doubles: [Double] = [-2.5, -1, 0, 0.5, 1, 1.5, 2, 3.25]

    static func string(_ random: inout SeededRandom) -> String {
        (0..<random.int(0...3)).map { _ in random.pick(["a", "A", "b", "B", "%", "_", "'", "x", "!"]) }.joined()
    }

    // MARK: - Clauses

    struct ClauseGenerator {
        var random: SeededRandom

        mutating func condition(depth: Int = 0) -> String {
            let roll = random.int(0...9)
            if depth < 3, roll < 2 {
                let items = (0..<random.int(2...3)).map { _ in condition(depth: depth + 1) }
                return items.joined(separator: random.chance(0.5) ? " AND " : " or ")
            }
            if depth < 3, roll == 2 { return "(" + condition(depth: depth + 1) + ")" }
            if depth < 3, roll == 3 { return "NOT " + condition(depth: depth + 1) }
            return predicate()
        }

        mutating func predicate() -> String {
            let numeric = random.chance(0.5)
            let column = numeric ? random.pick(["i", "d"]) : random.pick(["s", "t"])
            func value() -> String { numeric ? number() : quoted(SQLiteDifferentialTests.string(&random)) }
            let not = random.chance(0.3) ? "NOT " : ""
            switch random.int(0...9) {
            case 0, 1:
                return "\(column) \(op()) \(value())"
            case 2:
                return "\(value()) \(op()) \(column)"
            case 3:
                return "\(column) \(op()) \(numeric ? random.pick(["i", "d"]) : random.pick(["s", "t"]))"
            case 4:
                let items = (0..<random.int(1...4)).map { _ in value() }
                return "\(column) \(not)IN (\(items.joined(separator: ", ")))"
            case 5:
                return "\(column) \(not)BETWEEN \(value()) AND \(value())"
            case 6:
                return "\(column) IS \(not)NULL"
            case 7, 8:
                let subject = random.pick(["s", "t"])
                if random.chance(0.5) { return "\(subject) \(not)LIKE \(quoted(pattern(escape: nil)))" }
                return "\(subject) \(not)LIKE \(quoted(pattern(escape: "!"))) ESCAPE '!'"
            default:
                return random.chance(0.8) ? "objectId = 'o\(random.int(0...SQLiteDifferentialTests.rowCount))'"
                    : random.pick(["TRUE", "FALSE"])
            }
        }

        mutating func op() -> String { random.pick(["=", "!=", "<>", "<", "<=", ">", ">="]) }

        mutating func number() -> String {
            random.chance(0.5) ? String(random.int(-4...4)) : random.pick(["-2.5", "0.5", "1.0", "1.5", "3.25", "-1e0"])
        }

        mutating func pattern(escape: String?) -> String {
            var pieces = ["a", "A", "b", "%", "_", "x", "'"]
            if let e = escape { pieces += ["\(e)%", "\(e)_", "\(e)\(e)"] }
            return (0..<random.int(0...4)).map { _ in random.pick(pieces) }.joined()
        }

        func quoted(_ s: String) -> String {
            "'" + s.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
        }
    }

    // MARK: - The comparison

    static func quarry(_ text: String, _ data: Dataset, schema: Bool) throws -> Set<String> {
        let predicate = try SQLWhere.parse(text, className: "T", schema: schema ? data.database : nil)
        return Set(try ReferenceEvaluator(database: data.database).run(Query(className: "T", predicate: predicate)).objectIds)
    }

    static func sqlite(_ text: String, _ data: Dataset) throws -> Set<String> {
        Set(try data.sqlite.strings("SELECT objectId FROM T WHERE \(text)"))
    }

    @Test(arguments: 0..<4)
    func sameObjectsAsSQLite(chunk: Int) throws {
        let data = try Self.dataset(seed: UInt64(1000 + chunk))
        var generator = ClauseGenerator(random: SeededRandom(seed: UInt64(chunk) << 20))
        var failures = 0
        for _ in 0..<Self.clausesPerChunk where failures < 3 {
            let text = generator.condition()
            let expected = try Self.sqlite(text, data)
            let got = try Self.quarry(text, data, schema: false)
            let typed = try Self.quarry(text, data, schema: true)
            // The canonical text the printer writes means the same to SQLite.
            let printed = try SQLWhere.print(SQLWhere.parse(text))
            let viaPrinter = try Self.sqlite(printed, data)
            if got != expected || typed != expected || viaPrinter != expected {
                failures += 1
                Issue.record("""
                    \(text)
                      sqlite:           \(expected.sorted())
                      quarry:           \(got.sorted())
                      quarry (schema):  \(typed.sorted())
                      sqlite(printed):  \(viaPrinter.sorted())  \(printed)
                    """)
            }
        }
    }

    @Test func theCorpusIsNotTrivial() throws {
        // Guards against a generator drifting into clauses that match nothing or everything.
        let data = try Self.dataset(seed: 1000)
        var generator = ClauseGenerator(random: SeededRandom(seed: 0))
        var sizes: [Int] = []
        for _ in 0..<Self.clausesPerChunk { sizes.append(try Self.sqlite(generator.condition(), data).count) }
        let partial = sizes.filter { $0 > 0 && $0 < Self.rowCount }.count
        #expect(partial >= Self.clausesPerChunk / 3, "\(sizes)")
    }
}
