import Quarry
import Testing

/// Every cap in `Limits` at its edge, in every dialect that can reach it: the cap itself is
/// accepted, one more is rejected with the cap's code and a location.
@Suite struct CapEdgeTests {
    let database: Database
    init() throws {
        let fixture = try DataFixture(
            #"""
            {"T": [{"objectId": "t1", "n": 1, "s": "aaaaaaaaaaaaaaaa!", "owner": {"__type": "Pointer", "className": "O", "objectId": "o1"}},
                   {"objectId": "t2", "n": 2, "s": "aaaaaaaaaaaaaaab!"},
                   {"objectId": "t3", "n": 3, "s": "aaaaaaaaaaaaaaac!"}],
             "O": [{"objectId": "o1", "n": 1}, {"objectId": "o2", "n": 2}, {"objectId": "o3", "n": 3}]}
            """#)
        database = try Database(contentsOfFile: fixture.path)
    }

    /// Compiles and runs `text`; the error (code and whether it is located) or nil.
    private func outcome(_ text: String, _ dialect: Dialect, _ limits: Limits) -> (code: String, located: Bool)? {
        do throws(Diagnostics) {
            let query = try dialect.compile(
                text, className: "T", options: CompileOptions(schema: database, limits: limits))
            do throws(Diagnostic) {
                _ = try Engine(database: database, limits: limits).run(query)
                _ = try ReferenceEvaluator(database: database, limits: limits).run(query)
                return nil
            } catch {
                return (error.code, error.range != nil)
            }
        } catch {
            return (error.all[0].code, error.all[0].range != nil)
        }
    }

    /// `make(cap)` passes and `make(cap + 1)` fails with `code`, located.
    private func edge(
        _ code: String, _ dialect: Dialect, _ limits: Limits, cap: Int,
        _ make: (Int) -> String
    ) {
        #expect(outcome(make(cap), dialect, limits) == nil, "\(dialect) at the cap: \(make(cap).prefix(80))")
        let over = outcome(make(cap + 1), dialect, limits)
        #expect(over?.code == code, "\(dialect) over the cap: \(make(cap + 1).prefix(80))")
        #expect(over?.located == true, "\(dialect) over the cap is located")
    }

    @Test func queryLength() {
        let limits = Limits(maxQueryLength: 40)
        func padded(_ s: String) -> (Int) -> String { { s + String(repeating: " ", count: $0 - s.utf8.count) } }
        edge("limit.query-length", .sql, limits, cap: 40, padded("n = 1"))
        edge("limit.query-length", .predicate, limits, cap: 40, padded("n == 1"))
        edge("limit.query-length", .json, limits, cap: 40, padded(#"{"n":1}"#))
    }

    @Test func nestingDepth() {
        let limits = Limits(maxNestingDepth: 6)
        edge("limit.nesting", .sql, limits, cap: 6) {
            String(repeating: "(", count: $0) + "n = 1" + String(repeating: ")", count: $0)
        }
        edge("limit.nesting", .sql, limits, cap: 6) { String(repeating: "NOT ", count: $0) + "n = 1" }
        edge("limit.nesting", .predicate, limits, cap: 6) {
            String(repeating: "(", count: $0) + "n == 1" + String(repeating: ")", count: $0)
        }
        edge("limit.nesting", .predicate, limits, cap: 6) { String(repeating: "NOT ", count: $0) + "n == 1" }
        edge("limit.nesting", .json, limits, cap: 6) {
            String(repeating: #"{"$and":["#, count: $0) + #"{"n":1}"# + String(repeating: "]}", count: $0)
        }
    }

    @Test func inListSize() {
        let limits = Limits(maxInListSize: 3)
        func items(_ n: Int) -> String { (1...n).map(String.init).joined(separator: ",") }
        edge("limit.in-list", .sql, limits, cap: 3) { "n IN (\(items($0)))" }
        edge("limit.in-list", .predicate, limits, cap: 3) { "n IN {\(items($0))}" }
        edge("limit.in-list", .json, limits, cap: 3) { #"{"n":{"$in":[\#(items($0))]}}"# }
    }

    @Test func subqueryCount() {
        let limits = Limits(maxSubqueries: 2)
        edge("limit.subqueries", .sql, limits, cap: 2) { n in
            (1...n).map { _ in "owner IN (O[n > 0].objectId)" }.joined(separator: " AND ")
        }
        edge("limit.subqueries", .predicate, limits, cap: 2) { n in
            (1...n).map { _ in "SUBQUERY({1, 2}, $x, $x > 0).@count > 0" }.joined(separator: " AND ")
        }
        edge("limit.subqueries", .json, limits, cap: 2) { n in
            "{" + (1...n).map { i in #""f\#(i)":{"$inQuery":{"className":"O","where":{}}}"# }.joined(separator: ",")
                + "}"
        }
    }

    @Test func subqueryDepth() {
        let limits = Limits(maxSubqueryDepth: 2)
        func nested(_ level: Int, _ n: Int) -> String {
            level > n ? "$x\(n) > 0" : "SUBQUERY({1, 2}, $x\(level), \(nested(level + 1, n))).@count > 0"
        }
        edge("limit.subquery-depth", .predicate, limits, cap: 2) { nested(1, $0) }
        edge("limit.subquery-depth", .json, limits, cap: 2) { n in
            var w = "{}"
            for _ in 0..<n { w = #"{"owner":{"$inQuery":{"className":"O","where":\#(w)}}}"# }
            return w
        }
    }

    @Test func innerRows() {
        let limits = Limits(maxInnerRows: 2)
        edge("limit.inner-rows", .json, limits, cap: 2) { n in
            #"{"owner":{"$inQuery":{"className":"O","where":{"n":{"$lte":\#(n)}}}}}"#
        }
        edge("limit.inner-rows", .sql, limits, cap: 2) { n in "owner IN (O[n <= \(n)].objectId)" }
    }

    /// The smallest value of a regex cap under which `text` runs, found by bisection; then that
    /// value passes and one less fails with `limit.regex`, located at the pattern.
    private func regexEdge(
        _ text: String, _ dialect: Dialect, _ set: (inout Limits, UInt64) -> Void,
        upTo high: UInt64
    ) {
        func limits(_ v: UInt64) -> Limits { var l = Limits.default; set(&l, v); return l }
        var lo: UInt64 = 0, hi = high
        #expect(outcome(text, dialect, limits(hi)) == nil, "the pattern runs under \(hi)")
        while lo + 1 < hi {
            let mid = lo + (hi - lo) / 2
            if outcome(text, dialect, limits(mid)) == nil { hi = mid } else { lo = mid }
        }
        #expect(outcome(text, dialect, limits(hi)) == nil)
        let over = outcome(text, dialect, limits(hi - 1))
        #expect(over?.code == "limit.regex", "\(text) under \(hi - 1)")
        #expect(over?.located == true)
    }

    @Test func regexMatchLimit() {
        regexEdge(#"{"s":{"$regex":"(a+)+$"}}"#, .json, { $0.regexMatchLimit = UInt32($1) }, upTo: 10_000_000)
        regexEdge("s MATCHES '(a|aa)+!'", .predicate, { $0.regexMatchLimit = UInt32($1) }, upTo: 10_000_000)
    }

    @Test func regexDepthLimit() {
        // The depth limit bounds PCRE2's interpreter (JIT matching has its own stack instead).
        regexEdge(
            #"{"s":{"$regex":"^((a)|b)*!$"}}"#, .json,
            {
                $0.regexJIT = false
                $0.regexDepthLimit = UInt32($1)
            }, upTo: 10_000)
    }

    @Test func regexTotalLimit() {
        // Each row costs one rung of the match-limit ladder; the total is their sum.
        regexEdge(#"{"s":{"$regex":"(a+)+$"}}"#, .json, { $0.regexTotalLimit = $1 }, upTo: 100_000_000)
    }

    @Test func deadline() {
        // A spent deadline fails before the first row; none lets the query run.
        var limits = Limits.default
        limits.deadlineSeconds = 0
        #expect(outcome(#"{"n":1}"#, .json, limits)?.code == "limit.deadline")
        limits.deadlineSeconds = nil
        #expect(outcome(#"{"n":1}"#, .json, limits) == nil)
    }
}
