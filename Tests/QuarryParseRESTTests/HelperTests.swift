import Testing
@testable import QuarryParseREST

@Suite struct QuotedRegexTests {
    @Test(arguments: [
        ("Big Daddy's", #"^\QBig Daddy's\E"#),
        ("l.nch", #"^\Ql.nch\E"#),
        (#"a\Eb"#, #"^\Qa\E\\E\Qb\E"#),
        ("", #"^\Q\E"#),
    ])
    func prefixesAreQuotedAsTheSDKsDo(_ text: String, _ pattern: String) {
        #expect(QuotedRegex.pattern(.prefix, text) == pattern)
        #expect(QuotedRegex.parse(pattern)! == (.prefix, text))
    }

    @Test func shapesRoundTrip() {
        for text in ["plain", #"\E\E"#, #"ends with \"#, "ünï€ode", "$^.*+?()[]{}|", #"\Q nested"#] {
            for shape in [QuotedRegex.Shape.prefix, .suffix, .contains] {
                let parsed = QuotedRegex.parse(QuotedRegex.pattern(shape, text))
                #expect(parsed?.0 == shape && parsed?.1 == text, "\(shape) \(text)")
            }
        }
    }

    @Test(arguments: ["^Michael", "Michael", #"^\Qa\E$"#, #"\Qa\E.*"#, #"^\Qunterminated"#, #"\Qa\E\d"#, #"x\Qa\E"#])
    func otherPatternsStayRegexes(_ pattern: String) {
        #expect(QuotedRegex.parse(pattern) == nil)
    }
}

@Suite struct NameTests {
    @Test func keys() {
        #expect(Names.isValidKey("playerName"))
        #expect(Names.isValidKey("post.author.name_2"))
        #expect(!Names.isValidKey("_User"))
        #expect(!Names.isValidKey("2x"))
        #expect(!Names.isValidKey("a-b"))
        #expect(!Names.isValidKey("é"))
    }

    @Test func classNames() {
        #expect(Names.isValidClassName("_User"))
        #expect(Names.isValidClassName("GameScore2"))
        #expect(!Names.isValidClassName("2Game"))
        #expect(!Names.isValidClassName(""))
        #expect(!Names.isValidClassName("Game Score"))
    }
}
