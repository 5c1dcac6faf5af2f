import QuarryCore
import Testing
@testable import QuarryPredicate

/// Every NSPredicate example in the seeds (`grep -n "predicateWithFormat\|NSPredicate" seeds/*`),
/// with the IR it lowers to. The Swift and Objective-C copies of one example are one row.
struct SeedExample: Sendable, CustomTestStringConvertible {
    var source: String
    var text: String
    var arguments: [PredicateArgument]
    var ir: Filter
    var testDescription: String { "\(source): \(text)" }
}

private let names: PredicateArgument = ["Jonathan Walsh", "Dario Wunsch", "Shawn Simon"]
private let nameList = Expr.list([lit("Jonathan Walsh"), lit("Dario Wunsch"), lit("Shawn Simon")])
private let myPost = Pointer(className: "Post", objectId: "1zEcyElZ80")
private let hasImage = leaf(.isNull(key("image")), negated: true)
private let innerQuery = Query(className: "Post", predicate: hasImage)

@Suite struct SeedExampleTests {
    static let examples: [SeedExample] = [
        // The guide's predicate truncates the name: it is valid, and matches "Dan Stemkosk" only.
        SeedExample(
            source: "004:L662/L671/L679/L681", text: "playerName = 'Dan Stemkosk'", arguments: [],
            ir: cmp(key("playerName"), .eq, lit("Dan Stemkosk"))),
        SeedExample(
            source: "004:L696/L702", text: "playerName != 'Michael Yabuti'", arguments: [],
            ir: cmp(key("playerName"), .ne, lit("Michael Yabuti"))),
        SeedExample(
            source: "004:L712/L719", text: "playerName != 'Michael Yabuti' AND playerAge > 18", arguments: [],
            ir: .and([cmp(key("playerName"), .ne, lit("Michael Yabuti")), cmp(key("playerAge"), .gt, lit(18))])),
        SeedExample(source: "004:L787/L810", text: "wins < 50", arguments: [], ir: cmp(key("wins"), .lt, lit(50))),
        SeedExample(source: "004:L793/L816", text: "wins <= 50", arguments: [], ir: cmp(key("wins"), .le, lit(50))),
        SeedExample(source: "004:L799/L822", text: "wins > 50", arguments: [], ir: cmp(key("wins"), .gt, lit(50))),
        SeedExample(source: "004:L805/L828", text: "wins >= 50", arguments: [], ir: cmp(key("wins"), .ge, lit(50))),
        SeedExample(
            source: "004:L840/L849", text: "playerName IN %@", arguments: [names],
            ir: leaf(.inCollection(key("playerName"), nameList, []))),
        SeedExample(
            source: "004:L861/L870", text: "NOT (playerName IN %@)", arguments: [names],
            ir: .not(leaf(.inCollection(key("playerName"), nameList, [])))),
        SeedExample(
            source: "004:L878/L889", text: "score IN SELF", arguments: [],
            ir: leaf(.isNull(key("score")), negated: true)),
        SeedExample(
            source: "004:L884/L895", text: "NOT (score IN SELF)", arguments: [],
            ir: .not(leaf(.isNull(key("score")), negated: true))),
        SeedExample(
            source: "004:L969/L976", text: "2 IN arrayKey", arguments: [],
            ir: leaf(.inCollection(lit(2), key("arrayKey"), []))),
        SeedExample(
            source: "004:L1029/L1045", text: "post = %@", arguments: [.value(.pointer(myPost))],
            ir: cmp(key("post"), .eq, lit(.pointer(myPost)))),
        SeedExample(
            source: "004:L1059/L1065", text: "post = %@",
            arguments: [.value(.pointer(Pointer(className: "Post", objectId: "1zEcyElZ80")))],
            ir: cmp(key("post"), .eq, lit(.pointer(myPost)))),
        SeedExample(source: "004:L1079/L1099/L1122/L1142", text: "image IN SELF", arguments: [], ir: hasImage),
        SeedExample(
            source: "004:L1082/L1102", text: "post IN %@", arguments: [.query(innerQuery)],
            ir: leaf(.inQuery(FieldPath("post"), innerQuery))),
        SeedExample(
            source: "004:L1125/L1145", text: "NOT (post IN %@)", arguments: [.query(innerQuery)],
            ir: .not(leaf(.inQuery(FieldPath("post"), innerQuery)))),
        SeedExample(
            source: "000:L522-524, 001:L509-510", text: "publisher = 'MaxLeap'", arguments: [],
            ir: cmp(key("publisher"), .eq, lit("MaxLeap"))),
        SeedExample(
            source: "000:L529, 001:L518 (list)", text: "x IN {1, 2, 3}", arguments: [],
            ir: leaf(.inCollection(key("x"), .list([lit(1), lit(2), lit(3)]), []))),
        SeedExample(
            source: "000:L530, 001:L519 (list)", text: "x IN SELF", arguments: [],
            ir: leaf(.isNull(key("x")), negated: true)),
    ]

    @Test(arguments: examples)
    func lowersTheSeedExample(_ e: SeedExample) throws {
        #expect(try PredicateFormat.parse(e.text, arguments: e.arguments) == e.ir)
    }

    /// The platforms that published the examples accept them under their own profile.
    @Test(arguments: examples)
    func theSeedsOwnPlatformAcceptsIt(_ e: SeedExample) throws {
        let profile: Profile = e.source.hasPrefix("004") ? .parse : .maxleap
        #expect(try PredicateFormat.parse(e.text, arguments: e.arguments, profile: profile) == e.ir)
    }

    @Test(arguments: examples)
    func printsBackToTheSameIR(_ e: SeedExample) throws {
        let (text, args) = try PredicateFormat.printWithArguments(e.ir)
        #expect(try PredicateFormat.parse(text, arguments: args) == e.ir)
    }

    /// 004:L1000/L1008 — the guide's `name BEGINSWITH 'Big Daddy` never closes its quote.
    @Test func theBigDaddyTypoIsAnUnterminatedString() throws {
        let text = "name BEGINSWITH 'Big Daddy"
        #expect(failure(text) == "lex.unterminated-string@1:17")
        #expect(failure(text, profile: .parse) == "lex.unterminated-string@1:17")
        // As intended (the PFQuery version uses "Big Daddy's"), it is a BEGINSWITH.
        #expect(
            try PredicateFormat.parse("name BEGINSWITH \"Big Daddy's\"", profile: .parse)
                == leaf(.string(key("name"), .beginsWith, lit("Big Daddy's"), [])))
    }

    /// 000:L532 — "Compound predicate with ANDOR and NOT": ANDOR is no operator.
    @Test func theAndOrTypoIsNoOperator() throws {
        #expect(failure("a == 1 ANDOR b == 2") == "syntax.unexpected-token@1:8")
        let d = try #require(diagnostics("a == 1 ANDOR b == 2").first)
        #expect(d.message == "expected AND, OR or the end of the predicate but found 'ANDOR'")
        #expect(d.notes == ["write AND or OR, separated from NOT by a space"])
    }

    /// 004:L1000 written with the apostrophe the PFQuery version has, unescaped.
    @Test func anUnescapedApostropheExplainsItself() throws {
        let d = try #require(diagnostics("name BEGINSWITH 'Big Daddy's'").first)
        #expect(d.code == "lex.unterminated-string")
        #expect(d.notes.first == "the ' at 1:27 ended the string before it; write \\' there")
    }
}
