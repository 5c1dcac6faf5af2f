import QuarryCore
import Testing
import QuarryTestSupport
@testable import QuarryPredicate

/// The syntax tree keeps the bytes of every node, so diagnostics can point at anything.
@Suite struct ParserTests {
    private func syntax(_ text: String) throws -> (PredicateNode, [UInt8]) {
        let bytes = Array(text.utf8)
        var parser = Parser(tokens: try Lexer.tokenize(bytes), bytes: bytes, limits: .default)
        return (try parser.parsePredicate(), bytes)
    }

    private func slice(_ r: SourceRange, _ bytes: [UInt8]) -> String {
        String(decoding: bytes[r.offset..<r.end], as: UTF8.self)
    }

    @Test func comparisonPartsHaveTheirOwnRanges() throws {
        let (p, bytes) = try syntax("ANY tags BEGINSWITH[cd] 'sw' AND age > 3")
        guard case .and(let ops) = p.kind, case .comparison(let c) = ops[0].kind else {
            Issue.record("not an AND of comparisons"); return
        }
        #expect(slice(p.range, bytes) == "ANY tags BEGINSWITH[cd] 'sw' AND age > 3")
        #expect(slice(ops[0].range, bytes) == "ANY tags BEGINSWITH[cd] 'sw'")
        #expect(c.qualifierRange.map { slice($0, bytes) } == "ANY")
        #expect(slice(c.lhs.range, bytes) == "tags")
        #expect(slice(c.opRange, bytes) == "BEGINSWITH")
        #expect(c.optionsRange.map { slice($0, bytes) } == "[cd]")
        #expect(slice(c.rhs.range, bytes) == "'sw'")
        #expect(slice(ops[1].range, bytes) == "age > 3")
    }

    @Test func expressionNodesCoverTheirText() throws {
        let (p, bytes) = try syntax(
            "(a + b.c) * -SUBQUERY(x, $y, $y.z == 1).@count <= FUNCTION(SELF, 'abs:', d[FIRST])")
        var texts: [String] = []
        p.visitExpressions { texts.append(slice($0.range, bytes)) }
        for expected in [
            "(a + b.c) * -SUBQUERY(x, $y, $y.z == 1).@count", "(a + b.c)", "a + b.c", "b.c", "b",
            "-SUBQUERY(x, $y, $y.z == 1).@count", "SUBQUERY(x, $y, $y.z == 1)", "$y.z",
            "FUNCTION(SELF, 'abs:', d[FIRST])", "'abs:'", "d[FIRST]",
        ] {
            #expect(texts.contains(expected), "\(expected) in \(texts)")
        }
    }

    /// Over many printed predicates: every node lies inside its parent, inside the text.
    @Test func childrenLieInsideTheirParents() throws {
        var gen = RandomIR(seed: 99, subset: .predicateFormat(withArguments: false))
        for _ in 0..<300 {
            let text = try PredicateFormat.print(gen.filter())
            let (p, bytes) = try syntax(text)
            #expect(p.range.offset >= 0 && p.range.end <= bytes.count)
            p.checkNesting()
        }
    }
}

extension PredicateNode {
    func visitExpressions(_ f: (ExprNode) -> Void) {
        switch kind {
        case .constant: break
        case .and(let ps), .or(let ps): for q in ps { q.visitExpressions(f) }
        case .not(let q): q.visitExpressions(f)
        case .comparison(let c):
            c.lhs.visit(f)
            c.rhs.visit(f)
        }
    }

    func checkNesting() {
        func inside(_ r: SourceRange) { #expect(r.offset >= range.offset && r.end <= range.end) }
        switch kind {
        case .constant: break
        case .and(let ps), .or(let ps): for q in ps { inside(q.range); q.checkNesting() }
        case .not(let q): inside(q.range); q.checkNesting()
        case .comparison(let c):
            for r in [c.lhs.range, c.opRange, c.rhs.range] + [c.qualifierRange, c.optionsRange].compactMap({ $0 }) {
                inside(r)
            }
            c.lhs.checkNesting()
            c.rhs.checkNesting()
        }
    }
}

extension ExprNode {
    var childNodes: [ExprNode] {
        switch kind {
        case .integer, .real, .string, .bool, .null, .selfRef, .identifier, .variable, .argument, .percent: return []
        case .list(let xs), .call(_, let xs), .cast(let xs): return xs
        case .parenthesized(let x), .member(let x, _), .memberArgument(let x, _, _, _), .negate(let x),
            .assignment(_, let x):
            return [x]
        case .collectionOperator(let b, _, _): return b.map { [$0] } ?? []
        case .index(let b, let spec):
            if case .expr(let e) = spec { return [b, e] }
            return [b]
        case .function(let r, let s, let xs): return [r, s] + xs
        case .subquery(let c, _, _): return [c]
        case .binary(_, let l, let r): return [l, r]
        }
    }

    func visit(_ f: (ExprNode) -> Void) {
        f(self)
        for c in childNodes { c.visit(f) }
        if case .subquery(_, _, let p) = kind { p.visitExpressions(f) }
    }

    func checkNesting() {
        for c in childNodes {
            #expect(c.range.offset >= range.offset && c.range.end <= range.end)
            c.checkNesting()
        }
        if case .subquery(_, let v, let p) = kind {
            #expect(v.range.offset >= range.offset && v.range.end <= range.end)
            #expect(p.range.offset >= range.offset && p.range.end <= range.end)
            p.checkNesting()
        }
    }
}
