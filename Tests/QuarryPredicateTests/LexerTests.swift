import QuarryCore
import Testing
@testable import QuarryPredicate

@Suite struct LexerTests {
    private func kinds(_ text: String) throws -> [TokenKind] {
        try Lexer.tokenize(Array(text.utf8)).map(\.kind).dropLast()
    }

    @Test func operatorsAndPunctuation() throws {
        let text = "= == != <> < <= =< > >= => && || ! + - * ** / := ( ) { } [ ] , ."
        let expected: [Symbol] = [
            .equal, .doubleEqual, .notEqual, .lessGreater, .less, .lessEqual, .equalLess,
            .greater, .greaterEqual, .equalGreater, .ampersands, .pipes, .bang, .plus, .minus,
            .star, .doubleStar, .slash, .assign, .leftParen, .rightParen, .leftBrace,
            .rightBrace, .leftBracket, .rightBracket, .comma, .dot,
        ]
        #expect(try kinds(text) == expected.map { .symbol($0) })
        // Longest match without spaces.
        #expect(
            try kinds("a<=b=>c") == [
                .identifier("a"), .symbol(.lessEqual), .identifier("b"),
                .symbol(.equalGreater), .identifier("c"),
            ])
    }

    @Test func keywordsAreCaseInsensitiveAndHashEscapesThem() throws {
        #expect(
            try kinds("and AnD OR beginsWith TruePredicate") == [
                .keyword(.and), .keyword(.and), .keyword(.or), .keyword(.beginsWith), .keyword(.truePredicate),
            ])
        #expect(
            try kinds("#and #SIZE size android") == [
                .identifier("and"), .identifier("SIZE"), .keyword(.size), .identifier("android"),
            ])
        #expect(
            try kinds("UTI-CONFORMS-TO uti-equals uti-x") == [
                .keyword(.utiConformsTo), .keyword(.utiEquals), .identifier("uti"), .symbol(.minus), .identifier("x"),
            ])
        #expect(try kinds("FUNCTION function") == [.identifier("FUNCTION"), .identifier("function")])
        for k in Keyword.allCases {
            #expect(try kinds(k.rawValue.lowercased()) == [.keyword(k)], "\(k)")
        }
    }

    @Test func numbers() throws {
        #expect(
            try kinds("0 42 0x2A 0X2a 0o52 0b101010 1.5 1e3 1E+3 2.5e-1 007") == [
                .integer(0), .integer(42), .integer(42), .integer(42), .integer(42), .integer(42), .real(1.5),
                .real(1000), .real(1000), .real(0.25), .integer(7),
            ])
        // A leading dot starts a number only where a value starts.
        #expect(try kinds("x == .5") == [.identifier("x"), .symbol(.doubleEqual), .real(0.5)])
        #expect(try kinds("18446744073709551615 0xFFFFFFFFFFFFFFFF") == [.integer(.max), .integer(.max)])
        // After an operand, a dot is a path separator.
        #expect(try kinds("a.b") == [.identifier("a"), .symbol(.dot), .identifier("b")])
        #expect(
            try kinds("x[0].y") == [
                .identifier("x"), .symbol(.leftBracket), .integer(0), .symbol(.rightBracket),
                .symbol(.dot), .identifier("y"),
            ])
    }

    @Test func strings() throws {
        #expect(
            try kinds(#"'a' "b" '' "it's" 'say "hi"'"#) == [
                .string("a"), .string("b"), .string(""),
                .string("it's"), .string("say \"hi\""),
            ])
        #expect(try kinds(#"'\n\t\r\b\f\v\a\0\\\'\"'"#) == [.string("\n\t\r\u{8}\u{C}\u{B}\u{7}\u{0}\\'\"")])
        #expect(try kinds(#"'\u00E9\u{E9}\u{1F600}\uD83D\uDE00'"#) == [.string("éé😀😀")])
        // Unknown escapes stay for the regex or LIKE pattern.
        #expect(try kinds(#"'\d+\.\*'"#) == [.string(#"\d+\.\*"#)])
        // Inside quotes nothing is substituted.
        #expect(try kinds("'%@ %K $x'") == [.string("%@ %K $x")])
        #expect(try kinds("'é 名前 😀'") == [.string("é 名前 😀")])
    }

    @Test func argumentsVariablesAndOperators() throws {
        let specs = try kinds("%@ %K %d %i %u %x %X %o %f %g %e %ld %lld %lu %llx %lf %hi %qu %qx")
        #expect(specs.count == 19)
        guard case .argument(let first) = specs[0], case .argument(let k) = specs[1],
            case .argument(let lld) = specs[12], case .argument(let lf) = specs[15]
        else { Issue.record("not arguments: \(specs)"); return }
        #expect(first.kind == .object)
        #expect(k.kind == .keyPath)
        #expect(lld == ArgumentSpec(kind: .integer, text: "%lld"))
        #expect(lf.kind == .real)
        #expect(
            try kinds("%% $name $size @count @sum") == [
                .percentLiteral, .variable("name"), .variable("size"), .collectionOperator("count"),
                .collectionOperator("sum"),
            ])
    }

    @Test func unicodeIdentifiers() throws {
        #expect(
            try kinds("café 名前 e\u{301}x x_1 _y") == [
                .identifier("café"), .identifier("名前"), .identifier("e\u{301}x"), .identifier("x_1"), .identifier("_y"),
            ])
    }

    @Test func rangesCoverTheBytesOfEachToken() throws {
        let text = "café >= 'naïve' AND x[0] == %@"
        let tokens = try Lexer.tokenize(Array(text.utf8))
        let bytes = Array(text.utf8)
        let slices = tokens.dropLast().map { String(decoding: bytes[$0.range.offset..<$0.range.end], as: UTF8.self) }
        #expect(slices == ["café", ">=", "'naïve'", "AND", "x", "[", "0", "]", "==", "%@"])
        #expect(tokens.last?.range == SourceRange(offset: bytes.count, length: 0))
    }
}
