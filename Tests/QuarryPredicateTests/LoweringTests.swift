import QuarryCore
import Testing
@testable import QuarryPredicate

/// A format string and the exact IR it must lower to.
struct Golden: Sendable, CustomTestStringConvertible {
    var text: String
    var arguments: [PredicateArgument] = []
    var ir: Filter
    var testDescription: String { text }

    init(_ text: String, _ ir: Filter) {
        self.text = text
        self.ir = ir
    }

    init(_ text: String, _ arguments: [PredicateArgument], _ ir: Filter) {
        self.text = text
        self.arguments = arguments
        self.ir = ir
    }
}

private let age = key("age"), name = key("name"), tags = key("tags")

@Suite struct LoweringTests {
    static let comparisons: [Golden] = [
        Golden("age == 18", cmp(age, .eq, lit(18))),
        Golden("age = 18", cmp(age, .eq, lit(18))),
        Golden("age != 18", cmp(age, .ne, lit(18))),
        Golden("age <> 18", cmp(age, .ne, lit(18))),
        Golden("age < 18", cmp(age, .lt, lit(18))),
        Golden("age <= 18", cmp(age, .le, lit(18))),
        Golden("age =< 18", cmp(age, .le, lit(18))),
        Golden("age > 18", cmp(age, .gt, lit(18))),
        Golden("age >= 18", cmp(age, .ge, lit(18))),
        Golden("age => 18", cmp(age, .ge, lit(18))),
        Golden("18 < age", cmp(lit(18), .lt, age)),
        Golden("wins > readCount", cmp(key("wins"), .gt, key("readCount"))),
        Golden("name ==[c] 'bob'", cmp(name, .eq, lit("bob"), .caseInsensitive)),
        Golden("name !=[cd] \"Bob\"", cmp(name, .ne, lit("Bob"), [.caseInsensitive, .diacriticInsensitive])),
        Golden("name <[d] 'b'", cmp(name, .lt, lit("b"), .diacriticInsensitive)),
        Golden("name ==[DC] 'b'", cmp(name, .eq, lit("b"), [.caseInsensitive, .diacriticInsensitive])),
        Golden("name ==[n] 'b'", cmp(name, .eq, lit("b"))),
        Golden("age BETWEEN {18, 30}", leaf(.between(age, lower: lit(18), upper: lit(30)))),
        Golden("age between { 1.5 , 2 }", leaf(.between(age, lower: lit(1.5), upper: lit(2)))),
        Golden("x == nil", cmp(key("x"), .eq, lit(.null))),
        Golden("x != NULL", cmp(key("x"), .ne, lit(.null))),
        Golden("a.b.c == 1", cmp(key("a.b.c"), .eq, lit(1))),
    ]

    static let compounds: [Golden] = [
        Golden(
            "a == 1 AND b == 2 OR c == 3",
            .or([.and([cmp(key("a"), .eq, lit(1)), cmp(key("b"), .eq, lit(2))]), cmp(key("c"), .eq, lit(3))])),
        Golden(
            "a == 1 || b == 2 && c == 3",
            .or([cmp(key("a"), .eq, lit(1)), .and([cmp(key("b"), .eq, lit(2)), cmp(key("c"), .eq, lit(3))])])),
        Golden(
            "a == 1 and b == 2 and c == 3",
            .and([cmp(key("a"), .eq, lit(1)), cmp(key("b"), .eq, lit(2)), cmp(key("c"), .eq, lit(3))])),
        Golden(
            "(a == 1 AND b == 2) AND c == 3",
            .and([.and([cmp(key("a"), .eq, lit(1)), cmp(key("b"), .eq, lit(2))]), cmp(key("c"), .eq, lit(3))])),
        Golden("NOT a == 1", .not(cmp(key("a"), .eq, lit(1)))),
        Golden("!(a == 1)", .not(cmp(key("a"), .eq, lit(1)))),
        Golden("NOT NOT a == 1", .not(.not(cmp(key("a"), .eq, lit(1))))),
        Golden("NOT a == 1 AND b == 2", .and([.not(cmp(key("a"), .eq, lit(1))), cmp(key("b"), .eq, lit(2))])),
        Golden("((a == 1))", cmp(key("a"), .eq, lit(1))),
        Golden("TRUEPREDICATE", .constant(true)),
        Golden("falsepredicate", .constant(false)),
        Golden("TRUEPREDICATE OR FALSEPREDICATE", .or([.constant(true), .constant(false)])),
    ]

    static let strings: [Golden] = [
        Golden("name BEGINSWITH 'Big'", leaf(.string(name, .beginsWith, lit("Big"), []))),
        Golden("name beginswith[c] 'big'", leaf(.string(name, .beginsWith, lit("big"), .caseInsensitive))),
        Golden("name ENDSWITH \"'s\"", leaf(.string(name, .endsWith, lit("'s"), []))),
        Golden(
            "name LIKE[cd] 'a*b?'",
            leaf(.string(name, .like(.glob), lit("a*b?"), [.caseInsensitive, .diacriticInsensitive]))),
        Golden("name LIKE 'a\\*'", leaf(.string(name, .like(.glob), lit("a\\*"), []))),
        Golden(
            "name MATCHES '[a-z]+\\d'",
            leaf(.string(name, .matches(RegexOptions(wholeString: true)), lit("[a-z]+\\d"), []))),
        // CONTAINS on a key: membership, which is substring for a string value.
        Golden("name CONTAINS[c] 'daddy'", leaf(.inCollection(lit("daddy"), name, .caseInsensitive))),
        Golden("'hello' CONTAINS 'ell'", leaf(.string(lit("hello"), .contains, lit("ell"), []))),
        Golden("tags CONTAINS 'a'", leaf(.inCollection(lit("a"), tags, []))),
        Golden("{1, 2} CONTAINS x", leaf(.inCollection(key("x"), .list([lit(1), lit(2)]), []))),
    ]

    static let membership: [Golden] = [
        Golden("x IN {1, 2, 3}", leaf(.inCollection(key("x"), .list([lit(1), lit(2), lit(3)]), []))),
        Golden("x IN {}", leaf(.inCollection(key("x"), .list([]), []))),
        Golden("2 IN arrayKey", leaf(.inCollection(lit(2), key("arrayKey"), []))),
        Golden("'ell' IN[c] name", leaf(.inCollection(lit("ell"), name, .caseInsensitive))),
        Golden("score IN SELF", leaf(.isNull(key("score")), negated: true)),
        Golden("NOT (score IN SELF)", .not(leaf(.isNull(key("score")), negated: true))),
        Golden("a.b IN (SELF)", leaf(.isNull(key("a.b")), negated: true)),
        Golden(
            "playerName IN %@", [["Jonathan Walsh", "Dario Wunsch"]],
            leaf(.inCollection(key("playerName"), .list([lit("Jonathan Walsh"), lit("Dario Wunsch")]), []))),
        Golden(
            "post IN %@", [.query(Query(className: "Post"))],
            leaf(.inQuery(FieldPath("post"), Query(className: "Post")))),
        Golden(
            "NOT (post IN %@)",
            [.query(Query(className: "Post", predicate: leaf(.isNull(key("image")), negated: true)))],
            .not(
                leaf(
                    .inQuery(
                        FieldPath("post"),
                        Query(className: "Post", predicate: leaf(.isNull(key("image")), negated: true)))))),
    ]

    static let quantifiers: [Golden] = [
        Golden("ANY tags == 'a'", quantified(.any, tags) { .compare($0, .eq, lit("a"), []) }),
        Golden("SOME tags == 'a'", quantified(.any, tags) { .compare($0, .eq, lit("a"), []) }),
        Golden("ALL scores > 3", quantified(.all, key("scores")) { .compare($0, .gt, lit(3), []) }),
        Golden(
            "NONE tags BEGINSWITH[c] 'x'",
            quantified(.none, tags) { .string($0, .beginsWith, lit("x"), .caseInsensitive) }),
        Golden("ANY children.age < 12", quantified(.any, key("children.age")) { .compare($0, .lt, lit(12), []) }),
        Golden(
            "ANY tags IN {'a', 'b'}",
            quantified(.any, tags) { .inCollection($0, .list([lit("a"), lit("b")]), []) }),
        Golden(
            "ANY names CONTAINS[c] 'bo'",
            quantified(.any, key("names")) { .inCollection(lit("bo"), $0, .caseInsensitive) }),
        Golden(
            "ANY scores BETWEEN {1, 2}",
            quantified(.any, key("scores")) { .between($0, lower: lit(1), upper: lit(2)) }),
        Golden("ANY {1, 2} == x", quantified(.any, .list([lit(1), lit(2)])) { .compare($0, .eq, key("x"), []) }),
        Golden(
            "ANY a == SUBQUERY(b, $y, ANY $y.c == 1).@count",
            leaf(
                .quantified(
                    .any, key("a"), variable: "#0",
                    leaf(
                        .compare(
                            .variable("#0"), .eq,
                            .aggregate(
                                .count,
                                .subquery(
                                    key("b"), variable: "y",
                                    leaf(
                                        .quantified(
                                            .any, .member(.variable("y"), FieldPath("c")), variable: "#1",
                                            cmp(.variable("#1"), .eq, lit(1)))))), []))))),
    ]

    static let collections: [Golden] = [
        Golden("children.@count > 2", cmp(.aggregate(.count, key("children")), .gt, lit(2))),
        Golden("@sum.items.price < 1000", cmp(.aggregate(.sum, key("items.price")), .lt, lit(1000))),
        Golden("items.@sum.price < 1000", cmp(.aggregate(.sum, key("items.price")), .lt, lit(1000))),
        Golden("items.price.@avg >= 2", cmp(.aggregate(.avg, key("items.price")), .ge, lit(2))),
        Golden(
            "items.@min.price == items.@max.price",
            cmp(.aggregate(.min, key("items.price")), .eq, .aggregate(.max, key("items.price")))),
        Golden(
            "items.@distinctUnionOfObjects.tag CONTAINS 'x'",
            leaf(.inCollection(lit("x"), .aggregate(.distinctUnionOfObjects, key("items.tag")), []))),
        Golden("@count == 3", cmp(.aggregate(.count, .evaluatedObject), .eq, lit(3))),
        Golden("{1, 2}.@count == 2", cmp(.aggregate(.count, .list([lit(1), lit(2)])), .eq, lit(2))),
        Golden("(a.@count).b == 1", cmp(.member(.aggregate(.count, key("a")), FieldPath("b")), .eq, lit(1))),
        Golden("tags[FIRST] == 'a'", cmp(.index(tags, .first), .eq, lit("a"))),
        Golden("tags[last] == 'a'", cmp(.index(tags, .last), .eq, lit("a"))),
        Golden("tags[SIZE] == 3", cmp(.index(tags, .size), .eq, lit(3))),
        Golden("tags[0] == 'a'", cmp(.index(tags, .at(lit(0))), .eq, lit("a"))),
        Golden("dict['k'].v == 1", cmp(.member(.index(key("dict"), .at(lit("k"))), FieldPath("v")), .eq, lit(1))),
        Golden(
            "SUBQUERY(items, $i, $i.price > 10).@count > 0",
            cmp(
                .aggregate(
                    .count,
                    .subquery(
                        key("items"), variable: "i",
                        cmp(.member(.variable("i"), FieldPath("price")), .gt, lit(10)))),
                .gt, lit(0))),
        Golden(
            "SUBQUERY(items, $i, $i.price > SELF.budget)[SIZE] == 0",
            cmp(
                .index(
                    .subquery(
                        key("items"), variable: "i",
                        cmp(.member(.variable("i"), FieldPath("price")), .gt, key("budget"))), .size),
                .eq, lit(0))),
    ]

    static let expressions: [Golden] = [
        Golden(
            "a + b * 2 > c - 1",
            cmp(
                .arithmetic(.add, key("a"), .arithmetic(.multiply, key("b"), lit(2))), .gt,
                .arithmetic(.subtract, key("c"), lit(1)))),
        Golden(
            "a - b - c == 0",
            cmp(.arithmetic(.subtract, .arithmetic(.subtract, key("a"), key("b")), key("c")), .eq, lit(0))),
        Golden(
            "a / b * c == 0",
            cmp(.arithmetic(.multiply, .arithmetic(.divide, key("a"), key("b")), key("c")), .eq, lit(0))),
        Golden(
            "a ** 2 ** 3 == 1",
            cmp(.arithmetic(.power, key("a"), .arithmetic(.power, lit(2), lit(3))), .eq, lit(1))),
        Golden("-2 ** 2 == -4", cmp(.negate(.arithmetic(.power, lit(2), lit(2))), .eq, lit(-4))),
        Golden("(-2) ** 2 == 4", cmp(.arithmetic(.power, lit(-2), lit(2)), .eq, lit(4))),
        Golden("-a < 0", cmp(.negate(key("a")), .lt, lit(0))),
        Golden("a > -(5)", cmp(key("a"), .gt, .negate(lit(5)))),
        Golden("a > -9223372036854775808", cmp(key("a"), .gt, lit(.int(.min)))),
        Golden(
            "(a + b) * 2 > 1", cmp(.arithmetic(.multiply, .arithmetic(.add, key("a"), key("b")), lit(2)), .gt, lit(1))),
        Golden("((a)) > 1", cmp(key("a"), .gt, lit(1))),
        Golden("(a).b > 1", cmp(key("a.b"), .gt, lit(1))),
        Golden("now() > createdAt", cmp(.function(.now, []), .gt, key("createdAt"))),
        Golden("sqrt(x) == 2", cmp(.function(.sqrt, [key("x")]), .eq, lit(2))),
        Golden("SQRT(x) == 2", cmp(.function(.sqrt, [key("x")]), .eq, lit(2))),
        Golden("sum({1, 2}) == 3", cmp(.function(.sum, [.list([lit(1), lit(2)])]), .eq, lit(3))),
        Golden(
            "add(a, b) == from(c, d)",
            cmp(.function(.add, [key("a"), key("b")]), .eq, .function(.subtract, [key("c"), key("d")]))),
        Golden("random() < 1", cmp(.function(.random, []), .lt, lit(1))),
        Golden("random(10) < 10", cmp(.function(.randomn, [lit(10)]), .lt, lit(10))),
        Golden("randomn(10) < 10", cmp(.function(.randomn, [lit(10)]), .lt, lit(10))),
        Golden("uppercase(name) == 'BOB'", cmp(.function(.uppercase, [name]), .eq, lit("BOB"))),
        Golden("FUNCTION(SELF, 'sqrt:', 4) == 2", cmp(.function(.sqrt, [lit(4)]), .eq, lit(2))),
        Golden("FUNCTION(x, 'abs:') == 1", cmp(.function(.abs, [key("x")]), .eq, lit(1))),
        Golden("function(a, 'add:to:', b) == 3", cmp(.function(.add, [key("a"), key("b")]), .eq, lit(3))),
        Golden("CAST(0, 'NSDate') < createdAt", cmp(.cast(lit(0), .date), .lt, key("createdAt"))),
        Golden(
            "createdAt > CAST('2015-03-23T00:00:00Z', \"NSDate\")",
            cmp(key("createdAt"), .gt, .cast(lit("2015-03-23T00:00:00Z"), .date))),
        Golden(
            "CAST(s, 'NSNumber') == CAST(n, 'NSString')",
            cmp(.cast(key("s"), .number), .eq, .cast(key("n"), .string))),
        Golden("SELF == 'a'", cmp(.evaluatedObject, .eq, lit("a"))),
        Golden("SELF.name == 'x'", cmp(name, .eq, lit("x"))),
        Golden("$x.name == 'x'", cmp(.member(.variable("x"), FieldPath("name")), .eq, lit("x"))),
        Golden("age > $min", cmp(age, .gt, .variable("min"))),
        Golden(
            "#size > 3 AND #FIRST.#in == 1", .and([cmp(key("size"), .gt, lit(3)), cmp(key("FIRST.in"), .eq, lit(1))])),
        Golden("café == 'crème'", cmp(key("café"), .eq, lit("crème"))),
        Golden(
            "x BETWEEN $r",
            leaf(
                .between(
                    key("x"), lower: .index(.variable("r"), .at(lit(0))),
                    upper: .index(.variable("r"), .at(lit(1)))))),
    ]

    static let literals: [Golden] = [
        Golden("a == TRUE OR a == YES", .or([cmp(key("a"), .eq, lit(true)), cmp(key("a"), .eq, lit(true))])),
        Golden("a == FALSE OR a == no", .or([cmp(key("a"), .eq, lit(false)), cmp(key("a"), .eq, lit(false))])),
        Golden("a == NIL OR a == null", .or([cmp(key("a"), .eq, lit(.null)), cmp(key("a"), .eq, lit(.null))])),
        Golden("n == 0x1F", cmp(key("n"), .eq, lit(31))),
        Golden("n == 0XfF", cmp(key("n"), .eq, lit(255))),
        Golden("n == 0o17", cmp(key("n"), .eq, lit(15))),
        Golden("n == 0b101", cmp(key("n"), .eq, lit(5))),
        Golden("n == 1.5e3", cmp(key("n"), .eq, lit(.double(1500)))),
        Golden("n == 1E-3", cmp(key("n"), .eq, lit(.double(0.001)))),
        Golden("n == .5", cmp(key("n"), .eq, lit(.double(0.5)))),
        Golden("n == 007", cmp(key("n"), .eq, lit(7))),
        Golden("n == 9223372036854775807", cmp(key("n"), .eq, lit(.int(.max)))),
        Golden("s == 'it\\'s'", cmp(key("s"), .eq, lit("it's"))),
        Golden("s == \"say \\\"hi\\\"\"", cmp(key("s"), .eq, lit("say \"hi\""))),
        Golden("s == 'a\\nb\\tc\\\\d'", cmp(key("s"), .eq, lit("a\nb\tc\\d"))),
        Golden("s == '\\u00e9\\u{1F600}\\uD83D\\uDE00'", cmp(key("s"), .eq, lit("é😀😀"))),
        Golden("s == '%@ and %K and $x'", cmp(key("s"), .eq, lit("%@ and %K and $x"))),
        Golden("s == ''", cmp(key("s"), .eq, lit(""))),
        Golden("s == %%", cmp(key("s"), .eq, lit("%"))),
    ]

    static let arguments: [Golden] = [
        Golden("%K == %@", ["name", "bob"], cmp(name, .eq, lit("bob"))),
        Golden("%K == %@", [.keyPath("address.city"), "Oslo"], cmp(key("address.city"), .eq, lit("Oslo"))),
        Golden("%K > 3", [.keyPath("items.@count")], cmp(.aggregate(.count, key("items")), .gt, lit(3))),
        Golden("%K < 3", [.keyPath("@sum.items.price")], cmp(.aggregate(.sum, key("items.price")), .lt, lit(3))),
        Golden("age > %d AND age < %lld", [18, 65], .and([cmp(age, .gt, lit(18)), cmp(age, .lt, lit(65))])),
        Golden(
            "x == %i OR x == %u OR x == %x OR x == %ld", [1, 2, 3, 4],
            .or([
                cmp(key("x"), .eq, lit(1)), cmp(key("x"), .eq, lit(2)), cmp(key("x"), .eq, lit(3)),
                cmp(key("x"), .eq, lit(4)),
            ])),
        Golden(
            "x > %f AND x < %g", [1, 2.5], .and([cmp(key("x"), .gt, lit(.double(1))), cmp(key("x"), .lt, lit(2.5))])),
        Golden("name LIKE '%@'", [], leaf(.string(name, .like(.glob), lit("%@"), []))),
        Golden(
            "post = %@", [.value(.pointer(Pointer(className: "Post", objectId: "1zEcyElZ80")))],
            cmp(key("post"), .eq, lit(.pointer(Pointer(className: "Post", objectId: "1zEcyElZ80"))))),
        Golden("x BETWEEN %@", [[1, 5]], leaf(.between(key("x"), lower: lit(1), upper: lit(5)))),
        Golden("x == %@", [nil], cmp(key("x"), .eq, lit(.null))),
        Golden(
            "x IN %@", [[[1, 2], 3]], leaf(.inCollection(key("x"), .list([.list([lit(1), lit(2)]), lit(3)]), []))),
        Golden("d > %@", [.value(.date(0))], cmp(key("d"), .gt, lit(.date(0)))),
        Golden("FUNCTION(SELF, %@, 4) == 2", ["sqrt:"], cmp(.function(.sqrt, [lit(4)]), .eq, lit(2))),
    ]

    @Test(arguments: comparisons + compounds + strings + membership)
    func lowersPredicates(_ g: Golden) throws {
        #expect(try PredicateFormat.parse(g.text, arguments: g.arguments) == g.ir)
    }

    @Test(arguments: quantifiers + collections + expressions)
    func lowersExpressions(_ g: Golden) throws {
        #expect(try PredicateFormat.parse(g.text, arguments: g.arguments) == g.ir)
    }

    @Test(arguments: literals + arguments)
    func lowersLiteralsAndArguments(_ g: Golden) throws {
        #expect(try PredicateFormat.parse(g.text, arguments: g.arguments) == g.ir)
    }

    @Test func everyLeafHasPredicateSemantics() throws {
        for g in Self.comparisons + Self.strings + Self.membership + Self.quantifiers + Self.collections {
            let p = try PredicateFormat.parse(g.text, arguments: g.arguments)
            #expect(p.leaves.allSatisfy { $0.semantics == .predicate }, "\(g.text)")
        }
    }

    @Test func whitespaceAndCaseDoNotMatter() throws {
        let a = try PredicateFormat.parse("name beginswith[c] 'x' and not age<3 or tags contains 'y'")
        let b = try PredicateFormat.parse("  name\tBEGINSWITH[c]\n'x'  AND NOT (age < 3) OR tags CONTAINS 'y' ")
        #expect(a == b)
    }
}

extension Filter {
    /// Every leaf, including those inside quantifiers and subqueries.
    var leaves: [Leaf] {
        switch self {
        case .constant: return []
        case .and(let ps), .or(let ps): return ps.flatMap(\.leaves)
        case .not(let p): return p.leaves
        case .leaf(let l):
            if case .quantified(_, _, _, let body) = l.condition { return [l] + body.leaves }
            return [l]
        }
    }
}
