import QuarryCore
import Testing
@testable import QuarryCLI

@Suite struct TextTableTests {
    @Test func alignsColumnsAndRightAlignsNumbers() {
        let table = TextTable(
            columns: ["objectId", "name", "age"],
            rows: [
                [CellText.cell(.string("k1")), CellText.cell(.string("Bob")), CellText.cell(.int(7))],
                [CellText.cell(.string("k22")), CellText.cell(nil), CellText.cell(.double(120.5))],
            ])
        #expect(
            table.render() == """
                objectId | name |   age
                ---------+------+------
                k1       | Bob  |     7
                k22      |      | 120.5
                (2 rows)

                """)
    }

    @Test func clipsLongCellsAndEscapesControlCharacters() {
        var table = TextTable(columns: ["s"], rows: [[CellText.cell(.string("line1\nline2\tend"))]])
        table.maxCellWidth = 10
        #expect(
            table.render() == """
                s
                ----------
                line1\\nli…
                (1 row)

                """)
    }

    @Test func emptyResultStillShowsTheHeader() {
        #expect(TextTable(columns: ["objectId"], rows: []).render() == "objectId\n--------\n(0 rows)\n")
    }

    @Test(arguments: [
        (Value.null, "null"),
        (.bool(true), "true"),
        (.date(1_427_068_800_000), "2015-03-23T00:00:00.000Z"),
        (.geoPoint(GeoPoint(latitude: 30.5, longitude: -97.25)), "(30.5, -97.25)"),
        (.pointer(Pointer(className: "Address", objectId: "a1")), "Address:a1"),
        (.relation(className: "Post", objectIds: ["p1", "p2"]), "Post:[p1, p2]"),
        (.array([.string("a"), .int(1)]), "[\"a\", 1]"),
        (.bytes([1, 2, 3]), "<3 bytes>"),
        (.object(["__type": "Object", "className": "Address", "objectId": "a1", "city": "Dallas"]), "Address:a1{…}"),
        (.object(["b": 1, "a": "x"]), "{\"a\": \"x\", \"b\": 1}"),
    ])
    func cellText(_ value: Value, _ expected: String) {
        #expect(CellText.text(value) == expected)
    }
}
