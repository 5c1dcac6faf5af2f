import Quarry
import QuarryTestSupport
import Testing

@testable import QuarrySQLite

/// A regex conjunct stays residual but is also sent as a superset filter whose regex tests
/// decide only what the budget's first, uncharged limit decides (docs/STORAGE.md#regular-expressions):
/// the answers, the first error and the total-budget failures must stay the reference's.
@Suite struct RegexSupersetTests {
    /// Names that match, miss, or make `(a+)+$` backtrack catastrophically (the `a…ab` ones),
    /// and a missing and a null name, with tags for the array form.
    static func database() -> Database {
        let names: [Value?] = [
            .string("Jan"), .string("joe"), nil, .string("aaaaaaaaaaaaaaaab"), .string("Ann"), .null,
            .string("aaaaaaaaaaaaaaaaaab"), .string("Jon"), .string("Bea"),
        ]
        return RegexSubjects.database(names: names)
    }

    /// Braces make it a Parse REST `where` (document semantics), otherwise an NSPredicate.
    static func outcomes(_ text: String, limits: Limits) throws -> (
        store: QueryOutcome, reference: QueryOutcome, sql: String
    ) {
        let db = database()
        let file = StoreFile()
        let store = try SQLiteStore(path: file.path, limits: limits, now: { 1_700_000_000_000 }, random: { 0.5 })
        try store.save(db)
        let query = try (text.hasPrefix("{") ? Dialect.json : Dialect.predicate).compile(text, className: "P")
        let reference = ReferenceEvaluator(database: db, limits: limits, now: { 1_700_000_000_000 }, random: { 0.5 })
        return (
            QueryOutcome { () throws(Diagnostic) in try store.query(query) },
            QueryOutcome { () throws(Diagnostic) in try reference.run(query) },
            (try? store.explanation(query))?.statement ?? ""
        )
    }

    @Test(arguments: [
        "name MATCHES 'J.n'", "NOT (name MATCHES 'J.n')", "name MATCHES 'J.n' OR n = 4",
        "n < 8 AND NOT (name MATCHES '[A-Z].*')", #"{"name": {"$regex": "^j", "$options": "i"}}"#,
        #"{"tags": {"$regex": "t[13]"}}"#,
        #"{"$or": [{"name": {"$regex": "o"}}, {"n": {"$gt": 6}}]}"#,
    ])
    func answersAreTheReferenceAndSQLiteFilters(_ text: String) throws {
        let (store, reference, sql) = try Self.outcomes(text, limits: .default)
        #expect(store == reference, "\(text): \(store) against \(reference)")
        #expect(sql.contains("quarry_regexp("), "\(text) sent no superset: \(sql)")
    }

    /// A pattern led by literals is tested by its GLOB superset first, turned either way, on a
    /// field and on an array's elements; a backtracking pattern behind a literal still fails on
    /// the reference's row.
    @Test(
        arguments: [
            ("name MATCHES 'J.n'", nil), ("NOT (name MATCHES 'Jo.*')", nil), (#"{"name": {"$regex": "^J.n"}}"#, nil),
            (#"{"tags": {"$regex": "^t1"}}"#, nil), ("name MATCHES 'a(a+)+$'", "limit.regex"),
        ] as [(String, String?)])
    func aGlobSupersetIsTestedFirst(_ text: String, failure: String?) throws {
        let limits = Limits(regexMatchLimit: 200_000, regexJIT: false)
        let (store, reference, sql) = try Self.outcomes(text, limits: limits)
        #expect(store == reference, "\(text): \(store) against \(reference)")
        if let failure { #expect(reference == .failure(failure)) } else { #expect(reference != .result(.records([]))) }
        #expect(sql.contains(" GLOB ?") && sql.contains("quarry_regexp("), "\(text): \(sql)")
    }

    /// A pattern that does not compile but has a GLOB superset (`J*`) is the reference's
    /// located `regex.invalid`, not a statement sent with its GLOB.
    @Test func anInvalidPatternIsTheReferencesError() throws {
        let (store, reference, _) = try Self.outcomes(#"{"name": {"$regex": "^J[a"}}"#, limits: .default)
        #expect(reference == .failure("regex.invalid"))
        #expect(store == reference)
    }

    /// A backtracking row makes the match need more than the first limit: SQLite keeps it, and
    /// Quarry fails on it as the reference does — whichever way the test is turned.
    @Test(arguments: ["name MATCHES '(a+)+$'", "NOT (name MATCHES '(a+)+$')", "n > 2 AND name MATCHES '(a+)+$'"])
    func theFirstErrorIsTheReferences(_ text: String) throws {
        let limits = Limits(regexMatchLimit: 200_000, regexJIT: false)
        let (store, reference, _) = try Self.outcomes(text, limits: limits)
        #expect(reference == .failure("limit.regex"))
        #expect(store == reference, "\(text): \(store) against \(reference)")
    }

    /// Each backtracking row charges the total budget without failing on its own: a budget
    /// smaller than one row's charge fails, a large one passes — in the store as in the reference.
    @Test(arguments: [UInt64(1), 10_000_000_000])
    func theTotalBudgetIsChargedForTheSameRows(_ total: UInt64) throws {
        let limits = Limits(regexMatchLimit: 100_000_000, regexTotalLimit: total)
        let (store, reference, _) = try Self.outcomes("name MATCHES '(a+)+$'", limits: limits)
        #expect(reference == (total == 1 ? .failure("limit.regex") : .result(.records([]))))
        #expect(store == reference, "total \(total): \(store) against \(reference)")
    }

    /// The same backtracking rows behind an index, so that SQLite reads them through the index
    /// and sorts them by rowid: each row's undecided note must still reach that row.
    @Test(arguments: [
        "n IN {3, 6, 7} AND name MATCHES '(a+)+$'", "n IN {0, 3, 6, 7} AND NOT (name MATCHES 'J.n|(a+)+$')",
    ])
    func theNoteFollowsItsRowThroughAnIndex(_ text: String) throws {
        let limits = Limits(regexMatchLimit: 200_000, regexJIT: false)
        var db = Self.database()
        // Enough other rows that SQLite's statistics make the index worth reading.
        for i in 100..<2_100 { db.insert(Record(objectId: "f\(i)", fields: [("n", .int(Int64(i)))]), into: "P") }
        let file = StoreFile()
        let store = try SQLiteStore(path: file.path, limits: limits, now: { 1_700_000_000_000 }, random: { 0.5 })
        try store.save(db)
        try store.declareIndex(.ordered, on: "n", in: "P")
        let query = try Dialect.predicate.compile(text, className: "P")
        let reference = ReferenceEvaluator(database: db, limits: limits, now: { 1_700_000_000_000 }, random: { 0.5 })
        let outcome = QueryOutcome { () throws(Diagnostic) in try store.query(query) }
        #expect(outcome == QueryOutcome { () throws(Diagnostic) in try reference.run(query) })
        #expect(outcome == .failure("limit.regex"))
        let explanation = try store.explanation(query)
        #expect(explanation.statement?.contains("quarry_regexp_undecided()") == true)
        // EXPLAIN says that Quarry tests only the rows SQLite left undecided.
        #expect(
            explanation.residual.map(\.reason) == [
                "may throw on some row (a regex), so decided by the store only where the regex's uncharged limit decides it; Quarry tests the rows left undecided"
            ])
        #expect(explanation.plan.contains { $0.contains("USING INDEX") }, "\(explanation.plan)")
        #expect(explanation.plan.contains { $0.contains("TEMP B-TREE FOR ORDER BY") }, "\(explanation.plan)")
    }

    /// Bytes that are not UTF-8 in the column SQLite matches (written by another program; the
    /// document Quarry reads still holds `Jan`) are undecided, not a non-match: the row comes back
    /// and Quarry decides it on the document, as the reference does on the records. (The bytes
    /// stand where the pattern's GLOB superset, `J?n*`, takes any character.)
    @Test func bytesThatAreNotUTF8AreLeftToQuarry() throws {
        let db = Self.database()
        let file = StoreFile()
        let store = try SQLiteStore(path: file.path, now: { 1_700_000_000_000 }, random: { 0.5 })
        try store.save(db)
        let query = try Dialect.predicate.compile("name MATCHES 'J.n'", className: "P")
        let statement = try store.explanation(query).statement ?? ""
        // The column the superset matches, as the statement names it (`t0.f<n>`).
        let column = try #require(statement.firstMatch(of: /quarry_regexp\(\?\d+, \?\d+, t0\.(f\d+)/)?.1)
        try store.pool.write { db in
            try db.execute(sql: "UPDATE c1 SET \(column) = CAST(X'4AFF6E' AS TEXT) WHERE objectId = 'o0'")
        }
        let reference = ReferenceEvaluator(database: db, now: { 1_700_000_000_000 }, random: { 0.5 })
        #expect(try reference.run(query).objectIds == ["o0", "o7"])
        #expect(try store.query(query).objectIds == ["o0", "o7"])
    }

    /// A row the database marked as passed is not tested again, one it left undecided is: with
    /// the backtracking row passed, no error; with it left to Quarry, the reference's error.
    @Test func onlyTheRowsLeftUndecidedAreTestedAgain() throws {
        let limits = Limits(regexMatchLimit: 200_000, regexJIT: false)
        let records = ["Jan", "aaaaaaaaaaaaaaaaaab", "Jon"].enumerated().map { i, name in
            Record(objectId: "o\(i)", fields: [("name", .string(name))])
        }
        let query = try Dialect.predicate.compile("name MATCHES '(a+)+$|J.n'", className: "P")
        let evaluator = PushdownEvaluator(
            objects: NoObjects(), limits: limits, variables: [:], now: { 0 }, random: { 0.5 })
        let residual = PushdownEvaluator.conjuncts(of: query.predicate, limits: limits)
        func finish(except: [Int]) -> QueryOutcome {
            QueryOutcome { () throws(Diagnostic) in
                try evaluator.finish(
                    query, candidates: records, residual: residual,
                    passed: PassedConjunct(index: 0, exceptRows: except), ordered: false, paged: false)
            }
        }
        #expect(finish(except: []) == .result(.records(records)))
        #expect(finish(except: [0, 2]) == .result(.records(records)))
        #expect(finish(except: [1]) == .failure("limit.regex"))
    }
}

/// A snapshot with no objects, for finishing candidates that point nowhere.
private final class NoObjects: StoredObjects {
    func hasClass(_ className: String) -> Bool { true }
    func object(_ p: Pointer) throws(Diagnostic) -> Record? { nil }
    func objects(in className: String) throws(Diagnostic) -> [Record] { [] }
}
