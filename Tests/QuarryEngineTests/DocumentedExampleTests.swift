import Foundation
import Quarry
import Testing

/// The worked example of docs/SEMANTICS.md#example-a--3-in-each-dialect, read from the
/// document and run: for every row (a value of `a`, or none) and every dialect's query in the
/// header, the engine and the reference evaluator answer what the table says.
@Suite struct DocumentedExampleTests {
    struct Row {
        var label: String
        /// The values the row stands for; nil is a missing field.
        var values: [Value?]
        /// The table's answer per query, in header order.
        var matches: [Bool]
    }

    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/SEMANTICS.md")

    /// The table under the example's heading: the queries of its header, and its rows.
    static func table() throws -> (queries: [(Dialect, String)], rows: [Row]) {
        let text = try String(contentsOf: document, encoding: .utf8)
        let section = try #require(text.range(of: "### Example: a != 3 in each dialect"))
        let lines = text[section.upperBound...].split(separator: "\n").drop { !$0.hasPrefix("|") }
            .prefix { $0.hasPrefix("|") }
        let cells = lines.map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
        let header = try #require(cells.first)
        let queries = try header.dropFirst().map { cell -> (Dialect, String) in
            let dialect: Dialect = cell.hasPrefix("SQL") ? .sql : cell.hasPrefix("NSPredicate") ? .predicate : .json
            return (dialect, try #require(code(in: cell).first))
        }
        let rows = try cells.dropFirst(2).map { row -> Row in
            let values: [Value?] =
                try row[0] == "missing"
                ? [nil] : code(in: row[0]).map { try ParseJSON.decode(JSONParser().parse($0)) }
            let matches = row.dropFirst().map { $0.replacingOccurrences(of: "*", with: "").hasPrefix("yes") }
            return Row(label: row[0], values: values, matches: Array(matches))
        }
        return (queries, rows)
    }

    /// The text between backticks, in order.
    static func code(in cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    @Test func theTableIsWhatTheEngineAndTheReferenceAnswer() throws {
        let (queries, rows) = try Self.table()
        #expect(queries.map(\.0) == [.sql, .predicate, .json])
        #expect(rows.count >= 8)
        var records: [Record] = []
        var expected: [[String]] = Array(repeating: [], count: queries.count)
        for (r, row) in rows.enumerated() {
            #expect(row.matches.count == queries.count, "row \(row.label)")
            for (v, value) in row.values.enumerated() {
                let id = "r\(r)v\(v)"
                records.append(Record(objectId: id, fields: value.map { [("a", $0)] } ?? []))
                for q in queries.indices where row.matches[q] { expected[q].append(id) }
            }
        }
        let database = Database([ClassData(name: "T", records: records)])
        let engine = Engine(database: database)
        for (q, (dialect, text)) in queries.enumerated() {
            let query = try dialect.compile(text, className: "T")
            let byEngine = try engine.run(query).records.map(\.objectId)
            let byReference = try database.run(query).records.map(\.objectId)
            #expect(byEngine == expected[q], "\(dialect): \(text)")
            #expect(byReference == expected[q], "\(dialect): \(text)")
        }
    }
}
