import QuarryCore
import QuarryTestSupport
import Testing

import QuarrySQL

/// The skeleton scanner reads a text only far enough to cut out its literals
/// (docs/ARCHITECTURE.md#text-templates): wherever the lexer reads the text, the literals it cuts
/// are the lexer's string, integer and decimal tokens, with the same kinds and bytes.
@Suite struct SkeletonTests {
    /// The lexer's literal tokens of `text` (nil when it refuses the text), as the scanner's
    /// kinds and spans.
    static func lexed(_ text: String) -> [String]? {
        guard let tokens = try? SQLWhere.tokens(text) else { return nil }
        return tokens.compactMap { t in
            switch t.kind {
            case .string: "string \(t.range.offset)..<\(t.range.end)"
            case .integer: "integer \(t.range.offset)..<\(t.range.end)"
            case .decimal: "decimal \(t.range.offset)..<\(t.range.end)"
            default: nil
            }
        }
    }

    static func cut(_ skeleton: SQLSkeleton) -> [String] {
        skeleton.literals.map {
            "\($0.kind == .string ? "string" : $0.kind == .integer ? "integer" : "decimal") \($0.start)..<\($0.end)"
        }
    }

    @Test func theLiteralsCutAreTheLexersOnTrickyTexts() {
        let texts = [
            "age > 50", "score < 1.5e-3", "score < 2E+10", "a1 = 1", "x_2y = 'a''b'", "`we``ird 1` = 2",
            "naïve2 = 3", "名前1 = '名前2'", "é1 = 1", "age IN (1,2,3.25)", "t = ''", "t = ''''",
            "created > '2023-01-01T00:00:00.000Z'", "a = -7", "a = 1.0 AND b = .5", "a = 0x10",
        ]
        for text in texts {
            let skeleton = SQLSkeleton(text)
            guard let tokens = Self.lexed(text) else { continue }
            #expect(skeleton != nil, "\(text): no skeleton")
            if let skeleton { #expect(Self.cut(skeleton) == tokens, "\(text)") }
        }
        // What the lexer refuses in a literal, the scanner refuses too (the full compile reports it).
        for text in [
            "a = 1.", "a = 1e", "a = 1e+", "a = 12ab", "a = 'open", "a = `open", "a = 'x\u{0}y'", "a\u{0} = 1",
        ] {
            #expect(SQLSkeleton(text) == nil, "\(text)")
        }
    }

    @Test func randomTextsCutTheLexersLiterals() {
        let pieces = [
            "a", "Z", "_", "1", "0", "9", ".", "e", "E", "+", "-", " ", "'", "''", "`", "é", "名", "(", ")", ",", "=",
            "<", "x1", "1.5", "2e3", "AND", "\u{1F600}",
        ]
        var random = SplitMix64(seed: 7)
        var compared = 0
        for _ in 0..<20_000 {
            let text = (0..<random.int(1...14)).map { _ in random.pick(pieces) }.joined()
            guard let tokens = Self.lexed(text) else { continue }
            guard let skeleton = SQLSkeleton(text) else {
                Issue.record("\(text): no skeleton, the lexer reads \(tokens)")
                continue
            }
            #expect(Self.cut(skeleton) == tokens, "\(text)")
            compared += 1
        }
        #expect(compared > 1_000)
    }
}
