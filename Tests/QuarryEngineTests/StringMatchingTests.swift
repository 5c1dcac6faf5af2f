import Foundation
import QuarryCore
import Testing
import QuarryTestSupport

@testable import QuarryEngine

@Suite struct StringFoldingTests {
    private func same(_ a: String, _ b: String, _ o: StringOptions) -> Bool {
        StringFolding.fold(a, o).unicodeScalars.elementsEqual(StringFolding.fold(b, o).unicodeScalars)
    }

    @Test(arguments: [
        ("Straße", "STRASSE", true),  // full folding: ß → ss
        ("Straße", "strasse", true),
        ("\u{1E9E}", "ss", true),  // capital sharp s
        ("ς", "Σ", true),  // final sigma
        ("σ", "Σ", true),
        ("\u{212A}", "k", true),  // Kelvin sign
        ("ﬁ", "FI", true),  // ligature folds to two letters
        ("ǰ", "J\u{30C}", true),  // a precomposed letter whose folding is its decomposition
        ("\u{AB70}", "\u{13A0}", true),  // Cherokee folds to its uppercase
        ("ı", "I", false),  // no Turkic mappings
        ("ı", "i", false),
        ("İ", "i\u{307}", true),
        ("É", "é", true),
        ("é", "e\u{301}", false),  // case folding alone does not normalize
        ("Ünïcödé", "ÜNÏCÖDÉ", true),
        ("abc", "abd", false),
    ])
    func caseFolding(a: String, b: String, equal: Bool) {
        #expect(same(a, b, .caseInsensitive) == equal)
    }

    @Test(arguments: [
        ("café", "cafe", true),
        ("cafe\u{301}", "café", true),  // NFD first, so composed and decomposed agree
        ("Ångström", "Angstrom", true),
        ("naïve", "naive", true),
        ("ø", "o", false),  // no canonical decomposition: kept
        ("Café", "cafe", false),  // case still matters with [d] alone
        ("\u{915}\u{93F}", "\u{915}", false),  // Devanagari vowel sign (spacing mark) is kept
    ])
    func diacriticStripping(a: String, b: String, equal: Bool) {
        #expect(same(a, b, .diacriticInsensitive) == equal)
    }

    @Test func caseAndDiacriticTogether() {
        #expect(same("CAFÉ", "cafe", [.caseInsensitive, .diacriticInsensitive]))
        #expect(same("İstanbul", "istanbul", [.caseInsensitive, .diacriticInsensitive]))
        #expect(!same("CAFÉ", "cafe", .caseInsensitive))
    }

    /// The non-ASCII scalars whose full folding holds an ASCII letter, which the PostgreSQL store
    /// reads to push a case-insensitive LIKE down exactly or narrow it to the rows holding them:
    /// this Unicode version's, and none beyond the planes the store's scan covers.
    @Test func theScalarsFoldingIntoASCIIAreFoundInTheCasedPlanes() {
        let into = StringFolding.nonASCIIFoldingInto
        #expect(Set(into.keys) == Set("afhijklnstwy".utf8))
        #expect(into.values.reduce(0) { $0 + $1.count } == 25)
        #expect(into[UInt8(ascii: "j")] == ["\u{1F0}"])
        #expect(into[UInt8(ascii: "k")] == ["\u{212A}"])
        #expect(into[UInt8(ascii: "s")] == ["\u{DF}", "\u{17F}", "\u{1E9E}", "\u{FB05}", "\u{FB06}"])
        #expect(into[UInt8(ascii: "f")] == ["\u{FB00}", "\u{FB01}", "\u{FB02}", "\u{FB03}", "\u{FB04}"])
        #expect(StringFolding.foldingIntoASCII(in: 0x20000...0x10FFFF).isEmpty)
    }

    @Test func noOptionsLeavesTheStringAlone() {
        #expect(StringFolding.fold("Ünï", []) == "Ünï")
    }

    /// Foundation's folding is an independent implementation of the same table; it predates
    /// Unicode 9 additions and lowercases Cherokee, so the comparison skips those.
    @Test func agreesWithFoundationOnOlderScripts() {
        var disagreements: [String] = []
        for v in UInt32(0)..<0x3_0000 {
            guard let u = Unicode.Scalar(v), let age = u.properties.age, age.major <= 8 else { continue }
            if (0x13A0...0x13FF).contains(v) || (0xAB70...0xABBF).contains(v) { continue }
            let mine = StringFolding.caseFold(String(u))
            let theirs = String(u).folding(options: [.caseInsensitive], locale: nil)
            if !mine.unicodeScalars.elementsEqual(theirs.unicodeScalars) {
                disagreements.append(String(v, radix: 16))
            }
        }
        #expect(disagreements == [])
    }
}

@Suite struct LikePatternTests {
    @Test(arguments: [
        // pattern, subject, expected (case-sensitive SQL, no escape)
        ("foo", "foo", true),
        ("foo", "Foo", false),
        ("foo%", "foobar", true),
        ("%foo", "barfoo", true),
        ("%foo%", "xfooy", true),
        ("%foo%", "fo", false),
        ("f_o", "foo", true),
        ("f_o", "fo", false),
        ("f_o", "fooo", false),
        ("%", "", true),
        ("_", "", false),
        ("", "", true),
        ("", "a", false),
        ("%%%", "abc", true),
        ("a%b%c", "aXbYc", true),
        ("a%b%c", "aXcYb", false),
        ("%a%b", "abab", true),
        ("_😀_", "a😀b", true),  // `_` is one scalar, whatever its UTF-8 length
        ("_", "e\u{301}", false),  // …so a decomposed é is two
        ("__", "e\u{301}", true),
    ])
    func sqlLike(pattern: String, subject: String, expected: Bool) {
        #expect(LikePattern(pattern, syntax: .sql(escape: nil), options: []).matches(subject) == expected)
    }

    @Test(arguments: [
        ("100!%", "100%", true),
        ("100!%", "1000", false),
        ("a!_b", "a_b", true),
        ("a!_b", "axb", false),
        ("a!!b", "a!b", true),
        ("a!b", "ab", true),  // an escaped ordinary character is itself
        ("abc!", "abc!", true),  // a trailing escape stands for itself
        ("%!%%", "50% off", true),
    ])
    func sqlLikeWithEscape(pattern: String, subject: String, expected: Bool) {
        #expect(LikePattern(pattern, syntax: .sql(escape: "!"), options: []).matches(subject) == expected)
    }

    @Test(arguments: [
        ("*foo*", "xfooy", true),
        ("f?o", "foo", true),
        ("f?o", "fo", false),
        ("%", "%", true),  // no SQL wildcards in a glob
        ("%", "x", false),
        ("_", "x", false),
        ("a\\*b", "a*b", true),
        ("a\\*b", "axb", false),
        ("a\\?", "a?", true),
        ("a\\\\", "a\\", true),
        ("x\\", "x\\", true),
    ])
    func glob(pattern: String, subject: String, expected: Bool) {
        #expect(LikePattern(pattern, syntax: .glob, options: []).matches(subject) == expected)
    }

    @Test func caseInsensitiveFoldsLiteralsAndSubject() {
        let ci: StringOptions = .caseInsensitive
        #expect(LikePattern("jack%", syntax: .sql(escape: nil), options: ci).matches("JACK Daniels"))
        #expect(LikePattern("STRASSE", syntax: .sql(escape: nil), options: ci).matches("Straße"))
        #expect(LikePattern("stra%e", syntax: .sql(escape: nil), options: ci).matches("STRAẞE"))
        // `_` matches one scalar of the folded subject: ß folds to two.
        #expect(!LikePattern("stra_e", syntax: .sql(escape: nil), options: ci).matches("Straße"))
        #expect(LikePattern("stra__e", syntax: .sql(escape: nil), options: ci).matches("Straße"))
        #expect(
            LikePattern("*ÉCOLE*", syntax: .glob, options: [.caseInsensitive, .diacriticInsensitive])
                .matches("une ecole"))
        #expect(!LikePattern("*ÉCOLE*", syntax: .glob, options: ci).matches("une ecole"))
    }

    @Test func pathologicalPatternsStayPolynomial() {
        let subject = String(repeating: "a", count: 5000)
        let pattern = String(repeating: "%a", count: 40) + "b"
        #expect(!LikePattern(pattern, syntax: .sql(escape: nil), options: []).matches(subject))
        #expect(LikePattern(String(repeating: "*a", count: 40), syntax: .glob, options: []).matches(subject))
    }

    /// Random patterns over a tiny alphabet against a direct recursive definition of LIKE.
    @Test func agreesWithRecursiveDefinition() {
        var rng = SplitMix64(seed: 7)
        func randomString(_ alphabet: [Character], _ maxLength: Int) -> String {
            String(
                (0..<Int(rng.next() % UInt64(maxLength + 1))).map { _ in
                    alphabet[Int(rng.next() % UInt64(alphabet.count))]
                })
        }
        func reference(_ p: Substring, _ s: Substring) -> Bool {
            guard let c = p.first else { return s.isEmpty }
            switch c {
            case "%": return reference(p.dropFirst(), s) || (!s.isEmpty && reference(p, s.dropFirst()))
            case "_": return !s.isEmpty && reference(p.dropFirst(), s.dropFirst())
            default: return s.first == c && reference(p.dropFirst(), s.dropFirst())
            }
        }
        for _ in 0..<3000 {
            let p = randomString(["a", "b", "%", "_"], 7)
            let s = randomString(["a", "b"], 9)
            let got = LikePattern(p, syntax: .sql(escape: nil), options: []).matches(s)
            #expect(got == reference(p[...], s[...]), "'\(s)' LIKE '\(p)'")
        }
    }
}

@Suite struct StringMatcherTests {
    private func test(
        _ op: StringOperator, _ pattern: String, _ subject: String,
        _ options: StringOptions = []
    ) throws -> Bool {
        try StringMatcher(op, pattern: pattern, options: options, limits: .default).matches(subject, budget: nil)
    }

    /// A prefix test reads an ASCII subject's first bytes without folding it
    /// (`StringMatcher.asciiPrefix`); on random subjects and patterns that mix ASCII with
    /// scalars whose folding is longer (ß, ǰ, İ, ﬁ), maps to ASCII (K, ſ) or holds a mark, under
    /// every option, the answer is that of folding both and comparing their bytes.
    @Test func aPrefixTestAgreesWithFoldingTheSubject() throws {
        let alphabet: [String] = [
            "a", "A", "j", "J", "s", "S", "k", "K", "i", "I", "f", "F", "é", "e\u{301}", "ß", "ǰ", "İ", "ﬁ",
            "\u{212A}", "ſ", "Ω", "\u{301}", " ", "1",
        ]
        var random = SplitMix64(seed: 29)
        func text(_ maximum: Int) -> String {
            (0..<Int.random(in: 0...maximum, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
                .joined()
        }
        let optionSets: [StringOptions] = [
            [], .caseInsensitive, [.caseInsensitive, .simpleCaseFolding], .diacriticInsensitive,
            [.caseInsensitive, .diacriticInsensitive],
        ]
        var decided = 0
        for _ in 0..<4_000 {
            let pattern = text(3)
            // Most subjects start like the pattern, so that the answer is not mostly false.
            let subject = (Bool.random(using: &random) ? pattern.uppercased() : "") + text(4)
            let options = optionSets.randomElement(using: &random)!
            let folded = Array(StringFolding.fold(subject, options).utf8)
            let expected = folded.starts(with: Array(StringFolding.fold(pattern, options).utf8))
            #expect(
                try test(.beginsWith, pattern, subject, options) == expected,
                "\(pattern.debugDescription) \(subject.debugDescription) \(options)")
            if expected { decided += 1 }
        }
        #expect(decided > 500)
    }

    @Test func prefixSuffixSubstring() throws {
        #expect(try test(.beginsWith, "Big Daddy's", "Big Daddy's BBQ"))
        #expect(try !test(.beginsWith, "Big Daddy's", "big daddy's"))
        #expect(try test(.beginsWith, "Big Daddy's", "big daddy's", .caseInsensitive))
        #expect(try !test(.beginsWith, "Big Daddy's", "BBQ Sauce: Big Daddy's"))
        #expect(try test(.endsWith, "BBQ", "Big Daddy's BBQ"))
        #expect(try !test(.endsWith, "Big Daddy's BBQ!", "BBQ"))
        #expect(try test(.contains, "Michael", "Big Michael"))
        #expect(try !test(.contains, "Michael", "michael yabuti"))
        #expect(try test(.contains, "MICHAEL", "michael yabuti", .caseInsensitive))
        #expect(try test(.contains, "", "anything"))
        #expect(try test(.beginsWith, "", ""))
    }

    @Test func scalarSemanticsNotGraphemes() throws {
        // "e" is a scalar of the decomposed é, so it is a prefix and a substring of it;
        // String.hasPrefix (grapheme based) would say no.
        #expect(try test(.beginsWith, "e", "e\u{301}"))
        #expect(try test(.contains, "\u{301}", "cafe\u{301}"))
        #expect(try !test(.contains, "e", "caf\u{E9}"))
        #expect(try test(.contains, "e", "caf\u{E9}", .diacriticInsensitive))
    }

    @Test func foldedComparisons() throws {
        #expect(try test(.endsWith, "STRASSE", "Hauptstraße", .caseInsensitive))
        #expect(try test(.beginsWith, "ecole", "École normale", [.caseInsensitive, .diacriticInsensitive]))
        #expect(try !test(.beginsWith, "ecole", "École normale", .caseInsensitive))
    }

    @Test func regexHonoursStringOptions() throws {
        let whole = StringOperator.matches(RegexOptions(wholeString: true))
        #expect(try test(whole, "caf.", "café"))
        #expect(try test(whole, "CAF.", "café", .caseInsensitive))
        #expect(try test(whole, "cafe", "café", .diacriticInsensitive))
        #expect(try !test(whole, "cafe", "café"))
    }

    @Test func invalidRegexIsReportedWhenTheMatcherIsBuilt() {
        #expect(throws: Diagnostic.self) {
            _ = try StringMatcher(
                .matches(RegexOptions(wholeString: false)), pattern: "(", options: [],
                limits: .default)
        }
    }
}
