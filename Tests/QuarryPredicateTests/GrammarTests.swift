import Foundation
import QuarryCore
import Testing
@testable import QuarryPredicate

/// Keeps `Grammar/predicate.ebnf` honest: its examples against the parser, and its token lists
/// against the lexer's tables.
@Suite struct GrammarTests {
    static let grammar: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("Grammar/predicate.ebnf"), encoding: .utf8)) ?? ""
    }()

    struct Example: Sendable, CustomTestStringConvertible {
        var text: String
        /// `code@line:column`, nil for a valid example.
        var failure: String?
        var testDescription: String { (failure.map { "invalid \($0): " } ?? "valid: ") + text }
    }

    /// Lines `/* valid: TEXT */` and `/* invalid CODE@L:C: TEXT */`.
    static let examples: [Example] = grammar.split(separator: "\n").compactMap { line in
        guard line.hasPrefix("/* "), line.hasSuffix(" */") else { return nil }
        let body = line.dropFirst(3).dropLast(3)
        if body.hasPrefix("valid: ") { return Example(text: String(body.dropFirst(7)), failure: nil) }
        guard body.hasPrefix("invalid "), let colon = body.range(of: ": ") else { return nil }
        let code = body[body.index(body.startIndex, offsetBy: 8)..<colon.lowerBound]
        return Example(
            text: String(body[colon.upperBound...]).trimmingCharacters(in: .whitespaces),
            failure: String(code))
    }

    @Test func theGrammarHasExamples() {
        #expect(Self.examples.filter { $0.failure == nil }.count >= 50)
        #expect(Self.examples.filter { $0.failure != nil }.count >= 30)
    }

    @Test(arguments: examples)
    func exampleBehavesAsDocumented(_ e: Example) throws {
        if let expected = e.failure {
            #expect(failure(e.text) == expected)
        } else {
            let args = try Self.placeholders(e.text)
            #expect(throws: Never.self) { try PredicateFormat.parse(e.text, arguments: args) }
        }
    }

    /// %@ → 'x', %K → k, integers → 1, reals → 1.5, in order.
    static func placeholders(_ text: String) throws -> [PredicateArgument] {
        try Lexer.tokenize(Array(text.utf8)).compactMap { t -> PredicateArgument? in
            guard case .argument(let spec) = t.kind else { return nil }
            switch spec.kind {
            case .object: return "x"
            case .keyPath: return .keyPath("k")
            case .integer: return 1
            case .real: return 1.5
            }
        }
    }

    /// The rules part (before the examples) names every token the lexer knows.
    @Test func theGrammarNamesEveryToken() {
        let rules = Self.grammar.components(separatedBy: "/* Examples.")[0]
        for k in Keyword.allCases {
            #expect(rules.contains(k.rawValue), "keyword \(k.rawValue)")
        }
        for s in [
            Symbol.equal, .doubleEqual, .notEqual, .lessGreater, .less, .lessEqual, .equalLess, .greater,
            .greaterEqual, .equalGreater, .ampersands, .pipes, .bang, .plus, .minus, .star, .slash,
            .doubleStar, .assign, .leftParen, .rightParen, .leftBrace, .rightBrace, .leftBracket,
            .rightBracket, .comma, .dot,
        ] {
            #expect(rules.contains("\"\(s.rawValue)\""), "symbol \(s.rawValue)")
        }
        for op in AggregateOperator.allCases { #expect(rules.contains("\"\(op.rawValue)\""), "\(op.rawValue)") }
        for f in Function.allCases { #expect(rules.contains(" \(f.callName)"), "function \(f.callName)") }
        for t in ["NSDate", "NSNumber", "NSString"] { #expect(rules.contains(t)) }
    }
}
