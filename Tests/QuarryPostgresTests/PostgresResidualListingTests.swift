import Quarry
import QuarryPostgres
import QuarryTestSupport
import Testing

/// What the PostgreSQL store leaves residual over a broad random corpus on typed data, by
/// reason (docs/STORAGE.md#postgresql-residuals lists the same). The list may only shrink: a
/// new entry fails this test until it is documented and added here.
@Suite struct PostgresResidualListingTests {
    static let documented: Set<String> = [
        "ANY/ALL/NONE quantifiers are evaluated by Quarry",
        "BETWEEN on a geo point is evaluated by Quarry",
        "IN on a geo point is evaluated by Quarry",
        "case- or diacritic-insensitive comparison is evaluated by Quarry",
        "comparing a geo point with = or < is evaluated by Quarry",
        "comparing two fields is pushed down only for SQL leaves over fields of one type",
        "follows a conjunct that may throw; evaluated in the reference's order",
        "a geo distance is narrowed by PostgreSQL with a 1 m margin and decided by Quarry",
        "a negated distance test is evaluated by Quarry",
        "polygon tests are evaluated by Quarry",
        "a polygon test is narrowed by PostgreSQL to the polygon's bounding box and decided by Quarry",
        "a negated polygon test is evaluated by Quarry",
        "a geo test on a field that is not only geo points is evaluated by Quarry",
        "$inQuery is pushed down only on a pointer to the inner query's class",
        "an inner query on a class the store does not have is evaluated by Quarry",
        "an inner query with a negative skip or limit is evaluated by Quarry",
        "a superset filter (a geo distance, a folded string test) in an inner query is evaluated by Quarry",
        "a case- or diacritic-insensitive test is narrowed by PostgreSQL over ASCII and decided by Quarry",
        "a case- or diacritic-insensitive test that is negated or has a non-ASCII pattern is evaluated by Quarry",
        "an inner query whose order PostgreSQL cannot follow is evaluated by Quarry",
        "may throw on some row (a regex, a date to parse or an inner query)",
        "may throw on some row (a regex), so narrowed by PostgreSQL to the rows its regular expressions' LIKE supersets let through and decided by Quarry",
        "regular expressions are evaluated by Quarry (PCRE2, which PostgreSQL's engine is not)",
        "text search ($text) has no PostgreSQL equivalent with the same tokenizing",
        "the path maps over an array, which Quarry evaluates",
        "it holds object values",
        "its arrays hold array values",
        "its arrays hold object values",
        "it holds values of several types",
        "comparing an array with an array literal is evaluated by Quarry",
        "a NaN or infinite literal has no jsonb form; Quarry compares it",
    ]

    /// Why a conjunct stayed, without the field names and types the reason names.
    static func entry(_ reason: String) -> String {
        var r = reason.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? reason
        if let open = r.range(of: " ("), r.hasPrefix("it holds values of several types") {
            r = String(r[..<open.lowerBound])
        }
        return r.replacingOccurrences(of: #"the path \S+ "#, with: "the path ", options: .regularExpression)
    }

    @Test func residualOnlyShrinks() async throws {
        let store = try await PostgresServer.store()
        defer { store.close() }
        var random = RandomData(seed: 21, mixesTypes: false)
        try await store.save(random.database(items: 40, others: 6))
        var found: Set<String> = []
        var pushed = 0
        for _ in 0..<400 {
            guard let e = try? await store.explain(random.query(depth: 1), variables: [:]) else { continue }
            for part in e.residual { found.insert(Self.entry(part.reason)) }
            if e.residual.isEmpty { pushed += 1 }
        }
        #expect(
            found.subtracting(Self.documented).isEmpty, "undocumented: \(found.subtracting(Self.documented).sorted())")
        // Typed data is pushed down: many depth-1 queries leave nothing residual.
        #expect(pushed > 40)
    }
}
