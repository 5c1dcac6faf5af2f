import QuarryCore
import Testing
@testable import QuarryPredicate

@Suite struct PrinterTests {
    /// Text as written → canonical text.
    static let canonical: [(String, String)] = [
        ("age = 18", "age == 18"),
        ("age <> 18 && name != 'x'", "age != 18 AND name != \"x\""),
        ("age => 1 || age =< 2", "age >= 1 OR age <= 2"),
        ("a == 1 AND b == 2 OR c == 3", "a == 1 AND b == 2 OR c == 3"),
        ("a == 1 AND (b == 2 OR c == 3)", "a == 1 AND (b == 2 OR c == 3)"),
        ("(a == 1 AND b == 2) AND c == 3", "(a == 1 AND b == 2) AND c == 3"),
        ("(a == 1 OR b == 2) OR c == 3", "(a == 1 OR b == 2) OR c == 3"),
        ("!(a == 1 || b == 2)", "NOT (a == 1 OR b == 2)"),
        ("not not a == 1", "NOT NOT a == 1"),
        ("truepredicate", "TRUEPREDICATE"),
        ("name beginswith[dc] 'x'", "name BEGINSWITH[cd] \"x\""),
        ("name like[c] 'a*'", "name LIKE[c] \"a*\""),
        ("name matches '\\d+'", "name MATCHES \"\\\\d+\""),
        ("'abc' contains 'b'", "\"abc\" CONTAINS \"b\""),
        ("tags contains 'b'", "\"b\" IN tags"),
        ("score in self", "score IN SELF"),
        ("x in {1, 2.5, 'a', nil, yes}", "x IN {1, 2.5, \"a\", NULL, TRUE}"),
        ("x between {1, 2}", "x BETWEEN {1, 2}"),
        ("x between $r", "x BETWEEN $r"),
        ("some tags ==[c] 'a'", "ANY tags ==[c] \"a\""),
        ("none tags contains 'a'", "NONE tags CONTAINS \"a\""),
        ("all tags in {'a'}", "ALL tags IN {\"a\"}"),
        ("any kids.age between {1, 2}", "ANY kids.age BETWEEN {1, 2}"),
        ("@sum.items.price < 10", "items.price.@sum < 10"),
        ("items.@count > 2", "items.@count > 2"),
        ("@count > 2", "SELF.@count > 2"),
        ("(a.@count).b == 1", "(a.@count).b == 1"),
        ("tags[first] == 'a' AND tags[0] == 'a'", "tags[FIRST] == \"a\" AND tags[0] == \"a\""),
        ("subquery(items, $i, $i.price > 1).@count > 0", "SUBQUERY(items, $i, $i.price > 1).@count > 0"),
        ("a + b * c - d / e == 0", "a + b * c - d / e == 0"),
        ("(a + b) * (c - d) == 0", "(a + b) * (c - d) == 0"),
        ("a - (b - c) == 0", "a - (b - c) == 0"),
        ("a ** b ** c == 0", "a ** b ** c == 0"),
        ("(a ** b) ** c == 0", "(a ** b) ** c == 0"),
        ("-2 ** 2 == -4", "-2 ** 2 == -4"),
        ("(-2) ** 2 == 4", "(-2) ** 2 == 4"),
        ("-(5) == a", "-(5) == a"),
        ("-(-a) == a", "-(-a) == a"),
        ("a - -5 == 0", "a - -5 == 0"),
        ("FUNCTION(SELF, 'sqrt:', 4) == 2", "sqrt(4) == 2"),
        ("randomn(5) > 1", "random(5) > 1"),
        ("cast(0, 'NSDate') < d", "CAST(0, \"NSDate\") < d"),
        ("#size > 1 AND a.#first == 1", "#size > 1 AND a.#first == 1"),
        ("SELF.name == 'x'", "name == \"x\""),
        ("s == 'tab\\there \"q\" \\\\ \\u0001'", "s == \"tab\\there \\\"q\\\" \\\\ \\u0001\""),
        ("n == 0x10 AND m == 1e3", "n == 16 AND m == 1000.0"),
        ("s == %%", "s == \"%\""),
    ]

    @Test func printsCanonicalText() throws {
        for (text, expected) in Self.canonical {
            #expect(try PredicateFormat.print(PredicateFormat.parse(text)) == expected, "\(text)")
        }
    }

    @Test func theDocumentedExampleHolds() throws {
        let p = try PredicateFormat.parse("name BEGINSWITH[c] %@ AND age > %d", arguments: ["jo", 18])
        #expect(try PredicateFormat.print(p) == "name BEGINSWITH[c] \"jo\" AND age > 18")
    }

    @Test func printsQuantifiersThatAreNotOneComparisonAsSubqueries() throws {
        let body = Filter.and([cmp(.variable("e"), .gt, lit(1)), cmp(.variable("e"), .lt, lit(5))])
        let any = leaf(.quantified(.any, key("scores"), variable: "e", body))
        #expect(try PredicateFormat.print(any) == "SUBQUERY(scores, $v0, $v0 > 1 AND $v0 < 5).@count > 0")
        let all = leaf(.quantified(.all, key("scores"), variable: "e", body))
        #expect(try PredicateFormat.print(all) == "SUBQUERY(scores, $v0, NOT ($v0 > 1 AND $v0 < 5)).@count == 0")
        let none = leaf(.quantified(.none, key("scores"), variable: "#0", cmp(lit(1), .eq, .variable("#0"))))
        #expect(try PredicateFormat.print(none) == "SUBQUERY(scores, $v0, 1 == $v0).@count == 0")
        // A fresh name never captures a variable already in use.
        let taken = leaf(
            .quantified(
                .any, key("a"), variable: "#0",
                cmp(.variable("v0"), .eq, .variable("#0"))))
        #expect(try PredicateFormat.print(taken) == "SUBQUERY(a, $v1, $v0 == $v1).@count > 0")
    }

    @Test func printsExistenceAndNullTests() throws {
        #expect(try PredicateFormat.print(leaf(.isNull(key("a")), negated: true)) == "a IN SELF")
        #expect(try PredicateFormat.print(leaf(.isNull(key("a")))) == "a == NULL")
        #expect(try PredicateFormat.print(leaf(.isNull(.function(.now, [])), negated: true)) == "now() != NULL")
        #expect(try PredicateFormat.print(leaf(.compare(key("a"), .eq, lit(1), []), negated: true)) == "NOT a == 1")
    }

    @Test func printsDatesAsCastsOfISOStrings() throws {
        #expect(
            try PredicateFormat.print(cmp(key("d"), .gt, lit(.date(1_427_068_800_250))))
                == "d > CAST(\"2015-03-23T00:00:00.250Z\", \"NSDate\")")
    }

    @Test func foldsTheRegexCaseFlagIntoTheOption() throws {
        let p = leaf(
            .string(key("n"), .matches(RegexOptions(wholeString: true, flags: .caseInsensitive)), lit("a.*"), []))
        #expect(try PredicateFormat.print(p) == "n MATCHES[c] \"a.*\"")
    }

    @Test func printWithArgumentsPassesWhatHasNoSpelling() throws {
        let post = Pointer(className: "Post", objectId: "1zEcyElZ80")
        let inner = Query(className: "Post", predicate: leaf(.isNull(key("image")), negated: true))
        let p = Filter.and([
            cmp(key("post"), .eq, lit(.pointer(post))), leaf(.inQuery(FieldPath("post"), inner)),
            cmp(key("first name"), .eq, lit("Ann")), cmp(key("d"), .lt, lit(.date(0))),
        ])
        let (text, args) = try PredicateFormat.printWithArguments(p)
        #expect(text == "post == %@ AND post IN %@ AND %K == \"Ann\" AND d < %@")
        #expect(args == [.value(.pointer(post)), .query(inner), .keyPath("first name"), .value(.date(0))])
        #expect(try PredicateFormat.parse(text, arguments: args) == p)
    }

    /// What the dialect cannot say is an error naming it, never a silent approximation.
    static let inexpressible: [(String, Filter)] = [
        ("print.semantics", .leaf(.compare(key("a"), .eq, lit(1), []), .sql)),
        ("print.semantics", .leaf(.compare(key("a"), .eq, lit(1), []), .document)),
        ("print.inexpressible", leaf(.containsAll(key("a"), .list([lit(1)])))),
        ("print.inexpressible", leaf(.containedBy(key("a"), .list([lit(1)])))),
        ("print.inexpressible", leaf(.arraySize(key("a"), 2))),
        (
            "print.inexpressible",
            leaf(.geo(.near(FieldPath("loc"), GeoPoint(latitude: 0, longitude: 0), maxDistance: nil)))
        ),
        ("print.inexpressible", leaf(.select(FieldPath("a"), Query(className: "T"), innerKey: FieldPath("b")))),
        ("print.inexpressible", leaf(.relatedTo(Pointer(className: "U", objectId: "u"), key: "likes"))),
        ("print.inexpressible", leaf(.text(FieldPath("a"), TextSearch(terms: "x")))),
        ("print.inexpressible", leaf(.inQuery(FieldPath("a"), Query(className: "T")))),
        ("print.inexpressible", leaf(.inCollection(lit(1), .evaluatedObject, []))),
        ("print.inexpressible", leaf(.string(key("a"), .like(.sql(escape: nil)), lit("a%"), []))),
        ("print.inexpressible", leaf(.string(key("a"), .matches(RegexOptions(wholeString: false)), lit("a"), []))),
        ("print.inexpressible", cmp(key("a"), .eq, lit(.pointer(Pointer(className: "P", objectId: "p"))))),
        ("print.inexpressible", cmp(key("a"), .eq, lit(.double(.infinity)))),
        ("print.inexpressible", cmp(key("first name"), .eq, lit(1))),
        ("print.inexpressible", cmp(.variable("#0"), .eq, lit(1))),
    ]

    @Test func reportsWhatCannotBeWritten() {
        for (code, p) in Self.inexpressible {
            do {
                let text = try PredicateFormat.print(p)
                Issue.record("printed \(text) for \(p)")
            } catch {
                #expect(error.all.map(\.code) == [code], "\(p)")
            }
        }
    }
}
