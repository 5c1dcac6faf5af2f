import QuarryCore
import Testing
import QuarryTestSupport
@testable import QuarryPredicate

/// Untrusted input is the normal case: mangled predicates give diagnostics inside the text,
/// never a crash, a hang or a diagnostic without a place.
@Suite struct FuzzTests {
    static let fragments = [
        "(", ")", "{", "}", "[", "]", ",", ".", "'", "\"", "\\", "%@", "%K", "%d", "%", "$",
        "@count", "#", "==", "!=", "<", ">=", "&&", "||", "!", "+", "-", "**", "/", ":=",
        " AND ", " OR ", " NOT ", " ANY ", " IN ", " BETWEEN ", " CONTAINS ", " SELF ",
        " SUBQUERY(", " CAST(", " FUNCTION(", "[c]", "[FIRST]", "0x", "1e", ".5", "9999999999999999999999",
        "é", "😀", "\u{0}", "\n", " ", "a", "$x", "now()", "{1,2}",
    ]

    @Test(arguments: [21, 22, 23, 24] as [UInt64])
    func mangledPredicatesFailCleanly(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let seeds = GrammarTests.examples.map(\.text)
        for _ in 0..<1500 {
            var text = Array(seeds[Int.random(in: 0..<seeds.count, using: &rng)])
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let at = Int.random(in: 0...text.count, using: &rng)
                switch Int.random(in: 0...2, using: &rng) {
                case 0 where at < text.count: text.remove(at: at)
                case 1:
                    text.insert(
                        contentsOf: Self.fragments[Int.random(in: 0..<Self.fragments.count, using: &rng)], at: at)
                default:
                    if at < text.count {
                        text.replaceSubrange(
                            at...at, with: Self.fragments[Int.random(in: 0..<Self.fragments.count, using: &rng)])
                    }
                }
            }
            let format = String(text)
            let args = (try? GrammarTests.placeholders(format)) ?? []
            do {
                let p = try PredicateFormat.parse(format, arguments: args)
                // Whatever parses prints and parses back to itself.
                let (printed, printedArgs) = try PredicateFormat.printWithArguments(p)
                #expect(try PredicateFormat.parse(printed, arguments: printedArgs) == p, "\(format)")
            } catch {
                let size = format.utf8.count
                #expect(!error.all.isEmpty, "\(format)")
                for d in error.all {
                    let r = d.range
                    #expect(r != nil && r!.offset >= 0 && r!.end <= size, "\(format): \(d)")
                }
            }
        }
    }
}
