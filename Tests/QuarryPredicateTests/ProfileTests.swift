import QuarryCore
import Testing
@testable import QuarryPredicate

private let names: PredicateArgument = ["Jonathan Walsh", "Dario Wunsch", "Shawn Simon"]
private let innerQuery = PredicateArgument.query(
    Query(className: "Post", predicate: leaf(.isNull(key("image")), negated: true)))
private let myPost = PredicateArgument.value(.pointer(Pointer(className: "Post", objectId: "1zEcyElZ80")))

@Suite struct ProfileTests {
    /// What the Parse and MaxLeap guides list as supported, including every seed example.
    static let supportedByBoth: [(String, [PredicateArgument])] = [
        ("playerName = 'Dan Stemkosk'", []),
        ("playerName != 'Michael Yabuti' AND playerAge > 18", []),
        ("wins < 50", []), ("wins <= 50", []), ("wins > 50", []), ("wins >= 50", []),
        ("3 <= wins", []),
        ("wins BETWEEN {49, 50}", []),
        ("playerName IN %@", [names]),
        ("NOT (playerName IN %@)", [names]),
        ("x IN {1, 2, 3}", []),
        ("score IN SELF", []),
        ("NOT (score IN SELF)", []),
        ("2 IN arrayKey", []),
        ("name BEGINSWITH 'Big Daddy'", []),
        ("post = %@", [myPost]),
        ("post IN %@", [innerQuery]),
        ("NOT (post IN %@)", [innerQuery]),
        ("publisher = 'MaxLeap'", []),
        ("readCount < 10 OR readCount > 100", []),
        ("publisher != 'MaxLeap' AND (readCount < 10 OR readCount > 100)", []),
        ("NOT (readCount >= 10 AND readCount <= 100)", []),
        ("createdAt > CAST(0, 'NSDate')", []),
        ("wins > $min", []),
        ("a == 1 OR a == 2 OR a == 3 OR a == 4", []),
        // Four branches after expansion: (a∧c) ∨ (a∧d) ∨ (b∧c) ∨ (b∧d).
        ("(a == 1 OR b == 1) AND (c == 1 OR d == 1)", []),
        // Every branch shares a == 1, and one branch is nothing else: it reduces to a == 1.
        ("a == 1 OR (a == 1 AND b == 2) OR (a == 1 AND c == 3) OR (a == 1 AND d == 4) OR (a == 1 AND e == 5)", []),
    ]

    @Test func acceptsWhatTheGuidesList() throws {
        for profile in [Profile.parse, .maxleap] {
            for (text, args) in Self.supportedByBoth {
                #expect(throws: Never.self, "\(profile) \(text)") {
                    try PredicateFormat.parse(text, arguments: args, profile: profile)
                }
            }
        }
    }

    /// Rejected by both, each with `profile.unsupported` at the construct.
    static let unsupportedByBoth: [(String, [PredicateArgument], String)] = [
        ("ANY arrayKey = 2", [], "1:1"),
        ("wins > readCount", [], "1:1"),
        ("1 == 2", [], "1:1"),
        ("NOT (name BEGINSWITH 'x')", [], "1:11"),
        ("TRUEPREDICATE", [], "1:1"),
        ("items.@count > 2", [], "1:1"),
        ("sqrt(x) > 2", [], "1:1"),
        ("a + 1 > 2", [], "1:1"),
        ("a[0] == 1", [], "1:1"),
        ("SUBQUERY(a, $x, $x == 1).@count > 0", [], "1:1"),
        ("cheatMode > TRUE", [], "1:11"),
        ("name BEGINSWITH[d] 'x'", [], "1:16"),
        ("wins > 1 AND SELF == 2", [], "1:14"),
        ("a == 1 OR a == 2 OR a == 3 OR a == 4 OR a == 5", [], "1:1"),
        ("(a == 1 OR a == 2) AND (b == 1 OR b == 2) AND (c == 1 OR c == 2)", [], "1:1"),
        ("NOT (a == 1 AND b == 1 AND c == 1 AND d == 1 AND e == 1)", [], "1:1"),
    ]

    @Test func rejectsWhatTheGuidesExclude() {
        for profile in [Profile.parse, .maxleap] {
            for (text, args, at) in Self.unsupportedByBoth {
                #expect(failure(text, args, profile: profile) == "profile.unsupported@\(at)", "\(profile) \(text)")
            }
        }
    }

    /// The regular-expression family: MaxLeap's list has it, Parse's does not.
    static let regexFamily: [(String, String)] = [
        ("title ENDSWITH \"'s\"", "1:7"),
        ("title CONTAINS 'Daddy'", "1:7"),
        ("title LIKE[c] 'big*'", "1:7"),
        ("title MATCHES '.*BBQ'", "1:7"),
    ]

    @Test func regexFamilyDependsOnTheProfile() throws {
        for (text, at) in Self.regexFamily {
            #expect(failure(text, profile: .parse) == "profile.unsupported@\(at)", "\(text)")
            #expect(throws: Never.self, "\(text)") { try PredicateFormat.parse(text, profile: .maxleap) }
        }
        #expect(failure("name BEGINSWITH[c] 'x'", profile: .parse) == "profile.unsupported@1:16")
        #expect(throws: Never.self) { try PredicateFormat.parse("name BEGINSWITH[c] 'x'", profile: .maxleap) }
        #expect(failure("NOT (title CONTAINS 'x')", profile: .maxleap) == "profile.unsupported@1:12")
        #expect(failure("a ==[c] 'x'", profile: .maxleap) == "profile.unsupported@1:5")
    }

    @Test func messagesNameTheConstructAndTheProfile() throws {
        let d = try #require(diagnostics("ANY arrayKey = 2", profile: .parse).first)
        #expect(d.message == "the parse profile does not support aggregate operations such as ANY")
        let k = try #require(diagnostics("wins > readCount", profile: .maxleap).first)
        #expect(k.message == "the maxleap profile does not support predicates comparing one key to another")
        let r = try #require(diagnostics("title ENDSWITH 's'", profile: .parse).first)
        #expect(r.message == "the parse profile does not support regular expressions such as ENDSWITH")
        let or = try #require(diagnostics("a == 1 OR a == 2 OR a == 3 OR a == 4 OR a == 5", profile: .parse).first)
        #expect(
            or.message
                == "the parse profile does not support complex predicates with many ORed clauses: after normalization an OR has 5 branches (at most 4)"
        )
    }

    @Test func leanCloudAndBackendlessTakeNoFormatStrings() {
        for profile in [Profile.leancloud, .backendless] {
            #expect(failure("a == 1", profile: profile) == "profile.unsupported@1:1")
        }
    }

    @Test func exactAcceptsEverything() throws {
        for (text, args, _) in Self.unsupportedByBoth {
            #expect(throws: Never.self, "\(text)") { try PredicateFormat.parse(text, arguments: args) }
        }
    }
}
