import Quarry
import Testing

/// Whatever the query, a command answers with a status and a diagnostic, never a trap.
@Suite struct HostileInputTests {
    static let queries: [String] = [
        "", " ", "\n\n", "(", ")", "'", "\"", "`", "\u{0}", "a = 1\u{1}", "%", "%@ %@ %K", "$", "$x",
        "{", "}", "[", "]", "{\"where\":", "{\"$or\":[]}", "{\"$or\":{}}", "[1,2]", "null", "1e999999",
        "age > 9223372036854775808", "age > -9223372036854775809", "age IN ()",
        "distance(1, 2, a.latitude, a.longitude) < parsecs(3)", "X[y].z = 1", "name LIKE 'a' ESCAPE 'bc'",
        "SUBQUERY(a, $x, $x.b == 1).@count > 0", "ANY ANY a == 1", "a MATCHES '('",
        String(repeating: "(", count: 10_000) + "a = 1" + String(repeating: ")", count: 10_000),
        String(repeating: "NOT ", count: 5_000) + "a = 1",
        String(repeating: "[", count: 10_000),
        "a IN (" + Array(repeating: "1", count: 20_000).joined(separator: ",") + ")",
        String(repeating: "a = 1 AND ", count: 20_000) + "a = 1",
        "名前 = 'é' AND 🙂 > 1",
    ]

    @Test(arguments: Dialect.allCases)
    func checkAnswersEveryInput(_ dialect: Dialect) {
        for query in Self.queries {
            let r = quarry(["check", "--dialect", dialect.rawValue, "--", query])
            #expect(r.status == 0 || r.status == 1, "\(dialect) \(query.prefix(40))")
            if r.status == 1 { #expect(r.err.hasPrefix("error["), "\(dialect) \(query.prefix(40))") }
        }
    }

    @Test(arguments: Dialect.allCases)
    func runAnswersEveryInput(_ dialect: Dialect) throws {
        let data = try DataFixture(DataFixture.contacts)
        for query in Self.queries {
            let r = quarry([
                "run", "--data", data.path, "--class", "Contact", "--dialect", dialect.rawValue, "--", query,
            ])
            #expect(r.status == 0 || r.status == 1, "\(dialect) \(query.prefix(40))")
        }
    }
}
