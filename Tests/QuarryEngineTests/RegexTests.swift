import QuarryCore
import Testing

@testable import QuarryEngine

@Suite struct RegexTests {
    private func regex(_ p: String, whole: Bool = false, _ flags: RegexFlags = []) throws -> CompiledRegex {
        try CompiledRegex(p, options: RegexOptions(wholeString: whole, flags: flags))
    }

    @Test(arguments: [
        // pattern, subject, whole string, flags, expected
        ("Michael", "Big Michael", false, "", true),
        ("^Michael", "Big Michael", false, "", false),
        ("^Michael", "Michael Yabuti", false, "", true),
        ("michael", "Michael Yabuti", false, "", false),
        ("michael", "Michael Yabuti", false, "i", true),
        ("Mich", "Michael", true, "", false),  // MATCHES needs the whole string
        ("Mich.*", "Michael", true, "", true),
        ("a|ab", "ab", true, "", true),  // anchoring applies to every alternative
        ("^b$", "a\nb\nc", false, "", false),
        ("^b$", "a\nb\nc", false, "m", true),
        ("a.c", "a\nc", false, "", false),
        ("a.c", "a\nc", false, "s", true),
        ("a b c # comment", "abc", false, "x", true),
        ("a b c", "abc", false, "", false),
        ("\\w+", "ünïcödé", true, "", true),  // UCP: \w knows non-ASCII letters
        ("ÜNÏ", "ünï", false, "i", true),  // caseless over Unicode
        (".", "😀", true, "", true),  // one character is one scalar, not one byte
        ("\\Q.*+?\\E", "x.*+?y", false, "", true),  // \Q…\E quotes metacharacters (Parse)
        ("\\Q.*\\E", "abc", false, "", false),
        ("^\\Qa.b\\E$", "a.b", false, "", true),
        ("^\\Qa.b\\E$", "axb", false, "", false),
        ("", "anything", false, "", true),
        ("", "", true, "", true),
    ])
    func matchesLikePCRE(pattern: String, subject: String, whole: Bool, letters: String, expected: Bool) throws {
        let flags = try #require(RegexFlags(letters: letters))
        #expect(try regex(pattern, whole: whole, flags).matches(subject) == expected)
    }

    @Test func invalidPatternReportsMessageAndOffset() {
        #expect {
            _ = try regex("ab(c")
        } throws: { error in
            guard let d = error as? Diagnostic else { return false }
            return d.code == "regex.invalid" && d.message.contains("missing closing parenthesis")
                && d.message.hasSuffix("at pattern offset 4") && d.range == nil
        }
        #expect(throws: Diagnostic.self) { _ = try regex("[z-a]") }
        #expect(throws: Diagnostic.self) { _ = try regex("a{2,1}") }
    }

    @Test func backslashCIsRejectedSoMatchesNeverSplitACharacter() {
        #expect(throws: Diagnostic.self) { _ = try regex("\\C") }
    }

    @Test func catastrophicBacktrackingHitsTheBudget() throws {
        let r = try regex("(a+)+$")
        let subject = String(repeating: "a", count: 40) + "b"
        #expect {
            _ = try r.matches(subject)
        } throws: { error in
            (error as? Diagnostic)?.code == "limit.regex"
        }
        // The same pattern is fine on a subject that matches quickly.
        #expect(try r.matches(String(repeating: "a", count: 40)))
    }

    @Test func smallerMatchLimitFailsSooner() throws {
        let limits = Limits(regexMatchLimit: 10)
        let r = try CompiledRegex("(a|b)*\\d", options: RegexOptions(wholeString: false), limits: limits)
        #expect(throws: Diagnostic.self) { _ = try r.matches(String(repeating: "ab", count: 200)) }
        // The default budget handles the same input.
        #expect(try regex("(a|b)*\\d").matches(String(repeating: "ab", count: 200)) == false)
    }

    @Test func repairedInvalidUTF8IsMatchedAsReplacementCharacters() throws {
        // Swift strings are always valid UTF-8: invalid bytes arrive as U+FFFD.
        let subject = String(decoding: [0x61, 0xFF, 0xFE, 0x62] as [UInt8], as: UTF8.self)
        #expect(try regex("^a\\x{FFFD}+b$").matches(subject))
        #expect(try regex("^a..b$").matches(subject))
    }

    @Test func subjectWithEmbeddedNulIsMatchedInFull() throws {
        #expect(try regex("a\\x00b", whole: true).matches("a\u{0}b"))
        #expect(try regex("b$").matches("a\u{0}b"))
    }

    @Test func concurrentMatchingSharesOneCompiledPattern() async throws {
        let r = try regex("^[a-z]+[0-9]{2}$")
        let results = await withTaskGroup(of: Bool.self) { group in
            for i in 0..<64 {
                group.addTask { (try? r.matches(i % 2 == 0 ? "abc\(10 + i)" : "ABC\(10 + i)")) ?? false }
            }
            var all: [Bool] = []
            for await b in group { all.append(b) }
            return all
        }
        #expect(results.filter { $0 }.count == 32)
    }
}
