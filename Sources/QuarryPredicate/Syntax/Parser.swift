import QuarryCore

/// Recursive-descent parser from tokens to the syntax tree.
///
/// Precedence, loosest first: `OR ||`, `AND &&`, `NOT !`, comparison; in expressions `:=`,
/// `+ -`, `* /`, unary `-`, `**` (right-associative), postfix `.key .@op [index]`.
///
/// A `(` where a predicate may start is ambiguous: `(a > 1)` groups a predicate, `(a + b) > 1`
/// groups an expression. The parser reads a predicate; if what it finds before the `)` is a
/// bare expression it hands it back (`Parsed.bare`) and the caller continues the comparison
/// with the parenthesized expression as its left operand. No backtracking, so no blow-up.
struct Parser {
    let tokens: [Token]
    let bytes: [UInt8]
    let limits: Limits
    var i = 0
    var depth = 0
    /// Open predicate parentheses around the current position (0 inside SUBQUERY's predicate).
    var parenDepth = 0
    var subqueryDepth = 0
    var subqueryCount = 0
    /// Where each `%…` argument was written, in order.
    var argumentRanges: [SourceRange] = []

    init(tokens: [Token], bytes: [UInt8], limits: Limits) {
        self.tokens = tokens
        self.bytes = bytes
        self.limits = limits
    }

    enum Parsed {
        case predicate(PredicateNode)
        /// An expression directly followed by `)`: the parentheses group an expression.
        case bare(ExprNode)
    }

    // MARK: - Entry

    mutating func parsePredicate() throws(Diagnostic) -> PredicateNode {
        let p = try requirePredicate(parseOr())
        guard case .end = current.kind else {
            throw Diagnostic(
                .syntax.unexpectedToken,
                "expected AND, OR or the end of the predicate but found \(current.kind.display)",
                at: current.range, notes: trailingNotes())
        }
        return p
    }

    /// Hints for text left over after a complete predicate.
    private func trailingNotes() -> [String] {
        if i > 0, case .string = tokens[i - 1].kind, tokens[i - 1].range.end == current.range.offset {
            let q = bytes[tokens[i - 1].range.offset] == UInt8(ascii: "'") ? "'" : "\""
            return ["the string before this ends at a \(q); write \\\(q) for a \(q) inside a string"]
        }
        if case .identifier(let w) = current.kind, ["ANDOR", "AND_OR", "ANDNOT", "ORNOT"].contains(w.uppercased()) {
            return ["write AND or OR, separated from NOT by a space"]
        }
        return []
    }

    // MARK: - Tokens

    var current: Token { tokens[i] }
    var peekKind: TokenKind { i + 1 < tokens.count ? tokens[i + 1].kind : .end }

    mutating func advance() -> Token {
        let t = tokens[i]
        if i < tokens.count - 1 { i += 1 }
        return t
    }

    func isSymbol(_ s: Symbol) -> Bool { current.kind == .symbol(s) }
    func isKeyword(_ k: Keyword) -> Bool { current.kind == .keyword(k) }

    /// `openedAt`: the bracket this one closes, named in the message.
    mutating func expect(_ s: Symbol, _ what: String, openedAt: SourceRange? = nil) throws(Diagnostic) -> Token {
        guard isSymbol(s) else {
            throw expected(openedAt.map { "\(what) opened at \(position($0))" } ?? what)
        }
        return advance()
    }

    func expected(_ what: String, notes: [String] = []) -> Diagnostic {
        let code: DiagnosticCode = current.kind == .end ? .syntax.unexpectedEnd : .syntax.unexpectedToken
        return Diagnostic(
            code, "expected \(what) but found \(current.kind.display)",
            at: current.range, notes: notes)
    }

    func text(_ r: SourceRange) -> String {
        String(decoding: bytes[r.offset..<Swift.min(r.end, bytes.count)], as: UTF8.self)
    }

    /// Counts one level of nesting (a parenthesis, NOT, an argument list, an aggregate, an
    /// index, a SUBQUERY, an operator), as the SQL parser and the JSON lowerer count theirs:
    /// one cap, one behaviour. Every recursive path of the grammar passes through here.
    mutating func enter() throws(Diagnostic) {
        depth += 1
        if depth > limits.maxNestingDepth {
            throw Diagnostic(
                .limit.nesting,
                "the predicate nests deeper than \(limits.maxNestingDepth) levels",
                at: current.range)
        }
    }

    // MARK: - Predicates

    mutating func parseOr() throws(Diagnostic) -> Parsed {
        let first = try parseAnd()
        guard isKeyword(.or) || isSymbol(.pipes) else { return first }
        var operands = [try requirePredicate(first)]
        while isKeyword(.or) || isSymbol(.pipes) {
            _ = advance()
            operands.append(try requirePredicate(parseAnd()))
        }
        return .predicate(
            PredicateNode(
                kind: .or(operands),
                range: operands[0].range.union(operands[operands.count - 1].range)))
    }

    private mutating func parseAnd() throws(Diagnostic) -> Parsed {
        let first = try parseNot()
        guard isKeyword(.and) || isSymbol(.ampersands) else { return first }
        var operands = [try requirePredicate(first)]
        while isKeyword(.and) || isSymbol(.ampersands) {
            _ = advance()
            operands.append(try requirePredicate(parseNot()))
        }
        return .predicate(
            PredicateNode(
                kind: .and(operands),
                range: operands[0].range.union(operands[operands.count - 1].range)))
    }

    private mutating func parseNot() throws(Diagnostic) -> Parsed {
        if isKeyword(.not) || isSymbol(.bang) {
            try enter()
            defer { depth -= 1 }
            let op = advance()
            let operand = try requirePredicate(parseNot())
            return .predicate(PredicateNode(kind: .not(operand), range: op.range.union(operand.range)))
        }
        return try parsePrimaryPredicate()
    }

    private mutating func parsePrimaryPredicate() throws(Diagnostic) -> Parsed {
        switch current.kind {
        case .keyword(.truePredicate):
            return .predicate(PredicateNode(kind: .constant(true), range: advance().range))
        case .keyword(.falsePredicate):
            return .predicate(PredicateNode(kind: .constant(false), range: advance().range))
        case .symbol(.leftParen):
            try enter()
            defer { depth -= 1 }
            let open = advance()
            parenDepth += 1
            let inner = try parseOr()
            let close = try expect(.rightParen, "')' to close the '('", openedAt: open.range)
            parenDepth -= 1
            switch inner {
            case .predicate(let p):
                return .predicate(p)
            case .bare(let e):
                let grouped = ExprNode(kind: .parenthesized(e), range: open.range.union(close.range))
                return try parseComparison(leftOperand: grouped)
            }
        default:
            return try parseComparison(leftOperand: nil)
        }
    }

    func requirePredicate(_ parsed: Parsed) throws(Diagnostic) -> PredicateNode {
        switch parsed {
        case .predicate(let p): return p
        case .bare(let e): throw missingOperator(after: e)
        }
    }

    func missingOperator(after e: ExprNode) -> Diagnostic {
        var notes: [String] = []
        if case .keyword(.not) = current.kind {
            notes.append("NOT goes before the whole comparison: NOT (\(text(e.range)) IN …)")
        } else if case .identifier = current.kind {
            notes.append("a key with spaces or dashes cannot be written; pass it as %K")
        } else if case .symbol(.rightParen) = current.kind {
            notes.append("a predicate compares two expressions, e.g. \(text(e.range)) == YES")
        }
        let code: DiagnosticCode = current.kind == .end ? .syntax.unexpectedEnd : .syntax.unexpectedToken
        return Diagnostic(
            code,
            "expected a comparison operator after '\(text(e.range))' but found \(current.kind.display)",
            at: current.range, notes: notes)
    }

    func position(_ r: SourceRange) -> String {
        let p = SourceText(String(decoding: bytes, as: UTF8.self)).position(ofByte: r.offset)
        return "\(p.line):\(p.column)"
    }

    // MARK: - Comparisons

    mutating func parseComparison(leftOperand: ExprNode?) throws(Diagnostic) -> Parsed {
        var qualifier: QualifierSyntax?
        var qualifierRange: SourceRange?
        if leftOperand == nil, case .keyword(let k) = current.kind {
            switch k {
            case .any: qualifier = .any
            case .some: qualifier = .some
            case .all: qualifier = .all
            case .none: qualifier = QualifierSyntax.none
            default: break
            }
            if qualifier != nil { qualifierRange = advance().range }
        }
        let lhs = try parseExpression(seed: leftOperand)
        guard let (op, opToken) = try parseOperator() else {
            if qualifier == nil, parenDepth > 0, isSymbol(.rightParen) { return .bare(lhs) }
            throw missingOperator(after: lhs)
        }
        var options: StringOptions = []
        var optionsRange: SourceRange?
        if isSymbol(.leftBracket) { (options, optionsRange) = try parseOptions() }
        let rhs = try parseExpression(seed: nil)
        let start = qualifierRange ?? lhs.range
        let syntax = ComparisonSyntax(
            qualifier: qualifier, qualifierRange: qualifierRange, lhs: lhs,
            op: op, opRange: opToken.range, options: options,
            optionsRange: optionsRange, rhs: rhs)
        return .predicate(PredicateNode(kind: .comparison(syntax), range: start.union(rhs.range)))
    }

    private mutating func parseOperator() throws(Diagnostic) -> (ComparisonOp, Token)? {
        let op: ComparisonOp
        switch current.kind {
        case .symbol(.equal), .symbol(.doubleEqual): op = .eq
        case .symbol(.notEqual), .symbol(.lessGreater): op = .ne
        case .symbol(.less): op = .lt
        case .symbol(.lessEqual), .symbol(.equalLess): op = .le
        case .symbol(.greater): op = .gt
        case .symbol(.greaterEqual), .symbol(.equalGreater): op = .ge
        case .keyword(.between): op = .between
        case .keyword(.in_): op = .in_
        case .keyword(.contains): op = .contains
        case .keyword(.beginsWith): op = .beginsWith
        case .keyword(.endsWith): op = .endsWith
        case .keyword(.like): op = .like
        case .keyword(.matches): op = .matches
        case .keyword(let k) where k == .utiConformsTo || k == .utiEquals:
            throw Diagnostic(
                .predicate.unsupported,
                "\(k.rawValue) compares Uniform Type Identifiers, which exist only on Apple platforms",
                at: current.range)
        default:
            return nil
        }
        return (op, advance())
    }

    /// `[c]`, `[d]`, `[cd]` (any order; `n`, Apple's "already normalized" hint, changes nothing).
    private mutating func parseOptions() throws(Diagnostic) -> (StringOptions, SourceRange) {
        let open = advance()
        guard case .identifier(let letters) = current.kind else {
            throw expected("string options c, d or cd inside '[…]'")
        }
        let lettersToken = advance()
        var options: StringOptions = []
        var seen = Set<Character>()
        for ch in letters.lowercased() {
            guard !seen.contains(ch) else {
                throw Diagnostic(
                    .syntax.unknownModifier, "the option '\(ch)' is written twice in [\(letters)]",
                    at: lettersToken.range)
            }
            seen.insert(ch)
            switch ch {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "n": break
            default:
                throw Diagnostic(
                    .syntax.unknownModifier,
                    "unknown comparison option '[\(letters)]'; the options are [c] (case-insensitive), [d] (diacritic-insensitive) and [cd]",
                    at: open.range.union(lettersToken.range))
            }
        }
        let close = try expect(.rightBracket, "']' to close the options")
        return (options, open.range.union(close.range))
    }
}
