import QuarryCore
import Testing
@testable import QuarryPredicate

/// Bad input and the located error it must produce.
struct BadInput: Sendable, CustomTestStringConvertible {
    var text: String
    var arguments: [PredicateArgument] = []
    var variables: [String: Value]?
    var limits: Limits = .default
    /// `code@line:column` of the first diagnostic.
    var expected: String
    var testDescription: String { text.count > 60 ? String(text.prefix(60)) + "…" : text }

    init(
        _ text: String, _ arguments: [PredicateArgument] = [], variables: [String: Value]? = nil,
        limits: Limits = .default, gives expected: String
    ) {
        self.text = text
        self.arguments = arguments
        self.variables = variables
        self.limits = limits
        self.expected = expected
    }
}

private let sumOfOneTo12 = "a == " + (1...12).map { String($0) }.joined(separator: " + ")
/// The column of the 11th `+`, one level deeper than a cap of 10 allows.
private let sumOfOneTo12Column: Int = {
    let prefix: String = "a == " + (1...11).map { String($0) }.joined(separator: " + ") + " "
    return prefix.count + 1
}()

@Suite struct DiagnosticTests {
    static let lexical: [BadInput] = [
        // The Parse guide's own example: the quote that opens 'Big Daddy is never closed.
        BadInput("name BEGINSWITH 'Big Daddy", gives: "lex.unterminated-string@1:17"),
        BadInput("name == \"abc", gives: "lex.unterminated-string@1:9"),
        BadInput("name == 'abc\\", gives: "lex.unterminated-string@1:9"),
        BadInput("a == 1 AND\nname == 'x", gives: "lex.unterminated-string@2:9"),
        BadInput("name == 'Big Daddy's'", gives: "lex.unterminated-string@1:21"),
        BadInput("name ~= 'x'", gives: "lex.unexpected-character@1:6"),
        BadInput("a == 1 & b == 2", gives: "lex.unexpected-character@1:8"),
        BadInput("a == 1 | b == 2", gives: "lex.unexpected-character@1:8"),
        BadInput("a ? 1", gives: "lex.unexpected-character@1:3"),
        BadInput("a == ✓", gives: "lex.unexpected-character@1:6"),
        BadInput("@ > 1", gives: "lex.unexpected-character@1:1"),
        BadInput("#1 > 0", gives: "lex.unexpected-character@1:1"),
        BadInput("$ > 1", gives: "lex.invalid-variable@1:1"),
        BadInput("12abc == 1", gives: "lex.invalid-number@1:1"),
        BadInput("a == 0x", gives: "lex.invalid-number@1:6"),
        BadInput("a == 0b102", gives: "lex.invalid-number@1:6"),
        BadInput("a == 1e", gives: "lex.invalid-number@1:6"),
        BadInput("a == 0xFFFFFFFFFFFFFFFFF", gives: "lex.number-out-of-range@1:6"),
        BadInput("a == 99999999999999999999", gives: "lex.number-out-of-range@1:6"),
        BadInput("a == 9223372036854775808", gives: "lex.number-out-of-range@1:6"),
        BadInput("a == 1e999", gives: "lex.number-out-of-range@1:6"),
        BadInput("s == '\\uZZZZ'", gives: "lex.invalid-escape@1:7"),
        BadInput("s == '\\uD800'", gives: "lex.invalid-escape@1:7"),
        BadInput("s == '\\uDC00'", gives: "lex.invalid-escape@1:7"),
        BadInput("s == '\\u{110000}'", gives: "lex.invalid-escape@1:7"),
        BadInput("a == %q", gives: "lex.invalid-argument@1:6"),
        BadInput("a == %", gives: "lex.invalid-argument@1:6"),
        BadInput("a == %lz", gives: "lex.invalid-argument@1:6"),
    ]

    static let syntax: [BadInput] = [
        BadInput("", gives: "syntax.unexpected-end@1:1"),
        BadInput("a", gives: "syntax.unexpected-end@1:2"),
        BadInput("a == ", gives: "syntax.unexpected-end@1:6"),
        BadInput("(a == 1", gives: "syntax.unexpected-end@1:8"),
        BadInput("a == 1 AND", gives: "syntax.unexpected-end@1:11"),
        BadInput("a == {1, 2", gives: "syntax.unexpected-end@1:11"),
        BadInput("a == 1 b", gives: "syntax.unexpected-token@1:8"),
        BadInput("a == 1)", gives: "syntax.unexpected-token@1:7"),
        BadInput("a = 1 ANDOR b = 2", gives: "syntax.unexpected-token@1:7"),
        BadInput("name NOT IN {1}", gives: "syntax.unexpected-token@1:6"),
        BadInput("(a)", gives: "syntax.unexpected-end@1:4"),
        BadInput("NOT (a)", gives: "syntax.unexpected-end@1:8"),
        BadInput("(a) AND b == 1", gives: "syntax.unexpected-token@1:5"),
        BadInput("(a AND b)", gives: "syntax.unexpected-token@1:4"),
        BadInput("a == 1 +", gives: "syntax.unexpected-end@1:9"),
        BadInput("a == AND b == 1", gives: "syntax.unexpected-token@1:6"),
        BadInput("a.5 == 1", gives: "syntax.unexpected-token@1:3"),
        BadInput("1 := 2 == 1", gives: "syntax.unexpected-token@1:3"),
        BadInput("size > 3", gives: "syntax.reserved-word@1:1"),
        BadInput("a.first == 1", gives: "syntax.reserved-word@1:3"),
        BadInput("name LIKE[x] 'a'", gives: "syntax.unknown-modifier@1:10"),
        BadInput("name LIKE[cc] 'a'", gives: "syntax.unknown-modifier@1:11"),
        BadInput("name LIKE[] 'a'", gives: "syntax.unexpected-token@1:11"),
        BadInput("name LIKE[c 'a'", gives: "syntax.unexpected-token@1:13"),
        BadInput("SUBQUERY(items, $x).@count > 0", gives: "syntax.unexpected-token@1:19"),
        BadInput("CAST 1 == 1", gives: "syntax.unexpected-token@1:6"),
    ]

    static let semantic: [BadInput] = [
        BadInput("age BETWEEN[c] {1, 2}", gives: "predicate.modifier-not-allowed@1:12"),
        BadInput("age ==[c] 5", gives: "predicate.modifier-not-allowed@1:7"),
        BadInput("age >[cd] %d", [3], gives: "predicate.modifier-not-allowed@1:6"),
        BadInput("age BETWEEN {1, 2, 3}", gives: "predicate.between-bounds@1:13"),
        BadInput("age BETWEEN {1}", gives: "predicate.between-bounds@1:13"),
        BadInput("age BETWEEN 5", gives: "predicate.between-bounds@1:13"),
        BadInput("age BETWEEN other", gives: "predicate.between-bounds@1:13"),
        BadInput("age BETWEEN %@", [[1, 2, 3]], gives: "predicate.between-bounds@1:13"),
        BadInput("age BETWEEN %@", [5], gives: "predicate.between-bounds@1:13"),
        BadInput("age BETWEEN $r", variables: ["r": [1]], gives: "predicate.between-bounds@1:13"),
        BadInput("SUBQUERY(items, x, x.price > 1).@count > 0", gives: "predicate.subquery-variable@1:17"),
        BadInput("SUBQUERY(items, 'x', TRUEPREDICATE).@count > 0", gives: "predicate.subquery-variable@1:17"),
        BadInput("ANY 5 > 3", gives: "predicate.quantifier-on-scalar@1:5"),
        BadInput("ALL 'abc' == 'a'", gives: "predicate.quantifier-on-scalar@1:5"),
        BadInput("NONE (-1) < 0", gives: "predicate.quantifier-on-scalar@1:6"),
        BadInput("ANY %@ == 1", [5], gives: "predicate.quantifier-on-scalar@1:5"),
        BadInput("sqrt(1, 2) == 1", gives: "predicate.function-arity@1:1"),
        BadInput("now(1) > x", gives: "predicate.function-arity@1:1"),
        BadInput("x < random(1, 2)", gives: "predicate.function-arity@1:5"),
        BadInput("frobnicate(x) == 1", gives: "predicate.unknown-function@1:1"),
        BadInput("FUNCTION(x, 'frob:') == 1", gives: "predicate.unknown-function@1:13"),
        BadInput("FUNCTION(x, 'add:to:', 1, 2) == 1", gives: "predicate.function-arity@1:1"),
        BadInput("FUNCTION(x) == 1", gives: "predicate.function-arity@1:1"),
        BadInput("FUNCTION(x, y) == 1", gives: "predicate.function-selector@1:13"),
        BadInput("CAST(x, 'NSFoo') == 1", gives: "predicate.unknown-cast-type@1:9"),
        BadInput("CAST(x, y) == 1", gives: "predicate.unknown-cast-type@1:9"),
        BadInput("CAST(x) == 1", gives: "predicate.function-arity@1:1"),
        BadInput("d > CAST('yesterday', 'NSDate')", gives: "date.unparseable@1:10"),
        BadInput("d > CAST(%@, 'NSDate')", ["2015-13-45"], gives: "date.unparseable@1:10"),
        BadInput("5 IN 3", gives: "predicate.not-a-collection@1:6"),
        BadInput("x IN TRUE", gives: "predicate.not-a-collection@1:6"),
        BadInput("5 CONTAINS 3", gives: "predicate.not-a-collection@1:1"),
        BadInput("name BEGINSWITH 5", gives: "predicate.type-mismatch@1:17"),
        BadInput("5 ENDSWITH 'x'", gives: "predicate.type-mismatch@1:1"),
        BadInput("name MATCHES NULL", gives: "predicate.type-mismatch@1:14"),
        BadInput("x.@foo > 1", gives: "predicate.unknown-aggregate@1:3"),
        BadInput("$x := 1 == 1", gives: "predicate.unsupported@1:1"),
        BadInput("a UTI-CONFORMS-TO 'public.image'", gives: "predicate.unsupported@1:3"),
        BadInput("ANYKEY == 1", gives: "predicate.unsupported@1:1"),
        BadInput("FETCH(x, y, NO) == 1", gives: "predicate.unsupported@1:1"),
        BadInput("ANY post IN %@", [.query(Query(className: "Post"))], gives: "predicate.quantifier-not-allowed@1:1"),
        BadInput("post IN[c] %@", [.query(Query(className: "Post"))], gives: "predicate.modifier-not-allowed@1:8"),
        BadInput("1 IN SELF", gives: "predicate.key-path-required@1:1"),
        BadInput("now() IN %@", [.query(Query(className: "Post"))], gives: "predicate.key-path-required@1:1"),
    ]

    static let arguments: [BadInput] = [
        BadInput("a == %@", gives: "argument.missing@1:6"),
        BadInput("a == %@ AND b == %@", ["x"], gives: "argument.missing@1:18"),
        BadInput("a == 1", ["x"], gives: "argument.extra@1:1"),
        BadInput("a == %@", ["x", "y"], gives: "argument.extra@1:6"),
        // A quoted '%@' is a literal, so the argument is left over.
        BadInput("a == '%@'", ["x"], gives: "argument.extra@1:1"),
        BadInput("a > %d", ["x"], gives: "argument.type-mismatch@1:5"),
        BadInput("a > %d", [1.5], gives: "argument.type-mismatch@1:5"),
        BadInput("a > %f", [true], gives: "argument.type-mismatch@1:5"),
        BadInput("%K == 1", [5], gives: "argument.type-mismatch@1:1"),
        BadInput("%K == 1", ["a..b"], gives: "argument.invalid-key-path@1:1"),
        BadInput("%K == 1", ["a.@foo"], gives: "argument.invalid-key-path@1:1"),
        BadInput("a == %@", [.keyPath("b")], gives: "argument.type-mismatch@1:6"),
        BadInput("a == %@", [.query(Query(className: "Post"))], gives: "argument.query-misplaced@1:6"),
        BadInput("x == $y", variables: [:], gives: "variable.unbound@1:6"),
    ]

    static let limits: [BadInput] = [
        BadInput(
            String(repeating: "(", count: 11) + "a == 1" + String(repeating: ")", count: 11),
            limits: Limits(maxNestingDepth: 10), gives: "limit.nesting@1:11"),
        BadInput(
            "a == " + String(repeating: "-", count: 11) + "1", limits: Limits(maxNestingDepth: 10),
            gives: "limit.nesting@1:16"),
        // Each `+` deepens the tree; the eleventh is one level too many.
        BadInput(sumOfOneTo12, limits: Limits(maxNestingDepth: 10), gives: "limit.nesting@1:\(sumOfOneTo12Column)"),
        BadInput("abcdefghij == 1", limits: Limits(maxQueryLength: 10), gives: "limit.query-length@1:11"),
        BadInput("x IN {1, 2, 3}", limits: Limits(maxInListSize: 2), gives: "limit.in-list@1:13"),
        BadInput("x IN %@", [[1, 2, 3]], limits: Limits(maxInListSize: 2), gives: "limit.in-list@1:6"),
        BadInput("x IN $v", variables: ["v": [1, 2, 3]], limits: Limits(maxInListSize: 2), gives: "limit.in-list@1:6"),
        BadInput(
            "SUBQUERY(a, $x, $x == 1).@count == SUBQUERY(b, $y, $y == 1).@count",
            limits: Limits(maxSubqueries: 1), gives: "limit.subqueries@1:36"),
        BadInput(
            "SUBQUERY(a, $x, SUBQUERY($x, $y, $y == 1).@count > 0).@count > 0",
            limits: Limits(maxSubqueryDepth: 1), gives: "limit.subquery-depth@1:17"),
        BadInput(
            "post IN %@ AND SUBQUERY(a, $x, $x == 1).@count > 0", [.query(Query(className: "P"))],
            limits: Limits(maxSubqueries: 1), gives: "limit.subqueries@1:9"),
    ]

    @Test(arguments: lexical + syntax)
    func reportsSyntaxErrors(_ b: BadInput) {
        #expect(failure(b.text, b.arguments, variables: b.variables, limits: b.limits) == b.expected)
    }

    @Test(arguments: semantic + arguments + limits)
    func reportsMeaningErrors(_ b: BadInput) {
        #expect(failure(b.text, b.arguments, variables: b.variables, limits: b.limits) == b.expected)
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "(", count: 100_000) + "a == 1" + String(repeating: ")", count: 100_000)
        #expect(failure(deep, limits: Limits(maxQueryLength: 1_000_000)) == "limit.nesting@1:101")
        let negations = String(repeating: "NOT ", count: 50_000) + "a == 1"
        #expect(failure(negations, limits: Limits(maxQueryLength: 1_000_000)).hasPrefix("limit.nesting@"))
        // Each index, collection operator and `%K` after a key wraps the expression once more.
        let indexes = "tags" + String(repeating: "[0]", count: 30_000) + " == 1"
        #expect(failure(indexes, limits: Limits(maxQueryLength: 1_000_000)) == "limit.nesting@1:303")
        let operators = "a" + String(repeating: ".@count", count: 10_000) + " == 1"
        #expect(failure(operators, limits: Limits(maxQueryLength: 1_000_000)) == "limit.nesting@1:703")
        let arguments = "a" + String(repeating: ".%K", count: 200) + " == 1"
        #expect(failure(arguments, Array(repeating: .keyPath("b"), count: 200)).hasPrefix("limit.nesting@1:"))
    }

    /// A key path of many names is one node of the syntax tree and one `FieldPath`: no depth
    /// limit applies, and nothing recurses on its length (a fuzzer found a 402-name path that
    /// overflowed the stack while it was lowered, one node per name).
    @Test func aLongKeyPathIsOnePath() throws {
        let names = (0..<50_000).map { "k\($0 % 7)" }
        let query = try PredicateFormat.parse(
            names.joined(separator: ".") + " == 1", className: "C", schema: nil,
            limits: Limits(maxQueryLength: 1_000_000))
        guard case .leaf(let leaf) = query, case .compare(.key(let path), .eq, _, _) = leaf.condition else {
            Issue.record("\(query)")
            return
        }
        #expect(path.components == names)
    }

    @Test func messagesSayWhatWasExpected() {
        let d = diagnostics("age > AND name = 'x'")
        #expect(d.first?.message == "expected a value (a key, a literal, SELF, %@ or $variable) but found 'AND'")
        let parens = diagnostics("(a == 1 OR b == 2")
        #expect(
            parens.first?.message == "expected ')' to close the '(' opened at 1:1 but found the end of the predicate")
    }

    @Test func unterminatedStringPointsAtTheOpeningQuote() throws {
        let text = "name BEGINSWITH 'Big Daddy"
        let d = try #require(diagnostics(text).first)
        #expect(d.range == SourceRange(offset: 16, length: 10))
        let rendered = SourceText(text).render(d)
        #expect(rendered.contains(" --> 1:17"))
        #expect(rendered.contains("|                 ^^^^^^^^^^"))
    }

    @Test func aLeftOverArgumentAfterAQuotedPlaceholderGetsAHint() throws {
        #expect(
            try #require(diagnostics("a == '%@'", ["x"]).first).notes == [
                "a quoted '%@' is a literal string, not a placeholder"
            ])
        #expect(try #require(diagnostics("a == 1", ["x"]).first).notes == [])
    }

    @Test func anApostropheInsideAStringGetsAHint() throws {
        let d = try #require(diagnostics("name == 'Big Daddy's'").first)
        #expect(d.notes.first == "the ' at 1:19 ended the string before it; write \\' there")
    }

    @Test func independentErrorsAreAllReported() {
        let d = diagnostics("sqrt(1, 2) == 1 AND x.@nope > 1 OR CAST(y, 'NSBad') == 2")
        #expect(
            d.map(\.code) == ["predicate.function-arity", "predicate.unknown-aggregate", "predicate.unknown-cast-type"])
    }

    @Test func schemaKnowsScalarFields() {
        let db = Database([
            ClassData(
                name: "Person",
                records: [
                    Record(objectId: "p1", fields: [("age", 30), ("tags", ["a"]), ("name", "Ann")])
                ])
        ])
        #expect(failure("ANY age > 3", schema: db, className: "Person") == "predicate.quantifier-on-scalar@1:5")
        #expect(failure("ANY tags == 'a'", schema: db, className: "Person").hasPrefix("parsed"))
        #expect(failure("a == 1", schema: db, className: "Nope") == "schema.unknown-class")
    }
}
