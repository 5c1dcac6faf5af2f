import Quarry
import QuarryPostgres
import QuarryTestSupport
import Testing

/// A read whose task is cancelled while its statement runs has the statement cancelled by the
/// server and fails with `query.cancelled` (docs/STORAGE.md#postgresql-connections). The
/// statement is held mid-way without timing: a prepared transaction holds an exclusive lock on
/// the class's table, so the read's statement waits for it until cancelled.
@Suite struct PostgresCancelTests {
    @Test func aCancelledReadStopsItsStatement() async throws {
        let url = try PostgresServer.database()
        let store = try await PostgresStore.open(url: url)
        defer { store.close() }
        try await store.write(
            (0..<5).map { .save(Record(objectId: "i\($0)", fields: [("n", .int(Int64($0)))]), in: "Item") })
        let query = Query(className: "Item", predicate: .constant(true))
        // The pool's connections know their server processes once they have read.
        #expect(try await store.run(query, variables: [:]).objectIds.count == 5)
        let outcome = try await PostgresServer.readHeldOnLock(store, query, of: "Item", in: url) { $0.cancel() }
        #expect(outcome == .failure("query.cancelled"))
        // The pool goes on serving reads.
        #expect(try await store.run(query, variables: [:]).objectIds.count == 5)
    }
}
