import Testing
import QuarryTestSupport
import QuarryCore
import QuarrySQL

/// Mutated where clauses: never a crash or a hang; every error is a diagnostic located inside
/// the text; whatever parses prints and parses back to the same IR.
@Suite struct FuzzTests {
    static let seeds = [
        "name = 'foo' AND (age > 21 OR age IS NULL)",
        "NOT (a = 1) OR b NOT LIKE 'x%' ESCAPE '!'",
        "updated at or after '23-Mar-2015' AND flag = TRUE",
        "objectId IN (Comment[author.email LIKE '%@backendless.com'].blogPost.objectId)",
        "distance( 30.26715, -97.74306, coordinates.latitude, coordinates.longitude ) < mi(200)",
        "Within(location, 'POLYGON((-154.53 7.82, -150 7.82, -150 10, -154.53 7.82))') = TRUE",
        "PhoneBook[ contacts ].objectId = 'pb1' and address.city like '%a%'",
        "a BETWEEN -1.5e3 AND 2 AND `weird name` NOT IN ('x', 'y''z', 3)",
    ]

    static let insertions = [
        "(", ")", "[", "]", "'", "`", ",", ".", "-", "=", "<", ">", "!", " ", "\u{00A0}", "\n",
        "NOT ", " AND ", " OR ", "IS", "NULL", "at or", "1e", "9999999999999999999", "é", "☃",
        "\"", "%", "#", "\u{0}", "mi(", "TRUE", "IN (", "BETWEEN",
    ]

    @Test(arguments: 0..<4)
    func mutations(chunk: Int) {
        var random = SplitMix64(seed: UInt64(7_000 + chunk))
        var parsedCount = 0
        for _ in 0..<750 {
            var scalars = Array(random.pick(Self.seeds).unicodeScalars)
            for _ in 0..<random.int(1...3) {
                let at = random.int(0...scalars.count)
                switch random.int(0...3) {
                case 0 where !scalars.isEmpty:
                    scalars.remove(at: min(at, scalars.count - 1))
                case 1:
                    scalars.insert(contentsOf: random.pick(Self.insertions).unicodeScalars, at: at)
                case 2:
                    scalars = Array(scalars.prefix(at))
                default:
                    let from = random.int(0...scalars.count)
                    let piece = scalars[min(from, at)..<max(from, at)]
                    scalars.insert(contentsOf: piece, at: random.int(0...scalars.count))
                }
            }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            if check(String(view)) { parsedCount += 1 }
        }
        // Both outcomes must be common, or the mutations test nothing.
        #expect(parsedCount > 40 && parsedCount < 700, "\(parsedCount) of 750 parsed")
    }

    /// Whether the text parsed.
    private func check(_ text: String) -> Bool {
        let length = text.utf8.count
        do {
            let ir = try SQLWhere.parse(text)
            let printed = try SQLWhere.print(ir)
            #expect(try SQLWhere.parse(printed) == ir, "\(text) → \(printed)")
            return true
        } catch {
            #expect(!error.all.isEmpty, "\(text)")
            for d in error.all {
                let range = d.range ?? SourceRange(offset: -1, length: 0)
                #expect(range.offset >= 0 && range.end <= length, "\(text): \(d) at \(range)")
                #expect(!d.message.isEmpty)
            }
            return false
        }
    }
}
