import Foundation
import Testing
import QuarryCore
import QuarrySQL

/// Keeps the examples in `Grammar/where.ebnf` honest against the real parser.
@Suite struct GrammarTests {
    struct Example: Sendable, CustomTestStringConvertible {
        var text: String
        /// nil for a valid example.
        var code: String?
        var testDescription: String { (code.map { "invalid \($0): " } ?? "valid: ") + text }
    }

    static let grammarPath: String = {
        // Tests/QuarrySQLTests/GrammarTests.swift → the package root.
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/Grammar/where.ebnf"
    }()

    /// Lines `/* valid: CLAUSE */` and `/* invalid CODE: CLAUSE */`.
    static let examples: [Example] = {
        guard let text = try? String(contentsOfFile: grammarPath, encoding: .utf8) else { return [] }
        var examples: [Example] = []
        for rawLine in text.split(separator: "\n") {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            guard line.hasPrefix("/* "), line.hasSuffix(" */") else { continue }
            let body = line.dropFirst(3).dropLast(3)
            if body.hasPrefix("valid: ") {
                examples.append(Example(text: String(body.dropFirst(7)), code: nil))
            } else if body.hasPrefix("invalid "), let colon = body.firstIndex(of: ":") {
                let code = body[body.index(body.startIndex, offsetBy: 8)..<colon]
                examples.append(Example(text: String(body[body.index(colon, offsetBy: 2)...]), code: String(code)))
            }
        }
        return examples
    }()

    @Test func theFileHasExamplesOfBothKinds() {
        #expect(Self.examples.filter { $0.code == nil }.count >= 40, "\(Self.grammarPath)")
        #expect(Self.examples.filter { $0.code != nil }.count >= 25)
    }

    @Test(arguments: examples)
    func example(_ e: Example) {
        do {
            let ir = try SQLWhere.parse(e.text)
            #expect(e.code == nil, "parsed to \(ir)")
        } catch {
            #expect(error.all.first?.code == e.code, "\(error)")
            #expect(error.all.first?.range != nil)
        }
    }
}
