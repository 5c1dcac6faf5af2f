import QuarryCore
import Testing

@testable import QuarryEngine

/// A pointer column keeps the table it resolves into between writes (docs/STORAGE.md#direct-loading)
/// and finds it again once the store's tables change: a pointer stored before its class exists
/// dangles, one stored after it resolves, and one stored after the class's table was replaced
/// resolves into the new table.
@Suite struct PointerTargetTests {
    @Test func aPointerColumnFindsTablesMadeAfterIt() throws {
        let store = ColumnStore(database: Database())
        let column = try #require(store.makeColumn(.pointer(to: "T")) as? PointerColumn)
        column.append(.pointer(Pointer(className: "T", objectId: "a")))
        #expect(column.rows == [PointerColumn.dangling])

        let target = store.table(creating: "T")
        _ = target.appendRow("b")
        _ = target.appendRow("a")
        column.append(.pointer(Pointer(className: "T", objectId: "a")))
        #expect(column.rows.last == 1)

        // Compacting rebuilds the class's table; later pointers resolve into the new one.
        target.removeRow(0)
        store.compact("T")
        let fresh = try #require(store.table("T"))
        #expect(fresh !== target && fresh.row(of: "a") == 0)
        column.append(.pointer(Pointer(className: "T", objectId: "a")))
        #expect(column.rows.last == 0)
    }
}
