import QuarryCore
import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// `RegexText.globSuperset`: a GLOB pattern every string the pattern matches also matches,
/// which the SQLite store tests before running the pattern.
@Suite struct RegexGlobSupersetTests {
    @Test(
        arguments: [
            // pattern (as the IR holds it), whole string, flags, GLOB
            ("(?:^J.n)(?s:.*)", true, "", "J?n*"),  // Parse `$regex` `^J.n`, rewritten
            ("(?s)(?:^Ab.c)(?s:.*)", true, "", "Ab?c*"),  // with `s`
            ("(?:^Joh?n)(?s:.*)", true, "", "Jo*"),  // a quantified letter is not required
            ("(?:^Jo+)(?s:.*)", true, "", "J*"),
            ("(?:^Zoe 1-2,3)(?s:.*)", true, "", "Zoe 1-2,3*"),
            ("J.n.*", true, "", "J?n*"),  // NSPredicate MATCHES
            ("^Ann.*", true, "", "Ann*"),
            ("^Ann.*", true, "m", "Ann*"),  // an anchored match starts at the start either way
            ("A_b.*", true, "", "A*"),  // `_` and `%` are LIKE's, left out
            ("^Jo\\E?", false, "", "J*"),  // PCRE skips `\E`: the `?` is the `o`'s
            ("^Jo(?#c)?", false, "", "J*"),
            ("^Jo\\d", false, "", "Jo*"),
            ("^Joé?", false, "", "Jo*"),
            ("^..J", false, "", "??J*"),
            ("^J..?", false, "", "J?*"),
            ("^...", false, "", nil),  // no literal: nothing worth a GLOB
            ("(?:^J{2})(?s:.*)", true, "", nil),
            ("(?:^J)?(?:x)(?s:.*)", true, "", nil),  // a body that closes the group and quantifies it
            ("(?:^J(a))(?s:.*)", true, "", nil),
            ("(?:^Jan)(?s:.*)", true, "i", nil),
            ("(?:^Jan)(?s:.*)", true, "x", nil),
            ("(?i)Jan", true, "", nil),
            ("J|K", true, "", nil),
            ("(?:^J\\|x)(?s:.*)", true, "", nil),
            ("\\QJ.\\E.*", true, "", nil),
            ("(?s:.*?)(?:an)(?s:.*)", true, "", nil),  // an unanchored search
            ("^J.n", false, "", "J?n*"),  // Parse `$regex`, a search from the subject's start
            ("^J.n", false, "s", "J?n*"),
            ("^J.n", false, "m", nil),  // `^` after any newline too
            ("Jan", false, "", nil),  // a search anywhere
            ("(?:^Jan)", false, "", nil),
            ("ñu.*", true, "", nil),  // ASCII only
            ("", true, "", nil),
        ] as [(String, Bool, String, String?)])
    func supersetOfPatterns(pattern: String, whole: Bool, letters: String, expected: String?) throws {
        let flags = try #require(RegexFlags(letters: letters))
        #expect(RegexText.globSuperset(pattern, RegexOptions(wholeString: whole, flags: flags)) == expected)
    }

    /// Random patterns, whole-string, searched, and searched as the rewrite the NSPredicate
    /// translation makes, against random subjects: every subject a pattern with a superset
    /// matches passes its GLOB, and every subject that fails the GLOB is turned away under the
    /// first match limit, so dropping it charges no budget the reference would have charged.
    @Test func everyMatchPassesTheGlobAndTheRestAreDecidedUncharged() throws {
        var rng = SplitMix64(seed: 7)
        let pieces = [
            "J", "a", "n", "Ja", " ", "-", ".", ".", "?", "*", "+", "{2}", "(", ")", "(?:", "|", "^", "$", "\\d",
            "[a-n]", "\\", "_", "\\Q", "\\E",
        ]
        let letters = Array("Jan -_\n1Jaé")
        var withGlob = 0
        var matchedWithGlob = 0
        for _ in 0..<5_000 {
            let text =
                (Bool.random(using: &rng) ? "^" : "")
                + (0..<Int.random(in: 1...5, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let flags: RegexFlags = [[], [.dotAll], [.multiline], [.caseInsensitive]].randomElement(using: &rng)!
            var forms = [
                (text, RegexOptions(wholeString: true, flags: flags)),
                (text, RegexOptions(wholeString: false, flags: flags)),
            ]
            if let rewritten = RegexText.wholeString(text, RegexOptions(wholeString: false, flags: flags)) {
                forms.append(rewritten)
            }
            for (pattern, options) in forms {
                guard let regex = try? CompiledRegex(pattern, options: options),
                    let glob = RegexText.globSuperset(pattern, options)
                else { continue }
                withGlob += 1
                let data = try regex.makeMatchData()
                for _ in 0..<20 {
                    let subject = String(
                        (0..<Int.random(in: 0...6, using: &rng)).map { _ in letters.randomElement(using: &rng)! })
                    let passes = Self.glob(glob, subject)
                    if try regex.matches(subject) {
                        matchedWithGlob += 1
                        #expect(passes, "/\(pattern)/ matched '\(subject)', which fails \(glob)")
                    }
                    if !passes {
                        let decided = Array(subject.utf8).withUnsafeBufferPointer {
                            regex.matchesWithoutCharge(utf8: $0, data)
                        }
                        #expect(decided == false, "/\(pattern)/ on '\(subject)'")
                    }
                }
            }
        }
        // The generator reaches patterns with supersets, and subjects they match.
        #expect(withGlob > 800)
        #expect(matchedWithGlob > 400)
    }

    /// SQLite's GLOB for what `globSuperset` writes: literals and `?` (one scalar), then `*`.
    static func glob(_ pattern: String, _ subject: String) -> Bool {
        let items = Array(pattern.unicodeScalars.dropLast())
        let scalars = Array(subject.unicodeScalars)
        guard scalars.count >= items.count else { return false }
        return zip(items, scalars).allSatisfy { $0 == "?" || $0 == $1 }
    }
}
