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
    private let tokens: [Token]
    private let bytes: [UInt8]
    private let limits: Limits
    private var i = 0
    private var depth = 0
    /// Open predicate parentheses around the current position (0 inside SUBQUERY's predicate).
    private var parenDepth = 0
    private var subqueryDepth = 0
    private(set) var subqueryCount = 0
    /// Where each `%…` argument was written, in order.
    private(set) var argumentRanges: [SourceRange] = []

    init(tokens: [Token], bytes: [UInt8], limits: Limits) {
        self.tokens = tokens
        self.bytes = bytes
        self.limits = limits
    }

    private enum Parsed {
        case predicate(PredicateNode)
        /// An expression directly followed by `)`: the parentheses group an expression.
        case bare(ExprNode)
    }

    // MARK: - Entry

    mutating func parsePredicate() throws(Diagnostic) -> PredicateNode {
        let p = try requirePredicate(parseOr())
        guard case .end = current.kind else {
            throw Diagnostic(
                "syntax.unexpected-token",
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

    private var current: Token { tokens[i] }
    private var peekKind: TokenKind { i + 1 < tokens.count ? tokens[i + 1].kind : .end }

    private mutating func advance() -> Token {
        let t = tokens[i]
        if i < tokens.count - 1 { i += 1 }
        return t
    }

    private func isSymbol(_ s: Symbol) -> Bool { current.kind == .symbol(s) }
    private func isKeyword(_ k: Keyword) -> Bool { current.kind == .keyword(k) }

    /// `openedAt`: the bracket this one closes, named in the message.
    private mutating func expect(_ s: Symbol, _ what: String, openedAt: SourceRange? = nil) throws(Diagnostic) -> Token {
        guard isSymbol(s) else {
            throw expected(openedAt.map { "\(what) opened at \(position($0))" } ?? what)
        }
        return advance()
    }

    private func expected(_ what: String, notes: [String] = []) -> Diagnostic {
        let code = current.kind == .end ? "syntax.unexpected-end" : "syntax.unexpected-token"
        return Diagnostic(code, "expected \(what) but found \(current.kind.display)",
                          at: current.range, notes: notes)
    }

    func text(_ r: SourceRange) -> String {
        String(decoding: bytes[r.offset..<Swift.min(r.end, bytes.count)], as: UTF8.self)
    }

    /// Counts one level of nesting; every recursive path of the grammar passes through here.
    private mutating func enter() throws(Diagnostic) {
        depth += 1
        if depth > limits.maxNestingDepth {
            throw Diagnostic("limit.nesting",
                             "the predicate nests deeper than \(limits.maxNestingDepth) levels",
                             at: current.range)
        }
    }

    // MARK: - Predicates

    private mutating func parseOr() throws(Diagnostic) -> Parsed {
        let first = try parseAnd()
        guard isKeyword(.or) || isSymbol(.pipes) else { return first }
        var operands = [try requirePredicate(first)]
        while isKeyword(.or) || isSymbol(.pipes) {
            _ = advance()
            operands.append(try requirePredicate(parseAnd()))
        }
        return .predicate(PredicateNode(kind: .or(operands),
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
        return .predicate(PredicateNode(kind: .and(operands),
                                        range: operands[0].range.union(operands[operands.count - 1].range)))
    }

    private mutating func parseNot() throws(Diagnostic) -> Parsed {
        try enter()
        defer { depth -= 1 }
        if isKeyword(.not) || isSymbol(.bang) {
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

    private func requirePredicate(_ parsed: Parsed) throws(Diagnostic) -> PredicateNode {
        switch parsed {
        case .predicate(let p): return p
        case .bare(let e): throw missingOperator(after: e)
        }
    }

    private func missingOperator(after e: ExprNode) -> Diagnostic {
        var notes: [String] = []
        if case .keyword(.not) = current.kind {
            notes.append("NOT goes before the whole comparison: NOT (\(text(e.range)) IN …)")
        } else if case .identifier = current.kind {
            notes.append("a key with spaces or dashes cannot be written; pass it as %K")
        } else if case .symbol(.rightParen) = current.kind {
            notes.append("a predicate compares two expressions, e.g. \(text(e.range)) == YES")
        }
        let code = current.kind == .end ? "syntax.unexpected-end" : "syntax.unexpected-token"
        return Diagnostic(code,
                          "expected a comparison operator after '\(text(e.range))' but found \(current.kind.display)",
                          at: current.range, notes: notes)
    }

    private func position(_ r: SourceRange) -> String {
        let p = SourceText(String(decoding: bytes, as: UTF8.self)).position(ofByte: r.offset)
        return "\(p.line):\(p.column)"
    }

    // MARK: - Comparisons

    private mutating func parseComparison(leftOperand: ExprNode?) throws(Diagnostic) -> Parsed {
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
        let syntax = ComparisonSyntax(qualifier: qualifier, qualifierRange: qualifierRange, lhs: lhs,
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
            throw Diagnostic("predicate.unsupported",
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
                throw Diagnostic("syntax.unknown-modifier", "the option '\(ch)' is written twice in [\(letters)]",
                                 at: lettersToken.range)
            }
            seen.insert(ch)
            switch ch {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "n": break
            default:
                throw Diagnostic("syntax.unknown-modifier",
                                 "unknown comparison option '[\(letters)]'; the options are [c] (case-insensitive), [d] (diacritic-insensitive) and [cd]",
                                 at: open.range.union(lettersToken.range))
            }
        }
        let close = try expect(.rightBracket, "']' to close the options")
        return (options, open.range.union(close.range))
    }

    // MARK: - Expressions

    /// `seed` is an already parsed parenthesized expression to continue from.
    private mutating func parseExpression(seed: ExprNode?) throws(Diagnostic) -> ExprNode {
        let lhs = try parseAdditive(seed: seed)
        guard isSymbol(.assign) else { return lhs }
        let op = advance()
        guard case .variable(let name) = lhs.kind else {
            throw Diagnostic("syntax.unexpected-token",
                             "only a $variable can be assigned with ':=', not '\(text(lhs.range))'",
                             at: op.range)
        }
        let value = try parseAdditive(seed: nil)
        return ExprNode(kind: .assignment(Name(text: name, range: lhs.range), value),
                        range: lhs.range.union(value.range))
    }

    private mutating func parseAdditive(seed: ExprNode?) throws(Diagnostic) -> ExprNode {
        var lhs = try parseMultiplicative(seed: seed)
        let saved = depth
        defer { depth = saved }
        while isSymbol(.plus) || isSymbol(.minus) {
            try enter()  // each operator deepens the tree
            let op: BinaryOp = advance().kind == .symbol(.plus) ? .add : .subtract
            let rhs = try parseMultiplicative(seed: nil)
            lhs = ExprNode(kind: .binary(op, lhs, rhs), range: lhs.range.union(rhs.range))
        }
        return lhs
    }

    private mutating func parseMultiplicative(seed: ExprNode?) throws(Diagnostic) -> ExprNode {
        var lhs = try parseUnary(seed: seed)
        let saved = depth
        defer { depth = saved }
        while isSymbol(.star) || isSymbol(.slash) {
            try enter()
            let op: BinaryOp = advance().kind == .symbol(.star) ? .multiply : .divide
            let rhs = try parseUnary(seed: nil)
            lhs = ExprNode(kind: .binary(op, lhs, rhs), range: lhs.range.union(rhs.range))
        }
        return lhs
    }

    private mutating func parseUnary(seed: ExprNode?) throws(Diagnostic) -> ExprNode {
        try enter()
        defer { depth -= 1 }
        if seed == nil, isSymbol(.minus) {
            let minus = advance()
            let operand = try parseUnary(seed: nil)
            return ExprNode(kind: .negate(operand), range: minus.range.union(operand.range))
        }
        let base = try parsePostfix(seed: seed)
        guard isSymbol(.doubleStar) else { return base }
        _ = advance()
        let exponent = try parseUnary(seed: nil)
        return ExprNode(kind: .binary(.power, base, exponent), range: base.range.union(exponent.range))
    }

    private mutating func parsePostfix(seed: ExprNode?) throws(Diagnostic) -> ExprNode {
        var e: ExprNode
        if let seed { e = seed } else { e = try parsePrimary() }
        while true {
            if isSymbol(.dot) {
                _ = advance()
                switch current.kind {
                case .identifier(let name):
                    let t = advance()
                    e = ExprNode(kind: .member(e, Name(text: name, range: t.range)), range: e.range.union(t.range))
                case .collectionOperator(let op):
                    let t = advance()
                    let rest = try parseRestOfPath()
                    let end = rest.last?.range ?? t.range
                    e = ExprNode(kind: .collectionOperator(e, Name(text: op, range: t.range), rest: rest),
                                 range: e.range.union(end))
                case .keyword(let k):
                    throw reservedWord(k)
                default:
                    throw expected("a key name after '.'")
                }
            } else if isSymbol(.leftBracket) {
                _ = advance()
                let spec: IndexSyntax
                switch current.kind {
                case .keyword(.first): _ = advance(); spec = .first
                case .keyword(.last): _ = advance(); spec = .last
                case .keyword(.size): _ = advance(); spec = .size
                default: spec = .expr(try parseExpression(seed: nil))
                }
                let close = try expect(.rightBracket, "']' to close the index")
                e = ExprNode(kind: .index(e, spec), range: e.range.union(close.range))
            } else {
                return e
            }
        }
    }

    /// The key names after `@op`: `items.@sum.price.amount` → `price`, `amount`.
    private mutating func parseRestOfPath() throws(Diagnostic) -> [Name] {
        var rest: [Name] = []
        while isSymbol(.dot), case .identifier(let name) = peekKind {
            _ = advance()
            rest.append(Name(text: name, range: advance().range))
        }
        return rest
    }

    private func reservedWord(_ k: Keyword) -> Diagnostic {
        Diagnostic("syntax.reserved-word",
                   "\(k.rawValue) is a reserved word; write #\(k.rawValue.lowercased()) to use it as a key",
                   at: current.range)
    }

    private mutating func parsePrimary() throws(Diagnostic) -> ExprNode {
        let t = current
        func leaf(_ kind: ExprSyntax) -> ExprNode { ExprNode(kind: kind, range: t.range) }
        switch t.kind {
        case .integer(let n): _ = advance(); return leaf(.integer(n))
        case .real(let d): _ = advance(); return leaf(.real(d))
        case .string(let s): _ = advance(); return leaf(.string(s))
        case .variable(let v): _ = advance(); return leaf(.variable(v))
        case .percentLiteral: _ = advance(); return leaf(.percent)
        case .argument(let spec):
            _ = advance()
            argumentRanges.append(t.range)
            return leaf(.argument(spec, index: argumentRanges.count - 1))
        case .collectionOperator(let op):
            _ = advance()
            let rest = try parseRestOfPath()
            return ExprNode(kind: .collectionOperator(nil, Name(text: op, range: t.range), rest: rest),
                            range: t.range.union(rest.last?.range ?? t.range))
        case .identifier(let name):
            _ = advance()
            guard isSymbol(.leftParen) else { return leaf(.identifier(name)) }
            let (args, close) = try parseArguments()
            let range = t.range.union(close)
            if name.uppercased() == "FUNCTION" {
                guard args.count >= 2 else {
                    throw Diagnostic("predicate.function-arity",
                                     "FUNCTION takes a receiver, a selector name and its arguments, as in FUNCTION(SELF, 'sqrt:', 4)",
                                     at: range)
                }
                return ExprNode(kind: .function(receiver: args[0], selector: args[1], Array(args.dropFirst(2))),
                                range: range)
            }
            return ExprNode(kind: .call(Name(text: name, range: t.range), args), range: range)
        case .keyword(let k):
            switch k {
            case .true_, .yes: _ = advance(); return leaf(.bool(true))
            case .false_, .no: _ = advance(); return leaf(.bool(false))
            case .null, .nil_: _ = advance(); return leaf(.null)
            case .self_: _ = advance(); return leaf(.selfRef)
            case .subquery: return try parseSubquery()
            case .cast:
                _ = advance()
                guard isSymbol(.leftParen) else { throw expected("'(' after CAST") }
                let (args, close) = try parseArguments()
                return ExprNode(kind: .cast(args), range: t.range.union(close))
            case .first, .last, .size, .caseInsensitive, .ci:
                throw reservedWord(k)
            case .anyKey:
                throw Diagnostic("predicate.unsupported",
                                 "ANYKEY searches every attribute in Spotlight queries; name the key instead",
                                 at: t.range)
            case .fetch:
                throw Diagnostic("predicate.unsupported",
                                 "FETCH runs a Core Data fetch request; use `key IN %@` with a query argument instead",
                                 at: t.range)
            default:
                throw expected("a value (a key, a literal, SELF, %@ or $variable)")
            }
        case .symbol(.leftParen):
            let open = advance()
            let inner = try parseExpression(seed: nil)
            let close = try expect(.rightParen, "')' to close the '('", openedAt: open.range)
            return ExprNode(kind: .parenthesized(inner), range: open.range.union(close.range))
        case .symbol(.leftBrace):
            return try parseList()
        default:
            throw expected("a value (a key, a literal, SELF, %@ or $variable)")
        }
    }

    /// `( [expr {, expr}] )`, returning the arguments and the range of the `)`.
    private mutating func parseArguments() throws(Diagnostic) -> ([ExprNode], SourceRange) {
        let open = advance()
        var args: [ExprNode] = []
        if !isSymbol(.rightParen) {
            repeat {
                if !args.isEmpty { _ = advance() }
                args.append(try parseExpression(seed: nil))
                if args.count > limits.maxInListSize { throw tooManyElements(args[args.count - 1]) }
            } while isSymbol(.comma)
        }
        let close = try expect(.rightParen, "',' or ')' to close the arguments", openedAt: open.range)
        return (args, close.range)
    }

    private mutating func parseList() throws(Diagnostic) -> ExprNode {
        let open = advance()
        var elements: [ExprNode] = []
        if !isSymbol(.rightBrace) {
            repeat {
                if !elements.isEmpty { _ = advance() }
                elements.append(try parseExpression(seed: nil))
                if elements.count > limits.maxInListSize { throw tooManyElements(elements[elements.count - 1]) }
            } while isSymbol(.comma)
        }
        let close = try expect(.rightBrace, "',' or '}' to close the '{'", openedAt: open.range)
        return ExprNode(kind: .list(elements), range: open.range.union(close.range))
    }

    private func tooManyElements(_ e: ExprNode) -> Diagnostic {
        Diagnostic("limit.in-list", "more than \(limits.maxInListSize) elements in one list", at: e.range)
    }

    /// `SUBQUERY(collection, $variable, predicate)`
    private mutating func parseSubquery() throws(Diagnostic) -> ExprNode {
        let keyword = advance()
        subqueryCount += 1
        if subqueryCount > limits.maxSubqueries {
            throw Diagnostic("limit.subqueries", "more than \(limits.maxSubqueries) subqueries",
                             at: keyword.range)
        }
        subqueryDepth += 1
        defer { subqueryDepth -= 1 }
        if subqueryDepth > limits.maxSubqueryDepth {
            throw Diagnostic("limit.subqueries",
                             "subqueries nest deeper than \(limits.maxSubqueryDepth) levels",
                             at: keyword.range)
        }
        _ = try expect(.leftParen, "'(' after SUBQUERY")
        let collection = try parseExpression(seed: nil)
        _ = try expect(.comma, "',' after the SUBQUERY collection")
        guard case .variable(let name) = current.kind else {
            var notes = ["SUBQUERY(collection, $x, predicate) binds $x to each element"]
            if case .identifier(let n) = current.kind { notes.append("write $\(n)") }
            throw Diagnostic("predicate.subquery-variable",
                             "SUBQUERY needs a $variable as its second argument but found \(current.kind.display)",
                             at: current.range, notes: notes)
        }
        let variable = Name(text: name, range: advance().range)
        _ = try expect(.comma, "',' after the SUBQUERY variable")
        let savedParens = parenDepth
        parenDepth = 0
        let predicate = try requirePredicate(parseOr())
        parenDepth = savedParens
        let close = try expect(.rightParen, "')' to close SUBQUERY")
        return ExprNode(kind: .subquery(collection, variable: variable, predicate),
                        range: keyword.range.union(close.range))
    }
}
