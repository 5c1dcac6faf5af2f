import Testing
import QuarryCore
import QuarrySQL

/// Every class of bad input: its code and exactly where it points (line:column+length in
/// Unicode scalars, as `SourceText` reports them).
@Suite struct DiagnosticTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var text: String
        var code: String
        var line: Int
        var column: Int
        var length: Int
        var testDescription: String { text }
        init(_ text: String, _ code: String, _ line: Int, _ column: Int, _ length: Int) {
            self.text = text
            self.code = code
            self.line = line
            self.column = column
            self.length = length
        }
    }

    static let syntaxCases: [Case] = [
        // Lexical
        .init("age > 5 # x", "lex.unexpected-character", 1, 9, 1),
        .init("name = \"foo\"", "lex.unexpected-character", 1, 8, 1),
        .init("name = 'é' AND ☃", "lex.unexpected-character", 1, 16, 1),
        .init("a ! b", "lex.unexpected-character", 1, 3, 1),
        .init("name IN ('value1', 'value2', 'value3)", "lex.unterminated-string", 1, 30, 1),
        .init("name = 'it''s", "lex.unterminated-string", 1, 8, 1),
        .init("`abc = 1", "lex.unterminated-identifier", 1, 1, 1),
        .init("age = 9223372036854775808", "lex.number-out-of-range", 1, 7, 19),
        .init("age = -9223372036854775809", "lex.number-out-of-range", 1, 7, 20),
        .init("age = 99999999999999999999", "lex.number-out-of-range", 1, 7, 20),
        .init("x = 1e999", "lex.number-out-of-range", 1, 5, 5),
        .init("x = 1. AND y = 2", "lex.invalid-number", 1, 5, 2),
        .init("x = 1e+ AND y = 2", "lex.invalid-number", 1, 5, 3),
        .init("x = 12abc", "lex.invalid-number", 1, 7, 1),
        .init("`` = 1", "syntax.invalid-identifier", 1, 1, 2),
        .init("`a.b` = 1", "syntax.invalid-identifier", 1, 1, 5),
        // Unexpected and missing tokens
        .init("age > AND name = 'x'", "syntax.unexpected-token", 1, 7, 3),
        .init("age >", "syntax.unexpected-end", 1, 6, 0),
        .init("", "syntax.unexpected-end", 1, 1, 0),
        .init("  \u{00A0}\n ", "syntax.unexpected-end", 2, 2, 0),
        .init("= 5", "syntax.unexpected-token", 1, 1, 1),
        .init("a = 1 b = 2", "syntax.unexpected-token", 1, 7, 1),
        .init("a = 1)", "syntax.unexpected-token", 1, 6, 1),
        .init("(a = 1", "syntax.unexpected-end", 1, 7, 0),
        .init("name = 'a' AND", "syntax.unexpected-end", 1, 15, 0),
        .init("name IS 5", "syntax.unexpected-token", 1, 9, 1),
        .init("name IS NOT 5", "syntax.unexpected-token", 1, 13, 1),
        .init("name LIKE 5", "syntax.unexpected-token", 1, 11, 1),
        .init("name LIKE 'a' ESCAPE 5", "syntax.unexpected-token", 1, 22, 1),
        .init("name IN 1", "syntax.unexpected-token", 1, 9, 1),
        .init("name IN ()", "syntax.unexpected-token", 1, 10, 1),
        .init("name IN (1,)", "syntax.unexpected-token", 1, 12, 1),
        .init("name IN (1 2)", "syntax.unexpected-token", 1, 12, 1),
        .init("name IN (a, b)", "syntax.unexpected-token", 1, 11, 1),
        .init("age BETWEEN 1 5", "syntax.unexpected-token", 1, 15, 1),
        .init("name NOT = 5", "syntax.unexpected-token", 1, 10, 1),
        .init("and = 1", "syntax.unexpected-token", 1, 1, 3),
        .init("age = - 'x'", "syntax.unexpected-token", 1, 9, 3),
        .init("x = P[r].c", "syntax.unexpected-token", 1, 5, 1),
        .init("x IN (Comment)", "syntax.unexpected-token", 1, 14, 1),
        .init("x IN (Comment[a = 1)", "syntax.unexpected-token", 1, 20, 1),
        .init("x IN (Comment[].a)", "syntax.unexpected-token", 1, 15, 1),
        .init("P[r]", "syntax.unexpected-end", 1, 5, 0),
        .init("P[r].c", "syntax.unexpected-end", 1, 7, 0),
        .init("P[].c = 1", "syntax.unexpected-token", 1, 3, 1),
        .init("updated at after 5", "syntax.unexpected-token", 1, 12, 5),
        .init("updated at or 5", "syntax.unexpected-token", 1, 15, 1),
        .init("name = 1\n  AND age >\n  OR b = 2", "syntax.unexpected-token", 3, 3, 2),
        // Functions
        .init("foo(1) = 2", "syntax.unknown-function", 1, 1, 3),
        .init("age > mi(5)", "syntax.unknown-function", 1, 7, 2),
        .init("age = upper(name)", "syntax.unknown-function", 1, 7, 5),
        .init("distance(1, 2, c.latitude) < mi(1)", "syntax.wrong-arity", 1, 1, 26),
        .init("Within(a) = TRUE", "syntax.wrong-arity", 1, 1, 9),
        .init("distance(1, 2, c.latitude, c.longitude) < mi(1, 2)", "syntax.wrong-arity", 1, 43, 8),
        .init("distance(1, 2, c.latitude, c.longitude) < mi()", "syntax.wrong-arity", 1, 43, 4),
        // distance()
        .init("distance(1, 2, c.latitude, c.longitude) < nm(5)", "geo.unknown-unit", 1, 43, 2),
        .init("distance(1, 2, c.latitude, c.longitude) != mi(5)", "geo.distance-operator", 1, 41, 2),
        .init("distance(1, 2, c.latitude, c.longitude) <> mi(5)", "geo.distance-operator", 1, 41, 2),
        .init("distance(1, 2, c.latitude, c.longitude) at or after mi(5)", "geo.distance-operator", 1, 41, 11),
        .init("distance(1, 2, c.latitude, c.longitude) < 200", "geo.distance-needs-unit", 1, 43, 3),
        .init("distance(1, 2, c.latitude, c.longitude) < -2.5", "geo.distance-needs-unit", 1, 43, 4),
        .init("distance(1, 2, c.latitude, c.longitude) LIKE 'x'", "syntax.unexpected-token", 1, 41, 4),
        .init("distance('x', 2, a.latitude, a.longitude) < mi(1)", "syntax.unexpected-token", 1, 10, 3),
        .init("distance(1, 2, 3, a.longitude) < mi(1)", "syntax.unexpected-token", 1, 16, 1),
        .init("distance(1, 2, c.latitude, c.longitude) < mi('x')", "syntax.unexpected-token", 1, 46, 3),
        // Within()
        .init("Within(g, 'POLYGON((1 2, 3 4, 5 6, 1 2))') != TRUE", "geo.within-comparison", 1, 44, 2),
        .init("Within(g, 'POLYGON((1 2, 3 4, 5 6, 1 2))') = 1", "geo.within-comparison", 1, 46, 1),
        .init("Within(g, 5) = TRUE", "syntax.unexpected-token", 1, 11, 1),
        // Unclosed group
        .init("a = 1 AND (b = 2 OR c", "syntax.unexpected-end", 1, 22, 0),
    ]

    static let loweringCases: [Case] = [
        .init("distance(1, 2, a.latitude, b.longitude) < mi(1)", "geo.distance-key-mismatch", 1, 28, 11),
        .init("distance(1, 2, a.lat, a.longitude) < mi(1)", "geo.distance-arguments", 1, 16, 5),
        .init("distance(1, 2, latitude, longitude) < mi(1)", "geo.distance-arguments", 1, 16, 8),
        .init("distance(91, 2, a.latitude, a.longitude) < mi(1)", "geo.invalid-coordinate", 1, 10, 2),
        .init("distance(1, -180.5, a.latitude, a.longitude) < mi(1)", "geo.invalid-coordinate", 1, 13, 6),
        .init("Within(g, 'POLYGON((1 2, 3 4, 5 6, 1 3))') = TRUE", "geo.invalid-wkt", 1, 36, 3),
        .init("Within(g, 'POLYGON((1 2, 3 4, 1 2))') = TRUE", "geo.invalid-wkt", 1, 12, 24),
        .init("Within(g, 'POINT(1 2)') = TRUE", "geo.invalid-wkt", 1, 12, 7),
        .init("Within(g, 'POLYGON((1 2, 3 4, 5 6, 1 2), (0 0, 1 1, 1 0, 0 0))') = TRUE", "geo.invalid-wkt", 1, 40, 1),
        .init("Within(g, 'POLYGON((1 2, 3 4, 5 6, 1 2)) x') = TRUE", "geo.invalid-wkt", 1, 42, 1),
        .init("Within(g, 'POLYGON((1 2, 3 x4, 5 6, 1 2))') = TRUE", "geo.invalid-wkt", 1, 28, 1),
        .init("Within(g, 'POLYGON((1 2, 3 4, 5 6, 1 2)') = TRUE", "geo.invalid-wkt", 1, 40, 1),
        .init("Within(g, 'POLYGON((1 2 3 4, 5 6, 1 2))') = TRUE", "geo.invalid-wkt", 1, 25, 1),
        .init("Within(g, 'POLYGON((200 2, 3 4, 5 6, 200 2))') = TRUE", "geo.invalid-coordinate", 1, 21, 3),
        .init("Within(g, 'POLYGON((1 95, 3 4, 5 6, 1 95))') = TRUE", "geo.invalid-coordinate", 1, 23, 2),
        .init("name LIKE 'a%' ESCAPE 'ab'", "like.invalid-escape", 1, 23, 4),
        .init("name LIKE 'a%' ESCAPE ''", "like.invalid-escape", 1, 23, 2),
        .init("name LIKE 'abc!' ESCAPE '!'", "like.trailing-escape", 1, 15, 1),
        .init("name LIKE 'it''' ESCAPE ''''", "like.trailing-escape", 1, 14, 2),
        .init("name LIKE 'a\\\\\\' ESCAPE '\\'", "like.trailing-escape", 1, 15, 1),
        .init("5 LIKE 'x'", "type.mismatch", 1, 1, 1),
        .init("name = NULL", "query.null-comparison", 1, 8, 4),
        .init("name != null", "query.null-comparison", 1, 9, 4),
        .init("name IN ('a', NULL)", "query.null-comparison", 1, 15, 4),
        .init("NULL = name", "query.null-comparison", 1, 1, 4),
        .init("age BETWEEN NULL AND 5", "query.null-comparison", 1, 13, 4),
        .init("updated after 'yesterday'", "date.unparseable", 1, 15, 11),
        .init("updated after TRUE", "type.mismatch", 1, 15, 4),
        .init("updated after 1.5", "type.mismatch", 1, 15, 3),
        .init("'x' IN (Comment.a)", "syntax.unexpected-token", 1, 1, 3),
    ]

    @Test(arguments: syntaxCases + loweringCases)
    func located(_ c: Case) {
        expectError(c.text, c.code, at: c.line, c.column, length: c.length)
    }

    @Test func messagesSayWhatWasExpectedAndFound() {
        #expect(failure("age > AND name = 'x'")?.message == "expected a value after '>' but found 'AND'")
        #expect(failure("age >")?.message == "expected a value after '>' but found the end of the query")
        #expect(failure("a = 1 b = 2")?.message == "expected AND, OR or the end of the query after '1' but found 'b'")
        #expect(
            failure("name = 'a' 'b'")?.message == "expected AND, OR or the end of the query after 'a' but found 'b'")
        #expect(failure("name IS 5")?.message == "expected NULL or NOT NULL after 'IS' but found '5'")
        #expect(failure("and = 1")?.message.contains("`and`") == true)
        #expect(
            failure("distance(1, 2, c.latitude, c.longitude) != mi(5)")?.message
                == "distance(…) can be compared only with <, >, =, >= or <=, not '!='")
        #expect(
            failure("distance(1, 2, c.latitude, c.longitude) < nm(5)")?.message
                == "unknown unit 'nm'; the units are ft(x), yd(x), mi(x), km(x), m(x)")
        #expect(failure("distance(1, 2, c.latitude, c.longitude) < 200")?.message.contains("mi(200)") == true)
        #expect(failure("name = NULL")?.message.contains("IS NULL") == true)
        #expect(failure("name IN ('a', NULL)")?.message.contains("name IS NULL") == true)
        #expect(failure("name = \"foo\"")?.message.contains("single quotes") == true)
        #expect(
            failure("foo(1) = 2")?.message == "unknown function 'foo'; a condition can call distance(…) or Within(…)")
    }

    @Test func unparseableDateNamesTheAcceptedForms() throws {
        let d = try #require(failure("updated after '2015.03.23'"))
        #expect(d.code == "date.unparseable")
        #expect(d.message.contains("'2015.03.23'"))
        let forms = try #require(d.notes.first)
        #expect(forms.contains("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"))
    }

    @Test func renderedLikeACompiler() throws {
        let text = "age > AND name = 'x'"
        let d = try #require(failure(text))
        #expect(
            SourceText(text).render(d) == """
                error[syntax.unexpected-token]: expected a value after '>' but found 'AND'
                 --> 1:7
                  |
                1 | age > AND name = 'x'
                  |       ^^^

                """)
    }

    @Test func loweringReportsEveryErrorNotOnlyTheFirst() throws {
        do {
            _ = try SQLWhere.parse("name = NULL OR updated after 'soon' OR x LIKE 'a!' ESCAPE '!'")
            Issue.record("expected errors")
        } catch {
            #expect(error.all.map(\.code) == ["query.null-comparison", "date.unparseable", "like.trailing-escape"])
        }
    }

    // MARK: - Safety caps

    @Test func nestingBeyondTheLimitIsLocated() {
        let limits = Limits(maxNestingDepth: 3)
        expectError("(((a = 1)))", "limit.nesting", at: 1, 3, length: 1, limits: Limits(maxNestingDepth: 2))
        expectError("((((a = 1))))", "limit.nesting", at: 1, 4, length: 1, limits: limits)
        expectError("NOT NOT NOT NOT a = 1", "limit.nesting", at: 1, 13, length: 3, limits: limits)
        expectError(
            "x IN (A[y IN (B[(z = 1)].c)].d)", "limit.nesting", at: 1, 17, length: 1,
            limits: Limits(maxNestingDepth: 2))
        #expect(parsed("(((a = 1)))", limits: limits) == cmp("a", .eq, 1))
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "(", count: 100_000) + "a = 1" + String(repeating: ")", count: 100_000)
        #expect(failure(deep, limits: Limits(maxQueryLength: 1_000_000))?.code == "limit.nesting")
        let nots = String(repeating: "NOT ", count: 50_000) + "a = 1"
        #expect(failure(nots, limits: Limits(maxQueryLength: 1_000_000))?.code == "limit.nesting")
    }

    @Test func queryLengthIsCapped() {
        let limits = Limits(maxQueryLength: 10)
        expectError("name = 'abcdef'", "limit.query-length", at: 1, 11, length: 5, limits: limits)
        #expect(parsed("name = 'a'", limits: limits) == cmp("name", .eq, "a"))
    }

    @Test func inListSizeIsCapped() {
        let limits = Limits(maxInListSize: 3)
        #expect(parsed("a IN (1, 2, 3)", limits: limits) != nil)
        expectError("a IN (1, 2, 3, 4)", "limit.in-list", at: 1, 16, length: 1, limits: limits)
    }

    @Test func subqueryCountAndDepthAreCapped() {
        let two = Limits(maxSubqueries: 2, maxSubqueryDepth: 2)
        #expect(parsed("a IN (T.a) AND P[r].x = 1", limits: two) != nil)
        expectError("a IN (T.a) AND P[r].x = 1 AND b IN (U.b)", "limit.subqueries", at: 1, 37, length: 1, limits: two)
        #expect(parsed("a IN (T[b IN (U.c)].a)", limits: two) != nil)
        expectError(
            "a IN (T[b IN (U[P[r].x = 1].c)].a)", "limit.subquery-depth", at: 1, 17, length: 1,
            limits: Limits(maxSubqueries: 5, maxSubqueryDepth: 2))
    }
}
