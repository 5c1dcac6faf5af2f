import Quarry
import QuarrySQLite
import Testing

/// `Limits.deadlineSeconds` holds SQLite's own work to the query's time budget
/// (docs/STORAGE.md#deadlines): a statement that runs past it is interrupted and the query fails
/// with `limit.deadline`, as it does in the engine.
@Suite struct SQLiteDeadlineTests {
    /// A full scan of 200,000 objects in SQL (no index, nothing left to Quarry, no match)
    /// takes tens of milliseconds; with a millisecond's budget it is stopped inside the statement.
    @Test func aStatementPastTheDeadlineIsInterrupted() throws {
        let file = StoreFile()
        let store = try file.open()
        try store.apply(
            (0..<200_000).map { .save(Record(objectId: "o\($0)", fields: [("n", .int(Int64($0)))]), in: "Item") })
        let query = try Dialect.sql.compile("n > 1000000 OR n < -5", className: "Item")
        #expect(try store.explanation(query).residual.isEmpty)
        #expect(try store.query(query).records.isEmpty)

        var limits = Limits.default
        limits.deadlineSeconds = 0.001
        let timed = try SQLiteStore(path: file.path, limits: limits)
        #expect {
            _ = try timed.query(query)
        } throws: { error in
            let d = error as? Diagnostic
            return d?.code == "limit.deadline" && d?.message == "the query ran out of its time budget of 0.001 seconds"
        }
    }

    /// A budget spent before the store is asked fails at once; a generous one changes nothing.
    @Test func aSpentBudgetFailsAndAGenerousOneAnswers() async throws {
        let file = StoreFile()
        try file.open().apply([.save(Record(objectId: "a", fields: [("n", .int(1))]), in: "Item")])
        let query = try Dialect.sql.compile("n = 1", className: "Item")
        for seconds in [0, -1, Double.nan] {
            let store = try SQLiteStore(path: file.path, limits: Limits(deadlineSeconds: seconds))
            await #expect {
                _ = try await store.run(query, variables: [:])
            } throws: { error in
                (error as? Diagnostic)?.code == "limit.deadline"
            }
        }
        let store = try SQLiteStore(path: file.path, limits: Limits(deadlineSeconds: 3600))
        #expect(try await store.run(query, variables: [:]).records.map(\.objectId) == ["a"])
    }
}
