import QuarryCore
import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// Parallel morsel scans (docs/ARCHITECTURE.md#parallel-scans) against the sequential scan and
/// the reference: the same objects in the same order, the same count, the same first error
/// (code, message and location). Morsels of a few rows make tiny data split into many.
@Suite struct ParallelScanTests {
    static let clock: @Sendable () -> Int64 = { 1_700_000_000_000 }

    static func outcome(_ body: () throws(Diagnostic) -> QueryResult) -> Result<QueryResult, Diagnostic> {
        do throws(Diagnostic) { return .success(try body()) } catch { return .failure(error) }
    }

    static func engine(_ db: Database, _ parallelism: ScanParallelism) -> Engine {
        Engine(database: db, now: clock, random: { 0.5 }, parallelism: parallelism)
    }

    @Test(
        arguments: [(11, 2, 1), (12, 3, 3), (13, 4, 7), (14, 2, 16)]
            + SoakSeeds.seeds([], more: 1000).map { ($0, 2 + Int($0 % 3), 1 + Int($0 % 9)) } as [(UInt64, Int, Int)])
    func randomQueriesAgree(seed: UInt64, threads: Int, morselRows: Int) {
        var random = RandomData(seed: seed)
        let db = random.database(items: 120, others: 6)
        let sequential = Self.engine(db, .sequential)
        let parallel = Self.engine(db, ScanParallelism(threads: threads, morselRows: morselRows))
        let reference = ReferenceEvaluator(database: db, now: Self.clock, random: { 0.5 })
        for _ in 0..<200 {
            let q = random.query(depth: 3)
            let one = Self.outcome { () throws(Diagnostic) in try sequential.run(q) }
            let many = Self.outcome { () throws(Diagnostic) in try parallel.run(q) }
            #expect(many == one, "\(PredicateText.render(q.predicate)) in \(q)")
            // Again, on the cached plan's filter copies with their memos filled by the first run.
            let again = Self.outcome { () throws(Diagnostic) in try parallel.run(q) }
            #expect(again == one, "again: \(PredicateText.render(q.predicate)) in \(q)")
            // The objectIds alone, some copied by the morsels' threads.
            if case .success(.records(let records)) = one {
                if case .rows(let ids)? = try? parallel.runLazily(q) {
                    #expect(ids.objectIds == records.map(\.objectId), "ids: \(PredicateText.render(q.predicate))")
                } else {
                    Issue.record("runLazily gave no rows for \(PredicateText.render(q.predicate))")
                }
            }
            let expected = Self.outcome { () throws(Diagnostic) in try reference.run(q) }
            switch (many, expected) {
            case (.success(let a), .success(let e)): #expect(a == e, "\(PredicateText.render(q.predicate))")
            case (.failure(let a), .failure(let e)): #expect(a.code == e.code, "\(PredicateText.render(q.predicate))")
            default: Issue.record("\(many) vs reference \(expected) for \(PredicateText.render(q.predicate))")
            }
        }
    }

    /// After deletes (fewer than compaction waits for), a parallel scan skips the deleted rows
    /// as the sequential one does, for rows and counts, under random queries.
    @Test(arguments: [(21, 2, 3), (22, 3, 5)] as [(UInt64, Int, Int)])
    func deletedRowsAreNotScanned(seed: UInt64, threads: Int, morselRows: Int) {
        var random = RandomData(seed: seed)
        var db = random.database(items: 120, others: 6)
        let sequential = Self.engine(db, .sequential)
        let parallel = Self.engine(db, ScanParallelism(threads: threads, morselRows: morselRows))
        for i in stride(from: 0, to: 120, by: 7) {
            _ = sequential.delete("i\(i)", from: "Item")
            _ = parallel.delete("i\(i)", from: "Item")
            _ = db.remove("i\(i)", from: "Item")
        }
        let reference = ReferenceEvaluator(database: db, now: Self.clock, random: { 0.5 })
        var queries = [Query(className: "Item", predicate: .constant(true))]
        queries += (0..<150).map { _ in random.query(depth: 2) }
        for var q in queries {
            for counting in [false, true] {
                q.count = counting
                let many = Self.outcome { () throws(Diagnostic) in try parallel.run(q) }
                let one = Self.outcome { () throws(Diagnostic) in try sequential.run(q) }
                let expected = Self.outcome { () throws(Diagnostic) in try reference.run(q) }
                #expect(many == one, "\(PredicateText.render(q.predicate)) count \(counting)")
                if case .success(let e) = expected, case .success(let a) = many {
                    #expect(a == e, "\(PredicateText.render(q.predicate)) count \(counting)")
                }
            }
        }
    }

    /// Rows 0…n-1 with `phrase` "now", except those in `bad`, whose phrase is no relative time:
    /// `$relativeTime` of the key fails on exactly those rows, each with its own message.
    static func phrases(_ n: Int, bad: Set<Int>) -> Database {
        var db = Database()
        for i in 0..<n {
            let phrase = bad.contains(i) ? "not a time \(i)" : "now"
            db.insert(
                Record(objectId: "o\(i)", fields: [("phrase", .string(phrase)), ("n", .int(Int64(i)))]), into: "T")
        }
        return db
    }

    static let failingQuery = Query(
        className: "T",
        predicate: .leaf(
            Leaf(
                .compare(.function(.relativeTime, [.key("phrase")]), .ge, .literal(.date(0)), []),
                semantics: .document)))

    /// The first failing row in row order decides the error, wherever the morsels fall and
    /// whichever thread reaches a later failing row first.
    @Test(arguments: [[37], [5, 6, 90], [60, 3], [99, 0]] as [[Int]])
    func theFirstErrorIsTheSequentialOne(bad: [Int]) throws {
        let db = Self.phrases(100, bad: Set(bad))
        let first = bad.min()!
        for (threads, morselRows) in [(2, 1), (3, 4), (4, 10), (2, 33)] {
            let parallel = Self.engine(db, ScanParallelism(threads: threads, morselRows: morselRows))
            for count in [false, true] {
                var q = Self.failingQuery
                q.count = count
                let result = Self.outcome { () throws(Diagnostic) in try parallel.run(q) }
                let sequential = Self.outcome { () throws(Diagnostic) in try Self.engine(db, .sequential).run(q) }
                #expect(result == sequential)
                guard case .failure(let error) = result else {
                    Issue.record("no error")
                    continue
                }
                #expect(error.code == "date.relative-time")
                #expect(error.message.contains("'not a time \(first)'"), "\(error.message)")
            }
        }
    }

    @Test func withoutFailingRowsEveryRowMatchesInOrder() {
        let db = Self.phrases(100, bad: [])
        let parallel = Self.engine(db, ScanParallelism(threads: 3, morselRows: 7))
        let result = Self.outcome { () throws(Diagnostic) in try parallel.run(Self.failingQuery) }
        #expect(result == .success(.records(db["T"]!.records)))
    }

    /// A LIMIT stops the scan once the morsels done in order hold enough rows: the first rows
    /// in order, as on one thread, also when later morsels finish first.
    @Test func limitsKeepTheFirstRows() throws {
        let db = Self.phrases(200, bad: [])
        let parallel = Self.engine(db, ScanParallelism(threads: 4, morselRows: 3))
        for (skip, limit) in [(0, 1), (0, 5), (7, 10), (190, 20), (0, 0)] {
            var q = Query(
                className: "T",
                predicate: .leaf(Leaf(.compare(.key("n"), .ge, .literal(.int(50)), []), semantics: .document)),
                skip: skip, limit: limit)
            q.profile = .exact
            let ids = try parallel.run(q).objectIds
            #expect(ids == (50..<200).dropFirst(skip).prefix(limit).map { "o\($0)" })
        }
    }

    @Test func countsAgree() throws {
        let db = Self.phrases(1000, bad: [])
        let parallel = Self.engine(db, ScanParallelism(threads: 2, morselRows: 64))
        var q = Query(
            className: "T",
            predicate: .leaf(Leaf(.compare(.key("n"), .lt, .literal(.int(333)), []), semantics: .sql)), count: true)
        #expect(try parallel.run(q) == .count(333))
        q.count = false
        #expect(try parallel.run(q).objectIds == (0..<333).map { "o\($0)" })
    }

    /// `random()` draws numbers in row order: such scans stay on one thread. Regular
    /// expressions do not keep a scan in order (their threads share the regex budget's count).
    @Test func orderDependentPredicatesScanInOrder() {
        let regex = Filter.leaf(
            Leaf(
                .string(.key("phrase"), .matches(RegexOptions(wholeString: false)), .literal(.string("^n")), []),
                semantics: .document))
        let random = Filter.leaf(
            Leaf(.compare(.function(.random, []), .lt, .literal(.double(0.5)), []), semantics: .predicate))
        let plain = Filter.leaf(Leaf(.compare(.key("n"), .lt, .literal(.int(3)), []), semantics: .sql))
        #expect(regex.testsRowsIndependently)
        #expect(!random.testsRowsIndependently)
        #expect(!Filter.not(.and([plain, random])).testsRowsIndependently)
        #expect(Filter.not(.and([plain, regex])).testsRowsIndependently)
        #expect(plain.testsRowsIndependently)
    }

    /// Rows `aaaa…ab` make `(a+)+$` backtrack past the regex ladder's first limit, so each
    /// charges the run's total regex budget; `J` rows charge nothing. On several threads the
    /// morsels charge one shared count: the scan gives the sequential scan's records when they
    /// stay within the budget, and when they run past it the scan runs again in order and fails
    /// as the sequential one does — for budgets spent by the first charging row, partway, and
    /// never.
    @Test(arguments: [UInt64(1), 100_000, 150_000, 10_000_000_000])
    func regexBudgetsAreTheSequentialOnes(total: UInt64) throws {
        var db = Database()
        for i in 0..<90 {
            let name = i % 3 == 0 ? String(repeating: "a", count: 14) + "b\(i)" : "J\(i)"
            db.insert(Record(objectId: "o\(i)", fields: [("name", .string(name))]), into: "T")
        }
        let limits = Limits(regexMatchLimit: 100_000_000, regexJIT: false, regexTotalLimit: total)
        func engine(_ parallelism: ScanParallelism) -> Engine {
            Engine(database: db, limits: limits, now: Self.clock, random: { 0.5 }, parallelism: parallelism)
        }
        let sequential = engine(.sequential)
        let reference = ReferenceEvaluator(database: db, limits: limits, now: Self.clock, random: { 0.5 })
        var failed = false
        var passed = false
        for text in ["name MATCHES '(a+)+$'", "NOT (name MATCHES '(a+)+$') AND name != 'J1'"] {
            let query = try sequential.compile(text, on: "T", dialect: .predicate)
            let one = Self.outcome { () throws(Diagnostic) in try sequential.run(query) }
            #expect(one == Self.outcome { () throws(Diagnostic) in try reference.run(query) })
            for (threads, morselRows) in [(2, 1), (3, 7), (2, 45)] {
                let parallel = engine(ScanParallelism(threads: threads, morselRows: morselRows))
                let many = Self.outcome { () throws(Diagnostic) in try parallel.run(query) }
                #expect(many == one, "\(text), total \(total), \(threads) threads of \(morselRows) rows")
                // The same plan again, its filter copies made.
                #expect(Self.outcome { () throws(Diagnostic) in try parallel.run(query) } == one)
            }
            switch one {
            case .failure(let error):
                #expect(error.code == "limit.regex")
                failed = true
            case .success: passed = true
            }
        }
        // Each budget either fails both queries or passes both (30 rows of 10,000 steps).
        #expect(failed != passed, "total \(total)")
        #expect(failed == (total < 300_000), "total \(total)")
    }

    /// Row 40 fails (`$relativeTime` of a phrase that is none) after rows 0…39 spent the whole
    /// regex budget: row by row, as the reference goes, the query fails at row 40. A batch runs
    /// the regex over rows past 40 before the other test reaches row 40, so the batch is redone
    /// row by row on the budget it started with. On several threads, morsels past row 40 charge
    /// the shared count too, and whichever earlier morsel is then refused would report the
    /// budget instead: the scan is run again in order, and gives row 40's error.
    @Test func aBudgetSpentPastTheFirstErrorIsNotReported() throws {
        func database(_ rows: Int, bad: Int?) -> Database {
            var db = Database()
            for i in 0..<rows {
                let name = i % 3 == 0 ? String(repeating: "a", count: 14) + "b\(i)" : "J"
                let phrase = i == bad ? "not a time \(i)" : "now"
                db.insert(
                    Record(objectId: "o\(i)", fields: [("name", .string(name)), ("phrase", .string(phrase))]),
                    into: "T")
            }
            return db
        }
        let regex = Filter.leaf(
            Leaf(
                .string(.key("name"), .matches(RegexOptions(wholeString: true)), .literal(.string("(a+)+$")), []),
                semantics: .document))
        let query = Query(className: "T", predicate: .and([.not(regex), Self.failingQuery.predicate]))
        func limits(_ total: UInt64) -> Limits {
            Limits(regexMatchLimit: 100_000_000, regexJIT: false, regexTotalLimit: total)
        }
        func outcome(_ db: Database, _ total: UInt64, _ parallelism: ScanParallelism) -> Result<QueryResult, Diagnostic>
        {
            let engine = Engine(
                database: db, limits: limits(total), now: Self.clock, random: { 0.5 }, parallelism: parallelism)
            return Self.outcome { () throws(Diagnostic) in try engine.run(query) }
        }
        // The least budget rows 0…39 fit in (14 rows of 10,000 steps).
        let first40 = database(40, bad: nil)
        var (low, high): (UInt64, UInt64) = (1, 1 << 32)
        while low < high {
            let mid = (low + high) / 2
            if case .success = outcome(first40, mid, .sequential) { high = mid } else { low = mid + 1 }
        }
        #expect(low == 140_000)
        let db = database(90, bad: 40)
        let reference = ReferenceEvaluator(database: db, limits: limits(low), now: Self.clock, random: { 0.5 })
        let sequential = outcome(db, low, .sequential)
        #expect(sequential == Self.outcome { () throws(Diagnostic) in try reference.run(query) })
        guard case .failure(let error) = sequential else {
            Issue.record("no error in order")
            return
        }
        #expect(error.code == "date.relative-time")
        for (threads, morselRows) in [(3, 30), (2, 20), (3, 10)] {
            for _ in 0..<4 {
                #expect(outcome(db, low, ScanParallelism(threads: threads, morselRows: morselRows)) == sequential)
            }
        }
    }

    /// Forked budgets charge one shared count: once their steps together pass what the run's
    /// budget had left, every fork is refused; within it, the run is charged their sum. A fork's
    /// rewind gives its steps back to the count.
    @Test func forkedBudgetsShareOneCount() throws {
        let run = QueryBudget(limits: Limits(regexTotalLimit: 100))
        let shared = run.sharedSteps()
        let (a, b) = (run.forked(sharing: shared), run.forked(sharing: shared))
        try a.chargeRegex(40, pattern: "x")
        let mark = b.regexMark
        try b.chargeRegex(30, pattern: "x")
        #expect(shared.charged == 70)
        b.rewind(to: mark)
        #expect(shared.charged == 40)
        try b.chargeRegex(50, pattern: "x")
        #expect(!shared.exceeded)
        #expect(shared.charged == 90)
        run.absorb(shared)
        // 10 left: the next fork's 11 steps are refused, and from then on any step.
        let next = run.sharedSteps()
        #expect(throws: Diagnostic.self) { try run.forked(sharing: next).chargeRegex(11, pattern: "x") }
        #expect(throws: Diagnostic.self) { try run.forked(sharing: next).chargeRegex(1, pattern: "x") }
        #expect(next.exceeded)
        // The run itself still has its 10; a rewind gives back what it charged since the mark.
        let before = run.regexMark
        try run.chargeRegex(10, pattern: "x")
        #expect(throws: Diagnostic.self) { try run.chargeRegex(1, pattern: "x") }
        run.rewind(to: before)
        try run.chargeRegex(10, pattern: "x")
    }

    /// `Engine.runLazily` on a parallel scan: a morsel that matched few of its rows copies
    /// their objectIds on its own thread (docs/ARCHITECTURE.md#result-sets), the rest are
    /// copied after the scan. Every morsel copying, some, none; a LIMIT cutting the copied ids;
    /// a skip, a sort and deleted rows: always the sequential scan's ids, in its order.
    @Test(arguments: [(2, 64), (3, 64), (4, 80)] as [(Int, Int)])
    func lazyIdsAreTheSequentialOnes(threads: Int, morselRows: Int) throws {
        var db = Database()
        for i in 0..<3000 {
            // Ids of 1 to 14 bytes, so that every copy width is met.
            let id = String(repeating: "x", count: i % 14) + "\(i)"
            db.insert(Record(objectId: id, fields: [("n", .int(Int64(i))), ("k", .int(Int64(i % 50)))]), into: "T")
        }
        let sequential = Self.engine(db, .sequential)
        let parallel = Self.engine(db, ScanParallelism(threads: threads, morselRows: morselRows))
        func leaf(_ key: FieldPath, _ op: ComparisonOperator, _ v: Int64) -> Filter {
            .leaf(Leaf(.compare(.key(key), op, .literal(.int(v)), []), semantics: .sql))
        }
        let few = leaf("k", .eq, 0)  // 1 row in 50: every morsel copies its ids
        let predicates: [Filter] = [
            few,
            leaf("k", .lt, 20),  // 2 in 5: no morsel does
            .or([leaf("n", .lt, 700), few]),  // the first morsels match every row, the others few
            .and([leaf("n", .ge, 2990), few]),  // no row
        ]
        func check(_ q: Query, _ note: String) throws {
            guard case .rows(let lazy) = try parallel.runLazily(q) else {
                Issue.record("a count: \(note)")
                return
            }
            let expected = try sequential.run(q).objectIds
            #expect(lazy.objectIds == expected, "\(note)")
            #expect(lazy.indices.map { i in lazy.withUTF8(at: i) { Array($0) } } == expected.map { Array($0.utf8) })
        }
        for (p, predicate) in predicates.enumerated() {
            for (skip, limit) in [(nil, nil), (nil, 5), (nil, 61), (3, 10), (nil, 0)] as [(Int?, Int?)] {
                var q = Query(className: "T", predicate: predicate, skip: skip, limit: limit)
                q.profile = .exact
                try check(q, "predicate \(p) skip \(skip as Any) limit \(limit as Any)")
                q.order = [.key("n", .descending)]
                try check(q, "predicate \(p) sorted, skip \(skip as Any) limit \(limit as Any)")
            }
        }
        for i in stride(from: 0, to: 3000, by: 7) {
            let id = String(repeating: "x", count: i % 14) + "\(i)"
            #expect(sequential.delete(id, from: "T") && parallel.delete(id, from: "T"))
        }
        for (p, predicate) in predicates.enumerated() {
            var q = Query(className: "T", predicate: predicate)
            q.profile = .exact
            try check(q, "predicate \(p) after deletes")
        }
    }

    /// An ORDER BY with a LIMIT on a parallel scan: each morsel keeps its own first rows in
    /// that order (docs/ARCHITECTURE.md#parallel-scans). Keys with many ties, missing and null
    /// values, both directions, two keys, a skip: the sequential scan's rows, in its order.
    @Test(arguments: [(2, 64), (3, 40)] as [(Int, Int)])
    func sortedPagesAreTheSequentialOnes(threads: Int, morselRows: Int) throws {
        var db = Database()
        for i in 0..<3000 {
            var fields: [(String, Value)] = [("n", .int(Int64(i)))]
            switch i % 23 {
            case 0: break  // k missing
            case 1: fields.append(("k", .null))
            case 2: fields.append(("k", .string("s\(i % 3)")))
            default: fields.append(("k", .int(Int64(i % 50))))
            }
            fields.append(("d", .double(Double((i * 7919) % 1000) / 10)))
            db.insert(Record(objectId: "o\(i)", fields: fields), into: "T")
        }
        let sequential = Self.engine(db, .sequential)
        let parallel = Self.engine(db, ScanParallelism(threads: threads, morselRows: morselRows))
        let reference = ReferenceEvaluator(database: db, now: Self.clock, random: { 0.5 })
        let orders: [[SortKey]] = [
            [.key("k", .ascending)], [.key("k", .descending)], [.key("k", .ascending), .key("d", .descending)],
            [.key("d", .ascending)],
        ]
        let predicates: [Filter] = [
            .constant(true),
            .leaf(Leaf(.compare(.key("n"), .ge, .literal(.int(100)), []), semantics: .sql)),
        ]
        for order in orders {
            for predicate in predicates {
                for (skip, limit) in [(nil, 1), (nil, 7), (3, 10), (nil, 2000)] as [(Int?, Int?)] {
                    var q = Query(className: "T", predicate: predicate, order: order, skip: skip, limit: limit)
                    q.profile = .exact
                    let expected = try sequential.run(q)
                    #expect(try parallel.run(q) == expected, "\(order) skip \(skip as Any) limit \(limit as Any)")
                    #expect(try reference.run(q) == expected, "\(order) skip \(skip as Any) limit \(limit as Any)")
                    guard case .rows(let ids) = try parallel.runLazily(q) else {
                        Issue.record("a count")
                        continue
                    }
                    #expect(ids.objectIds == expected.objectIds)
                }
            }
        }
    }
}
