import Testing

@testable import QuarryCore

/// A record's fields dictionary starts as a copy of an empty one kept for its size
/// (docs/STORAGE.md#reading-rows): the same room `Dictionary(minimumCapacity:)` gives, so a
/// record holds no more memory than before, and nothing in it.
@Suite struct RecordTests {
    @Test func emptyFieldsHaveTheRoomAskedForAndNoMore() {
        for n in 0...300 {
            let fields = Record.emptyFields(room: n)
            #expect(fields.isEmpty)
            #expect(fields.capacity == [String: Value](minimumCapacity: n).capacity, "room for \(n)")
        }
    }

    /// A record filled from a copy does not change the copy kept, nor another record's.
    @Test func recordsDoNotShareTheirFields() {
        let a = Record(objectId: "a", fields: [("x", .int(1)), ("y", .string("s"))])
        let b = Record(objectId: "b", fields: [("x", .int(2))])
        #expect(a.fields == ["x": .int(1), "y": .string("s")])
        #expect(b.fields == ["x": .int(2)])
        #expect(Record.emptyFields(room: 2).isEmpty)
    }
}
