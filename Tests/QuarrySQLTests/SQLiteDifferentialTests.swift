import Testing
import QuarryTestSupport
import QuarryCore
import QuarryEngine
import QuarrySQL
import QuarrySQLite

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
        var sqlite: SQLiteConnection
    }

    static func dataset(seed: UInt64) throws -> Dataset {
        var random = SplitMix64(seed: seed)
        let sqlite = try SQLiteConnection()
        try sqlite.execute("CREATE TABLE T (objectId TEXT, i INTEGER, d REAL, s TEXT, t TEXT)")
        let insert = try sqlite.prepare("INSERT INTO T (objectId, i, d, s, t) VALUES (?, ?, ?, ?, ?)")
        var records: [Record] = []
        for n in 0..<rowCount {
            let id = "o\(n)"
            var fields: [(String, Value)] = []
            insert.bind(1, id)
            func column(_ index: Int32, _ name: String, _ value: Value?) {
                switch value {
                case .int(let v)?: insert.bind(index, v)
                case .double(let v)?: insert.bind(index, v)
                case .string(let v)?: insert.bind(index, v)
                default: insert.bindNull(index)
                }
                if let value {
                    fields.append((name, value))
                } else if random.chance(0.5) {
                    fields.append((name, .null))
                }
            }
            let isNull = { (r: inout SplitMix64) in r.chance(0.15) }
            column(2, "i", isNull(&random) ? nil : .int(Int64(random.int(-4...4))))
            column(3, "d", isNull(&random) ? nil : .double(random.pick(doubles)))
            for (index, name) in [(Int32(4), "s"), (5, "t")] {
                column(index, name, isNull(&random) ? nil : .string(string(&random)))
            }
            try insert.run()
            records.append(Record(objectId: id, fields: fields))
        }
        return Dataset(database: Database([ClassData(name: "T", records: records)]), sqlite: sqlite)
    }

    static let doubles: [Double] = [-2.5, -1, 0, 0.5, 1, 1.5, 2, 3.25]

    static func string(_ random: inout SplitMix64) -> String {
        (0..<random.int(0...3)).map { _ in random.pick(["a", "A", "b", "B", "%", "_", "'", "x", "!"]) }.joined()
    }

    // MARK: - Clauses

    struct ClauseGenerator {
        var random: SplitMix64

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
                return random.chance(0.8)
                    ? "objectId = 'o\(random.int(0...SQLiteDifferentialTests.rowCount))'"
                    : random.pick(["TRUE", "FALSE"])
            }
        }

        mutating func op() -> String { random.pick(["=", "!=", "<>", "<", "<=", ">", ">="]) }

        mutating func number() -> String {
            random.chance(0.5)
                ? String(random.int(-4...4)) : random.pick(["-2.5", "0.5", "1.0", "1.5", "3.25", "-1e0"])
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
        return Set(
            try ReferenceEvaluator(database: data.database).run(Query(className: "T", predicate: predicate)).objectIds)
    }

    static func sqlite(_ text: String, _ data: Dataset) throws -> Set<String> {
        let select = try data.sqlite.prepare("SELECT objectId FROM T WHERE \(text)")
        var ids: Set<String> = []
        while try select.step() { ids.insert(select.text(0) ?? "") }
        return ids
    }

    @Test(arguments: 0..<4)
    func sameObjectsAsSQLite(chunk: Int) throws {
        let data = try Self.dataset(seed: UInt64(1000 + chunk))
        var generator = ClauseGenerator(random: SplitMix64(seed: UInt64(chunk) << 20))
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
                Issue.record(
                    """
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
        var generator = ClauseGenerator(random: SplitMix64(seed: 0))
        var sizes: [Int] = []
        for _ in 0..<Self.clausesPerChunk { sizes.append(try Self.sqlite(generator.condition(), data).count) }
        let partial = sizes.filter { $0 > 0 && $0 < Self.rowCount }.count
        #expect(partial >= Self.clausesPerChunk / 3, "\(sizes)")
    }
}
