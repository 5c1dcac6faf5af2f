import Quarry
import QuarryPostgres
import QuarryTestSupport
import Testing

/// Case- and diacritic-insensitive string tests on PostgreSQL (docs/STORAGE.md#postgresql-residuals):
/// an ASCII pattern narrows the rows with `ILIKE` in the "C" collation, every non-ASCII string
/// passes the filter, and Quarry decides; the answers are the reference's.
@Suite struct PostgresFoldingTests {
    static let names = [
        "Joe", "joe", "JOE", "Jo_e", "Jo%e", "Jo\\e", "\u{212A}elvin", "kelvin", "Kelvin", "\u{17F}am", "Sam",
        "ÉLAN", "élan", "elan", "Straße", "STRASSE", "jOÉ", "", "J", "ß",
        // Non-ASCII scalars whose folding holds ASCII letters, and one whose folding does not.
        "\u{1F0}oe", "\u{FB01}x", "\u{130}ce", "Bo\u{1E9E}", "\u{149}o", "ÜBER", "über", "bx", "eß",
        // ǰ standing for a later literal than the first (`aj%`, `%j%`), and one that cannot
        // stand for the first (`jo%`).
        "a\u{1F0}", "x\u{1F0}oe",
    ]

    @Test func foldedTestsAgreeWithTheReference() async throws {
        let store = try await PostgresServer.store()
        defer { store.close() }
        var db = Database()
        for (i, name) in Self.names.enumerated() {
            db.insert(
                Record(objectId: "p\(i)", fields: [("name", .string(name)), ("tags", .array([.string(name)]))]),
                into: "Person")
        }
        try await store.save(db)
        let reference = ReferenceEvaluator(database: db, now: { 1_700_000_000_000 }, random: { 0.5 })
        let patterns = [
            "jo%", "J_E", "%e%", "kelvin", "sam", "elan", "%a%", "jo\\_e", "jo\\%e", "%", "_", "K%", "STRA%",
            "%oe", "%x", "b%", "%CE", "%o", "%ber", "%e_", "aj%", "%j%", "J%",
        ]
        let operators: [StringOperator] = [
            .like(.sql(escape: "\\")), .like(.sql(escape: nil)), .beginsWith, .endsWith, .contains,
        ]
        var narrowed = 0
        var exact = 0
        for pattern in patterns {
            for op in operators {
                for options in [
                    StringOptions.caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive],
                ] {
                    for key in ["name", "tags"] {
                        for negated in [false, true] {
                            let leaf = Leaf(
                                .string(.key(FieldPath(key)), op, .literal(.string(pattern)), options),
                                negated: negated,
                                semantics: .sql)
                            let q = Query(className: "Person", predicate: .leaf(leaf))
                            let expected = QueryOutcome { () throws(Diagnostic) in try reference.run(q) }
                            let actual = await QueryOutcome { () async throws(Diagnostic) in try await store.query(q) }
                            #expect(actual == expected, "\(key) \(op) \(pattern) \(options) negated \(negated)")
                            let e = try await store.explain(q, variables: [:])
                            if !negated {
                                #expect(e.statement?.contains("LIKE") == true)
                                narrowed += 1
                            }
                            // Case folding alone, no `_`, and no letter a non-ASCII character
                            // folds into: pushed down exactly.
                            if !negated, options == .caseInsensitive, key == "name",
                                ["%e%", "%", "%oe", "b%", "%CE", "%o", "%ber"].contains(pattern)
                            {
                                #expect(e.residual.isEmpty, "\(op) \(pattern): \(e.residual)")
                                exact += 1
                            }
                        }
                    }
                }
            }
        }
        #expect(narrowed > 0)
        #expect(exact > 0)
        // Case folding alone without `_`: narrowed to the rows holding a scalar that folds into
        // one of the pattern's letters, one bound `LIKE '%c%'` each; otherwise any non-ASCII text.
        for (pattern, op, options, parameters, regex) in [
            ("K%", StringOperator.like(.sql(escape: "\\")), StringOptions.caseInsensitive, 2, false),
            ("sam", .beginsWith, .caseInsensitive, 7, false),  // s: ß ſ ẞ ﬅ ﬆ; a: ẚ; m: none
            ("%e_", .like(.sql(escape: "\\")), .caseInsensitive, 1, true),
            ("K%", .like(.sql(escape: "\\")), .diacriticInsensitive, 1, true),
        ] {
            let leaf = Leaf(.string(.key("name"), op, .literal(.string(pattern)), options), semantics: .sql)
            let e = try await store.explain(Query(className: "Person", predicate: .leaf(leaf)), variables: [:])
            #expect(e.parameterCount == parameters, "\(pattern) \(options)")
            #expect(e.statement?.contains("~ '[^") == regex, "\(pattern) \(options): \(e.statement ?? "")")
            #expect(e.residual.count == 1)
        }
        // A non-ASCII pattern stays residual whole.
        let q = Query(
            className: "Person",
            predicate: .leaf(
                Leaf(.string(.key("name"), .beginsWith, .literal(.string("é")), .caseInsensitive), semantics: .sql)))
        let e = try await store.explain(q, variables: [:])
        #expect(e.statement?.contains("LIKE") == false)
        #expect(try await store.query(q).objectIds == ["p11", "p12"])
    }

    /// A narrowed conjunct is tested by Quarry only on the rows where the statement's undecided
    /// column is TRUE (`x LIKE '%ǰ%'` beside `ILIKE 'J%'`); a conjunct that also holds a leaf
    /// narrowed with no such test (a polygon's box, a folded test on an array's elements) is
    /// tested on every row, and the statement has no such column.
    @Test(arguments: [
        ("name LIKE 'J%'", true),
        ("name LIKE 'J%' OR Within(location, 'POLYGON((0 0, 10 0, 0 10, 0 0))') = TRUE", false),
        ("name LIKE 'J%' OR tags LIKE 'k%'", false),
    ])
    func aNarrowedConjunctIsTestedWhereItsStatementLeavesItUndecided(_ text: String, marked: Bool) async throws {
        let store = try await PostgresServer.store()
        defer { store.close() }
        // Bob and Zed are inside the triangle's box, Zed outside the triangle; xǰoe passes
        // `LIKE '%ǰ%'` without beginning with j.
        let people: [(String, Double, Double, String)] = [
            ("John", 50, 50, "a"), ("joe", 50, 50, "kay"), ("\u{1F0}ohn", 50, 50, "a"), ("x\u{1F0}oe", 50, 50, "a"),
            ("Bob", 2, 2, "a"), ("Zed", 9, 9, "a"), ("Ann", 50, 50, "a"),
        ]
        var db = Database()
        for (i, (name, lat, lon, tag)) in people.enumerated() {
            db.insert(
                Record(
                    objectId: "p\(i)",
                    fields: [
                        ("name", .string(name)), ("location", .geoPoint(GeoPoint(latitude: lat, longitude: lon))),
                        ("tags", .array([.string(tag)])),
                    ]),
                into: "Person")
        }
        try await store.save(db)
        let query = try Dialect.sql.compile(text, className: "Person")
        let reference = ReferenceEvaluator(database: db, now: { 1_700_000_000_000 }, random: { 0.5 })
        let expected = QueryOutcome { () throws(Diagnostic) in try reference.run(query) }
        #expect(await QueryOutcome { () async throws(Diagnostic) in try await store.query(query) } == expected)
        #expect(expected != .result(.records([])))
        let statement = try await store.explain(query, variables: [:]).statement ?? ""
        #expect(statement.contains("COALESCE(") == marked, "\(statement)")
    }
}
