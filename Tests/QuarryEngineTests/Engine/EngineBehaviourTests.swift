import QuarryCore
import Testing

@testable import QuarryEngine

/// Behaviour the random tests reach only by chance: errors surfacing exactly where the
/// reference's left-to-right evaluation meets them, the deadline, cancellation, inner-query
/// limits over many rows, and each access path on a known dataset.
@Suite struct EngineBehaviourTests {
    /// 300 rows: n = 0…299, s a string that makes a nested quantifier backtrack past the
    /// match budget on every 50th row.
    static let rows: Database = {
        var records: [Record] = []
        for i in 0..<300 {
            let s: String = i % 50 == 0 ? String(repeating: "a", count: 40) + "!" : "b\(i)"
            let tag: String = ["x", "y", "z"][i % 3]
            records.append(
                Record(objectId: "r\(i)", fields: [("n", .int(Int64(i))), ("s", .string(s)), ("tag", .string(tag))]))
        }
        return database(("R", records))
    }()

    /// A regex that exceeds a small match budget on the long strings only.
    static let costly = Filter.leaf(
        .string(.key("s"), .matches(RegexOptions(wholeString: true)), .literal("(a+)+$"), []), .sql)
    static let tight = Limits(regexMatchLimit: 2000)

    static func outcome(_ engine: Engine, _ q: Query) -> EngineAgreementTests.Outcome {
        EngineAgreementTests.outcome { () throws(Diagnostic) in try engine.run(q) }
    }

    static func reference(_ q: Query, _ limits: Limits = tight) -> EngineAgreementTests.Outcome {
        EngineAgreementTests.outcome { () throws(Diagnostic) in
            try ReferenceEvaluator(database: rows, limits: limits).run(q)
        }
    }

    /// The regex fails only on rows that reach it: behind a conjunct no long string passes,
    /// nothing fails, even when an index drives the scan or the conjuncts are reordered.
    @Test(arguments: [false, true])
    func errorsSurfaceOnlyWhereTheReferenceMeetsThem(indexed: Bool) throws {
        let engine = Engine(database: Self.rows, limits: Self.tight)
        if indexed { try engine.createIndex(.ordered, on: "n", in: "R") }
        let cases: [Filter] = [
            Self.costly,
            .and([compare("n", .gt, 10, .sql), compare("n", .lt, 49, .sql), Self.costly]),
            .and([Self.costly, compare("n", .gt, 10, .sql)]),
            .and([compare("tag", .eq, "y", .sql), Self.costly]),
            .or([compare("n", .ge, 0, .sql), Self.costly]),
            .or([compare("n", .lt, 100, .sql), Self.costly]),
            .and([compare("n", .eq, 51, .sql), Self.costly, compare("n", .eq, 50, .sql)]),
        ]
        for p in cases {
            for limit in [nil, 1] as [Int?] {
                let q = Query(className: "R", predicate: p, limit: limit)
                #expect(
                    Self.outcome(engine, q) == Self.reference(q),
                    "\(PredicateText.render(p)) limit \(String(describing: limit))")
            }
        }
        #expect(Self.outcome(engine, Query(className: "R", predicate: Self.costly)) == .failure("limit.regex"))
    }

    /// Two parts that fail on different rows: the error is the one of the first failing row,
    /// as the reference meets it going row by row.
    @Test func theFirstFailingRowDecidesTheError() throws {
        var records: [Record] = []
        for i in 0..<300 {
            var fields: [(String, Value)] = [
                ("s", .string(i >= 100 && i % 50 == 0 ? String(repeating: "a", count: 40) + "!" : "b"))
            ]
            if i == 50 { fields.append(("when", .date(0))) }
            records.append(Record(objectId: "r\(i)", fields: fields))
        }
        let db = database(("R", records))
        let engine = Engine(database: db, limits: Self.tight)
        let badDate = Filter.leaf(.compare(.key("when"), .gt, .literal("not a date"), []), .sql)
        for p in [
            Filter.or([Self.costly, badDate]), .or([badDate, Self.costly]), .and([.not(badDate), Self.costly]),
        ] {
            let q = Query(className: "R", predicate: p)
            let expected = EngineAgreementTests.outcome { () throws(Diagnostic) in
                try ReferenceEvaluator(database: db, limits: Self.tight).run(q)
            }
            #expect(Self.outcome(engine, q) == expected, "\(PredicateText.render(p))")
        }
        #expect(
            Self.outcome(engine, Query(className: "R", predicate: .or([Self.costly, badDate])))
                == .failure("date.unparseable"))
    }

    /// Checked before any row is read, so the error does not depend on which rows reach the
    /// pattern, and located at the leaf's text.
    @Test func anInvalidRegexFailsBeforeAnyRowIsRead() throws {
        let range = SourceRange(offset: 7, length: 3)
        let bad = Filter.leaf(
            Leaf(
                .string(.key("s"), .matches(RegexOptions(wholeString: false)), .literal("("), []),
                semantics: .sql, range: range))
        let engine = Engine(database: Self.rows)
        let reached = Query(className: "R", predicate: .and([compare("n", .eq, 3, .sql), bad]))
        let never = Query(className: "R", predicate: .and([compare("n", .eq, 1000, .sql), bad]))
        for query in [reached, never] {
            #expect(Self.outcome(engine, query) == .failure("regex.invalid"))
            #expect(Self.outcome(engine, query) == Self.reference(query, .default))
            #expect(throws: Diagnostic.self) { try engine.run(query) }
            do throws(Diagnostic) { _ = try engine.run(query) } catch { #expect(error.range == range) }
        }
    }

    @Test func theDeadlineStopsLongScans() {
        let engine = Engine(database: Self.rows, limits: Limits(deadlineSeconds: 0))
        #expect(
            Self.outcome(engine, Query(className: "R", predicate: compare("n", .gt, 3, .sql)))
                == .failure("limit.deadline"))
    }

    @Test func cancellationStopsTheQuery() async {
        let engine = Engine(database: Self.rows)
        let task = Task { () -> EngineAgreementTests.Outcome in
            withUnsafeCurrentTask { $0?.cancel() }
            return Self.outcome(engine, Query(className: "R", predicate: compare("n", .gt, 3, .sql)))
        }
        #expect(await task.value == .failure("query.cancelled"))
    }

    /// Parse's inner-query limit keeps the first 100 rows in the inner query's own order;
    /// the outer query sees exactly those, with or without an index on the pointer.
    @Test(arguments: [false, true])
    func innerQueryLimitsKeepTheReferencesRows(indexed: Bool) throws {
        let targets = (0..<250).map { record("t\($0)", ["k": .int(Int64(($0 * 37) % 250))]) }
        let sources = (0..<500).map {
            record("s\($0)", ["t": pointer("T", "t\($0 % 250)"), "v": .string("t\($0 % 250)")])
        }
        let db = database(("T", targets), ("S", sources))
        let engine = Engine(database: db)
        if indexed {
            try engine.createIndex(.hash, on: "t", in: "S")
            try engine.createIndex(.ordered, on: "v", in: "S")
        }
        let reference = ReferenceEvaluator(database: db)
        for order in [[], [SortKey.key("k", .descending)]] {
            for profile in [Profile.parse, .exact] {
                let inner = Query(
                    className: "T", predicate: compare("k", .ge, 10, .document), order: order, profile: profile)
                for p in [
                    Filter.leaf(.inQuery("t", inner), .document),
                    .leaf(.select("v", inner, innerKey: "objectId"), .document),
                    .leaf(.inQuery("t", inner), negated: true, .document),
                ] {
                    let q = Query(className: "S", predicate: p, count: true)
                    #expect(try engine.run(q) == reference.run(q))
                }
            }
        }
    }

    @Test func innerQueriesOverTheRowCapFailWhenReached() throws {
        let engine = Engine(database: Self.rows, limits: Limits(maxInnerRows: 10))
        let inner = Query(className: "R", predicate: compare("n", .ge, 0, .sql))
        let q = Query(className: "R", predicate: .leaf(.select("tag", inner, innerKey: "tag"), .sql))
        #expect(Self.outcome(engine, q) == .failure("limit.inner-rows"))
        let unreached = Query(
            className: "R",
            predicate: .and([compare("n", .lt, 0, .sql), .leaf(.select("tag", inner, innerKey: "tag"), .sql)]))
        #expect(try engine.run(unreached).records.isEmpty)
    }

    /// ORDER BY through an ordered index: ties in row order, nulls first ascending and last
    /// descending, secondary keys sorting each group, the page after skip.
    @Test(arguments: [SortDirection.ascending, .descending])
    func orderByIndexWalk(direction: SortDirection) throws {
        var records: [Record] = []
        for i in 0..<600 {
            var fields: [(String, Value)] = [("g", .int(Int64(i % 7)))]
            if i % 11 != 0 { fields.append(("k", i % 13 == 0 ? .null : .double(Double(i % 5) / 2))) }
            records.append(Record(objectId: "o\(i)", fields: fields))
        }
        let db = Database([ClassData(name: "O", records: records)])
        let engine = Engine(database: db)
        try engine.createIndex(.ordered, on: "k", in: "O")
        let reference = ReferenceEvaluator(database: db)
        for rest in [[], [SortKey.key("g", .descending)]] {
            for (skip, limit) in [(0, 5), (7, 9), (0, 600)] {
                let q = Query(
                    className: "O", predicate: compare("g", .ne, 3, .document), order: [.key("k", direction)] + rest,
                    skip: skip, limit: limit)
                if limit < 10 { #expect(try engine.plan(q).plan.ordered) }
                #expect(try engine.run(q).objectIds == reference.run(q).objectIds)
            }
        }
    }

    /// Each access path, chosen where it pays, returns the reference's rows.
    @Test func accessPathsOnAKnownDataset() throws {
        let engine = Engine(database: Self.rows)
        try engine.createIndex(.hash, on: "tag", in: "R")
        try engine.createIndex(.ordered, on: "n", in: "R")
        let reference = ReferenceEvaluator(database: Self.rows)
        let cases: [(Filter, String)] = [
            (compare("n", .eq, 42, .sql), "ordered index on n = 42"),
            (.and([compare("n", .ge, 100, .sql), compare("n", .lt, 103, .sql)]), "range on n >= 100 AND < 103"),
            (.or([compare("n", .eq, 1, .sql), compare("n", .eq, 299, .sql)]), "IN (1, 299)"),
            (.and([compare("n", .lt, 30, .document), compare("tag", .eq, "x", .document)]), "range on n < 30"),
            (
                .and([
                    compare("n", .lt, 30, .document), compare("n", .gt, 20, .sql), compare("tag", .eq, "x", .document),
                ]), "intersection"
            ),
            (.leaf(.string(.key("s"), .beginsWith, .literal("b1"), []), .sql), "full scan"),
            (.and([compare("n", .gt, 5, .sql), compare("n", .lt, 3, .sql)]), "nothing"),
        ]
        for (p, path) in cases {
            let q = Query(className: "R", predicate: p)
            let label = try engine.plan(q).plan.source.label
            #expect(label.contains(path), "\(PredicateText.render(p)): \(label)")
            #expect(try engine.run(q) == reference.run(q))
        }
    }

    @Test func storageAnswersThePlannersQuestions() throws {
        let engine = Engine(database: Self.rows)
        try engine.createIndex(.ordered, on: "n", in: "R")
        try engine.createIndex(.hash, on: "tag", in: "R")
        let storage = engine.storage
        #expect(storage.rowCount(of: "R") == 300)
        #expect(storage.rowCount(of: "Nope") == nil)
        #expect(storage.indexKinds(on: "n", in: "R") == [.ordered])
        #expect(storage.indexKinds(on: "s", in: "R") == [])
        #expect(storage.estimatedRows(for: .equal(["x", "y"]), on: "tag", in: "R") == 200)
        #expect(
            storage.estimatedRows(
                for: .range(lower: 10, lowerInclusive: true, upper: 20, upperInclusive: false),
                on: "n", in: "R") == 10)
        #expect(storage.estimatedRows(for: .prefix("b"), on: "tag", in: "R") == nil)
        let n = try #require(storage.statistics(of: "n", in: "R"))
        #expect(n.rowCount == 300 && n.nullCount == 0 && n.missingCount == 0 && !n.multiValued)
        #expect(n.min == 0 && n.max == 299)
        #expect(abs(n.distinctEstimate - 300) < 45)
        // The ordered index on n keeps its bounds exact as rows go.
        engine.delete("r299", from: "R")
        #expect(storage.statistics(of: "n", in: "R")?.max == 298)
        engine.refreshStatistics(of: "R")
        #expect(storage.statistics(of: "n", in: "R")?.max == 298)
    }

    @Test func indexDeclarationErrors() {
        let engine = Engine(database: Self.rows)
        #expect(errorCode { try engine.createIndex(.hash, on: "n", in: "Nope") } == "index.unknown-class")
        #expect(errorCode { try engine.createIndex(.hash, on: FieldPath([""]), in: "R") } == "index.invalid-key")
        #expect(errorCode { try engine.createIndex(.hash, on: "n", in: "R") } == nil)
        #expect(engine.dropIndex(.hash, on: "n", in: "R"))
        #expect(!engine.dropIndex(.hash, on: "n", in: "R"))
    }
}
