import Quarry
import Testing

@testable import QuarryParseREST

/// A LIKE test printed as `where` JSON (a `$regex`) and read back selects exactly the strings
/// the LIKE selects: one tokenizer (`LikeText.tokens`) reads escapes for both, so an escaped
/// wildcard stays literal and an escape at the very end stands for itself.
@Suite struct LikePatternTests {
    static let names = [
        "", "a", "ab", "a%b", "a_b", "axb", "50%", "50", "ab\\", "ab", "a\\b", "*", "a*", "a?", "ax",
        "x\\", "x", "%_", "ß", "a\nb", "Q\\E", "\\E", "a.b",
    ]
    static let database = Database([
        ClassData(
            name: "T",
            records: names.enumerated().map { i, name in
                Record(objectId: "t\(i)", fields: [("name", .string(name))])
            })
    ])

    static let patterns: [(String, LikeSyntax)] = [
        (#"a\%b"#, .sql(escape: "\\")), (#"a\_b"#, .sql(escape: "\\")), ("a_b", .sql(escape: nil)),
        (#"50\%"#, .sql(escape: "\\")), (#"ab\"#, .sql(escape: "\\")), ("a!%b", .sql(escape: "!")),
        ("%!_", .sql(escape: "!")), ("a%", .sql(escape: nil)), (#"%\E"#, .sql(escape: nil)),
        (#"a\*"#, .glob), (#"a\?"#, .glob), (#"x\"#, .glob), ("a?", .glob), ("*", .glob),
        (#"Q\\E"#, .glob), ("a.b", .glob), ("?", .glob),
    ]

    @Test(arguments: patterns)
    func printedRegexSelectsWhatTheLikeSelects(_ pattern: String, _ syntax: LikeSyntax) throws {
        let like = Filter.leaf(
            Leaf(
                .string(.key(FieldPath("name")), .like(syntax), .literal(.string(pattern)), []),
                semantics: .document))
        let json = try ParseWhere.print(Query(className: "T", predicate: like))
        #expect(json.contains("$regex"))
        let reread = try ParseWhere.parse(json, className: "T")
        let expected = try Self.database.run(Query(className: "T", predicate: like)).objectIds
        let actual = try Self.database.run(reread).objectIds
        #expect(actual == expected, "\(pattern) → \(json)")
    }

    @Test func aTrailingEscapeStandsForItself() {
        #expect(LikePattern.regex(#"ab\"#, .sql(escape: "\\")) == LikePattern.regex(#"ab\\"#, .sql(escape: "\\")))
        #expect(LikePattern.regex(#"x\"#, .glob) == #"\A\Qx\\E\z"#)
        #expect(LikePattern.regex(#"a\%b%"#, .sql(escape: "\\")) == #"\A\Qa%b\E.*\z"#)
    }
}
