import Quarry
import QuarryPostgres
import Testing

/// A store URL no server answers is reported at once, with the reason, not after the pool's
/// retries.
@Suite struct PostgresConnectTests {
    @Test func anUnreachableServerIsAClearError() async {
        await #expect {
            _ = try await PostgresStore.open(url: "postgresql://nobody@localhost:1/nothing")
        } throws: { error in
            guard let d = error as? Diagnostic else { return false }
            return d.code == "store.postgres"
                && d.message.hasPrefix("cannot connect to PostgreSQL at postgresql://nobody@localhost:1/nothing: ")
        }
    }

    @Test func aURLOfAnotherSchemeIsRefused() async {
        await #expect {
            _ = try await PostgresStore.open(url: "mysql://localhost/x")
        } throws: { error in (error as? Diagnostic)?.code == "store.postgres" }
    }
}
