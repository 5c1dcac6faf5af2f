import Testing
import QuarryCore
import QuarrySQL

/// The tooling stages: tokens and the syntax tree, with the byte ranges they carry.
@Suite struct SyntaxTreeTests {
    func text(_ source: String, _ range: SourceRange) -> String {
        String(decoding: Array(source.utf8)[range.offset..<range.end], as: UTF8.self)
    }

    @Test func tokensCarryKindsAndByteRanges() throws {
        let source = "`my col` >= -1.5e2 AND s<>'it''s' OR x => 7\u{00A0}"
        let tokens = try SQLWhere.tokens(source)
        #expect(
            tokens.map(\.kind) == [
                .identifier("my col", quoted: true), .symbol(.greaterOrEqual), .symbol(.minus), .decimal(150),
                .identifier("AND", quoted: false), .identifier("s", quoted: false), .symbol(.notEqualSQL),
                .string("it's"), .identifier("OR", quoted: false), .identifier("x", quoted: false),
                .symbol(.greaterOrEqualAlias), .integer(7), .end,
            ])
        #expect(
            tokens.map { text(source, $0.range) } == [
                "`my col`", ">=", "-", "1.5e2", "AND", "s", "<>", "'it''s'", "OR", "x", "=>", "7", "",
            ])
        #expect(tokens.last?.range == SourceRange(offset: source.utf8.count, length: 0))
    }

    @Test func everyNodeSpansItsText() throws {
        let source = "NOT (age > 21 OR name IS NULL) AND PhoneBook[contacts].objectId = 'pb1'"
        let tree = try SQLWhere.syntaxTree(source)
        #expect(text(source, tree.root.range) == source)
        guard case .and(let items) = tree.root.kind, items.count == 2 else {
            Issue.record("\(tree.root.kind)")
            return
        }
        #expect(text(source, items[0].range) == "NOT (age > 21 OR name IS NULL)")
        #expect(text(source, items[1].range) == "PhoneBook[contacts].objectId = 'pb1'")
        guard case .not(let group) = items[0].kind, case .group(let or) = group.kind,
            case .or(let alternatives) = or.kind, case .predicate(let age) = alternatives[0].kind,
            case .compare(let l, let op, let r) = age.kind
        else {
            Issue.record("\(items[0].kind)")
            return
        }
        #expect(text(source, group.range) == "(age > 21 OR name IS NULL)")
        #expect(text(source, or.range) == "age > 21 OR name IS NULL")
        #expect(text(source, age.range) == "age > 21")
        #expect(text(source, l.range) == "age")
        #expect(op.spelling == .greater && text(source, op.range) == ">")
        #expect(text(source, r.range) == "21")
        guard case .predicate(let inverted) = items[1].kind,
            case .inverted(let parent, let relation, let inner) = inverted.kind
        else {
            Issue.record("\(items[1].kind)")
            return
        }
        #expect(parent.text == "PhoneBook" && text(source, parent.range) == "PhoneBook")
        #expect(relation.text == "contacts" && text(source, relation.range) == "contacts")
        #expect(text(source, inner.range) == "objectId = 'pb1'")
    }

    /// Keywords match in any ASCII case, and only so: a name that is a keyword under Unicode
    /// case folding or canonical equivalence (dotless ı, the Kelvin sign K) stays a name.
    @Test func keywordsMatchInAnyASCIICaseOnly() throws {
        let mixed = try SQLWhere.parse("name lIkE 'J%' aNd NOT age iS nULl Or flag = tRuE")
        let upper = try SQLWhere.parse("name LIKE 'J%' AND NOT age IS NULL OR flag = TRUE")
        #expect(mixed == upper)
        // Each a located syntax error at the lookalike word (its byte offset).
        for (text, at) in [
            ("name \u{0131}s null", 5), ("name LI\u{212A}E 'J%'", 5), ("age > 1 \u{0041}\u{0301}ND b = 2", 8),
        ] {
            let error = #expect(throws: Diagnostic.self, "\(text)") { try SQLWhere.parse(text) }
            #expect(error?.code == "syntax.unexpected-token", "\(text)")
            #expect(error?.range?.offset == at, "\(text)")
        }
        // Quoted, a keyword is a column.
        #expect(try SQLWhere.parse("`and` = 1") == .leaf(.compare(.key("and"), .eq, .literal(.int(1)), []), .sql))
    }

    /// A keyword is the whole word: names that start with one, or that one starts, are names.
    @Test func namesThatShareLettersWithKeywordsAreNames() throws {
        let names = ["android", "isbn", "notes", "inx", "nullable", "betweens", "trueness", "i", "n", "a"]
        let text = names.enumerated().map { "\($1) = \($0)" }.joined(separator: " AND ")
        let expected = Filter.and(
            names.enumerated().map { .leaf(.compare(.key(FieldPath($1)), .eq, .literal(.int(Int64($0))), []), .sql) })
        #expect(try SQLWhere.parse(text) == expected)
        // The words that are keywords only where one is expected stay names elsewhere.
        for name in ["after", "before", "at", "escape", "distance", "within"] {
            #expect(
                try SQLWhere.parse("\(name) = 1")
                    == .leaf(.compare(.key(FieldPath(name)), .eq, .literal(.int(1)), []), .sql))
        }
        // DISTANCE is eight letters; a ninth makes another (unknown) function.
        let error = #expect(throws: Diagnostic.self) { try SQLWhere.parse("distancex(1, 2, 3, 4) < 5") }
        #expect(error?.code == "syntax.unknown-function")
    }

    @Test func multiWordDateOperatorSpansAllItsWords() throws {
        let source = "updated  at\nor   after 5"
        let tree = try SQLWhere.syntaxTree(source)
        guard case .predicate(let p) = tree.root.kind, case .compare(_, let op, _) = p.kind else {
            Issue.record("\(tree.root.kind)")
            return
        }
        #expect(op.spelling == .atOrAfter)
        #expect(text(source, op.range) == "at\nor   after")
    }

    @Test func lowerTakesATreeWithASchema() throws {
        let tree = try SQLWhere.syntaxTree("NAME = 'x'")
        #expect(try SQLWhere.lower(tree, className: "Contact", schema: seedSchema) == cmp("name", .eq, "x"))
        #expect(try SQLWhere.lower(tree) == cmp("NAME", .eq, "x"))
    }
}
