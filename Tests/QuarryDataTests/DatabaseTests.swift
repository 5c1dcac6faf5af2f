import Testing

@testable import QuarryData
import QuarryCore

@Suite struct DatabaseTests {
    private func classData(_ ids: [String]) -> ClassData {
        ClassData(name: "T", records: ids.map { Record(objectId: $0, fields: [("n", .string($0))]) })
    }

    @Test func removeKeepsInsertionOrderAndPositions() {
        var data = classData(["a", "b", "c", "d"])
        #expect(data.remove("b") == 1)
        #expect(data.records.map(\.objectId) == ["a", "c", "d"])
        #expect(data.positionById == ["a": 0, "c": 1, "d": 2])
        #expect(data.record("d")?.fields["n"] == .string("d"))
        #expect(data.remove("b") == nil)
    }

    @Test func removeThenInsertAppends() {
        var db = Database([classData(["a", "b"])])
        #expect(db.remove("a", from: "T") == 0)
        #expect(db.remove("a", from: "Missing") == nil)
        db.insert(Record(objectId: "a", fields: []), into: "T")
        #expect(db["T"]?.records.map(\.objectId) == ["b", "a"])
        #expect(db["T"]?.positionById == ["b": 0, "a": 1])
    }
}
