import QuarryCore
import Testing

@testable import QuarryEngine

/// Strings compare by scalars: the reference's caches must not merge canonically equivalent
/// strings (`é` precomposed and `e` + U+0301), which Swift's `String ==` treats as equal.
@Suite struct CanonicalEquivalenceTests {
    let db = database(("T", [record("a", ["s": "\u{E9}"]), record("b", ["s": "e\u{301}"])]))

    @Test func caseInsensitiveEqualityDoesNotNormalize() throws {
        let q = compare("s", .eq, "\u{E9}", .predicate, .caseInsensitive)
        #expect(try ids(db, "T", q) == ["a"])
        #expect(try ids(db, "T", compare("s", .eq, "e\u{301}", .predicate, .caseInsensitive)) == ["b"])
    }

    @Test func caseInsensitiveOrderSeesTheCombiningMark() throws {
        // "e\u{301}" folds to itself and sorts before "j"; "é" sorts after it.
        #expect(try ids(db, "T", compare("s", .le, "J", .sql, .caseInsensitive)) == ["b"])
    }

    @Test func equivalentPatternsKeepTheirOwnMatchers() throws {
        let p = Filter.or([
            .leaf(.string(.key("s"), .beginsWith, .literal("\u{E9}"), []), .predicate),
            .leaf(.string(.key("s"), .beginsWith, .literal("e\u{301}"), []), .predicate),
        ])
        #expect(try ids(db, "T", p) == ["a", "b"])
    }

    @Test func equivalentTextSearchesKeepTheirOwnMatchers() throws {
        let p = Filter.or([
            .leaf(.text("s", TextSearch(terms: "\u{E9}", diacriticSensitive: true)), .document),
            .leaf(.text("s", TextSearch(terms: "e\u{301}", diacriticSensitive: true)), .document),
        ])
        #expect(try ids(db, "T", p) == ["a", "b"])
    }
}
