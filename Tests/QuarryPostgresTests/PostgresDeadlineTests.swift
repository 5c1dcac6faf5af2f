import Quarry
import QuarryPostgres
import QuarryTestSupport
import Testing

/// `Limits.deadlineSeconds` holds PostgreSQL's own work to the query's time budget
/// (docs/STORAGE.md#deadlines): the read transaction's statements run under a statement
/// timeout of the time left, a statement sent alone is cancelled when the deadline passes, and
/// one that runs past it fails the query with `limit.deadline`.
/// A cancelled task's read does not start.
@Suite struct PostgresDeadlineTests {
    /// A full scan of 100,000 objects in SQL (no index, nothing left to Quarry, no match) takes
    /// tens of milliseconds; with a millisecond's budget the server cancels it.
    @Test func aStatementPastTheDeadlineIsCancelled() async throws {
        let url = try PostgresServer.database()
        let store = try await PostgresStore.open(url: url)
        defer { store.close() }
        try await store.transaction { t in
            for i in 0..<100_000 { try t.save(Record(objectId: "o\(i)", fields: [("n", .int(Int64(i)))]), in: "Item") }
        }
        let query = try Dialect.sql.compile("n > 1000000 OR n < -5", className: "Item")
        #expect(try await store.explain(query, variables: [:]).residual.isEmpty)
        #expect(try await store.query(query).records.isEmpty)

        let timed = try await PostgresStore.open(url: url, limits: Limits(deadlineSeconds: 0.001))
        defer { timed.close() }
        await #expect {
            _ = try await timed.query(query)
        } throws: { error in
            let d = error as? Diagnostic
            return d?.code == "limit.deadline" && d?.message == "the query ran out of its time budget of 0.001 seconds"
        }
        // The connection the timeout ended a statement on serves the next query.
        let generous = try await PostgresStore.open(url: url, limits: Limits(deadlineSeconds: 3600))
        defer { generous.close() }
        #expect(try await generous.query(try Dialect.sql.compile("n = 7", className: "Item")).objectIds == ["o7"])
        #expect(try await timed.catalog().map(\.objectCount) == [100_000])
    }

    /// A query answered by its one statement runs outside any transaction, so no statement
    /// timeout holds it: the store stops it with a cancel request when the deadline passes. The
    /// statement is held on a table lock (a prepared transaction holds it), so only that ends it;
    /// the ten seconds leave the test time to see it wait on a busy machine.
    @Test func aStatementAnsweredAloneIsStoppedAtTheDeadline() async throws {
        let url = try PostgresServer.database()
        let store = try await PostgresStore.open(url: url, limits: Limits(deadlineSeconds: 10))
        defer { store.close() }
        try await store.write(
            (0..<5).map { .save(Record(objectId: "i\($0)", fields: [("n", .int(Int64($0)))]), in: "Item") })
        let query = Query(className: "Item", predicate: .constant(true))
        // The store keeps the catalog, and the pool's connection knows its server process.
        #expect(try await store.run(query, variables: [:]).objectIds.count == 5)
        #expect(try await store.explain(query, variables: [:]).residual.isEmpty)
        // Nothing is done meanwhile: the statement goes away at the deadline.
        let outcome = try await PostgresServer.readHeldOnLock(store, query, of: "Item", in: url) { _ in }
        #expect(outcome == .failure("limit.deadline"))
        #expect(try await store.run(query, variables: [:]).objectIds.count == 5)
    }

    /// A task cancelled before its read starts gets `query.cancelled` without the read
    /// running, and the store answers the next read as before.
    @Test func aCancelledTaskGetsQueryCancelled() async throws {
        let url = try PostgresServer.database()
        let store = try await PostgresStore.open(url: url)
        defer { store.close() }
        try await store.write([.save(Record(objectId: "a", fields: [("n", .int(1))]), in: "Item")])
        let query = Query(className: "Item", predicate: .constant(true))
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.query(query)
        }
        await #expect {
            _ = try await cancelled.value
        } throws: { error in
            (error as? Diagnostic)?.code == "query.cancelled"
        }
        #expect(try await store.query(query).objectIds == ["a"])
    }

    /// A budget spent before the store is asked fails at once.
    @Test func aSpentBudgetFails() async throws {
        let url = try PostgresServer.database()
        let store = try await PostgresStore.open(url: url, limits: Limits(deadlineSeconds: 0))
        defer { store.close() }
        try await store.write([.save(Record(objectId: "a", fields: [("n", .int(1))]), in: "Item")])
        await #expect {
            _ = try await store.query(try Dialect.sql.compile("n = 1", className: "Item"))
        } throws: { error in
            (error as? Diagnostic)?.code == "limit.deadline"
        }
    }
}
