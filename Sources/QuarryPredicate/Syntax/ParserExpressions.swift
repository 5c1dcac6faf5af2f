import QuarryCore

// Expressions: arithmetic by precedence climbing, postfix key paths and indexes, and the
// primaries (literals, arguments, variables, aggregates, calls, SUBQUERY, CAST).

extension Parser {
    // MARK: - Expressions

    /// `seed` is an already parsed parenthesized expression to continue from.
    mutating func parseExpression(seed: ExprNode?) throws(Diagnostic) -> ExprNode {
        let lhs = try parseAdditive(seed: seed)
        guard isSymbol(.assign) else { return lhs }
        let op = advance()
        guard case .variable(let name) = lhs.kind else {
            throw Diagnostic(
                .syntax.unexpectedToken,
                "only a $variable can be assigned with ':=', not '\(text(lhs.range))'",
                at: op.range)
        }
        let value = try parseAdditive(seed: nil)
        return ExprNode(
            kind: .assignment(Name(text: name, range: lhs.range), value),
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
        if seed == nil, isSymbol(.minus) {
            try enter()
            defer { depth -= 1 }
            let minus = advance()
            let operand = try parseUnary(seed: nil)
            return ExprNode(kind: .negate(operand), range: minus.range.union(operand.range))
        }
        let base = try parsePostfix(seed: seed)
        guard isSymbol(.doubleStar) else { return base }
        _ = advance()
        try enter()
        defer { depth -= 1 }
        let exponent = try parseUnary(seed: nil)
        return ExprNode(kind: .binary(.power, base, exponent), range: base.range.union(exponent.range))
    }

    /// A primary with its `.name`, `.%K`, `.@op` and `[index]` suffixes. A run of names is one
    /// node; every other suffix wraps the expression in one more, so each counts as a level of
    /// nesting (a chain of ten thousand `[0]` would otherwise be a tree too deep to lower).
    private mutating func parsePostfix(seed: ExprNode?) throws(Diagnostic) -> ExprNode {
        var e: ExprNode
        if let seed { e = seed } else { e = try parsePrimary() }
        // The run of `.name`s after `e`, made into its one node when the run ends.
        var names: [Name] = []
        func ended(_ e: ExprNode, _ names: inout [Name]) -> ExprNode {
            guard let last = names.last else { return e }
            defer { names.removeAll() }
            return ExprNode(kind: .member(e, names), range: e.range.union(last.range))
        }
        let saved = depth
        defer { depth = saved }
        while true {
            if isSymbol(.dot) {
                _ = advance()
                switch current.kind {
                case .identifier(let name):
                    let t = advance()
                    names.append(Name(text: name, range: t.range))
                case .argument(let spec) where spec.kind == .keyPath:
                    e = ended(e, &names)
                    try enter()
                    // Apple allows `%K.%K` and `name.%K`: the argument names more components.
                    let t = advance()
                    argumentRanges.append(t.range)
                    e = ExprNode(
                        kind: .memberArgument(e, spec, index: argumentRanges.count - 1, range: t.range),
                        range: e.range.union(t.range))
                case .collectionOperator(let op):
                    e = ended(e, &names)
                    try enter()
                    let t = advance()
                    let rest = try parseRestOfPath()
                    let end = rest.last?.range ?? t.range
                    e = ExprNode(
                        kind: .collectionOperator(e, Name(text: op, range: t.range), rest: rest),
                        range: e.range.union(end))
                case .keyword(let k):
                    throw reservedWord(k)
                default:
                    throw expected("a key name after '.'")
                }
            } else if isSymbol(.leftBracket) {
                e = ended(e, &names)
                try enter()
                _ = advance()
                let spec: IndexSyntax
                switch current.kind {
                case .keyword(.first): _ = advance(); spec = .first
                case .keyword(.last): _ = advance(); spec = .last
                case .keyword(.size): _ = advance(); spec = .size
                default:
                    try enter()
                    defer { depth -= 1 }
                    spec = .expr(try parseExpression(seed: nil))
                }
                let close = try expect(.rightBracket, "']' to close the index")
                e = ExprNode(kind: .index(e, spec), range: e.range.union(close.range))
            } else {
                return ended(e, &names)
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
        Diagnostic(
            .syntax.reservedWord,
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
            return ExprNode(
                kind: .collectionOperator(nil, Name(text: op, range: t.range), rest: rest),
                range: t.range.union(rest.last?.range ?? t.range))
        case .identifier(let name):
            _ = advance()
            guard isSymbol(.leftParen) else { return leaf(.identifier(name)) }
            let (args, close) = try parseArguments()
            let range = t.range.union(close)
            if name.uppercased() == "FUNCTION" {
                guard args.count >= 2 else {
                    throw Diagnostic(
                        .predicate.functionArity,
                        "FUNCTION takes a receiver, a selector name and its arguments, as in FUNCTION(SELF, 'sqrt:', 4)",
                        at: range)
                }
                return ExprNode(
                    kind: .function(receiver: args[0], selector: args[1], Array(args.dropFirst(2))),
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
                throw Diagnostic(
                    .predicate.unsupported,
                    "ANYKEY searches every attribute in Spotlight queries; name the key instead",
                    at: t.range)
            case .fetch:
                throw Diagnostic(
                    .predicate.unsupported,
                    "FETCH runs a Core Data fetch request; use `key IN %@` with a query argument instead",
                    at: t.range)
            default:
                throw expected("a value (a key, a literal, SELF, %@ or $variable)")
            }
        case .symbol(.leftParen):
            try enter()
            defer { depth -= 1 }
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
        try enter()
        defer { depth -= 1 }
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
        try enter()
        defer { depth -= 1 }
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
        Diagnostic(.limit.inList, "more than \(limits.maxInListSize) elements in one list", at: e.range)
    }

    /// `SUBQUERY(collection, $variable, predicate)`
    private mutating func parseSubquery() throws(Diagnostic) -> ExprNode {
        try enter()
        defer { depth -= 1 }
        let keyword = advance()
        subqueryCount += 1
        if subqueryCount > limits.maxSubqueries {
            throw Diagnostic(
                .limit.subqueries, "more than \(limits.maxSubqueries) subqueries",
                at: keyword.range)
        }
        subqueryDepth += 1
        defer { subqueryDepth -= 1 }
        if subqueryDepth > limits.maxSubqueryDepth {
            throw Diagnostic(
                .limit.subqueryDepth,
                "subqueries nest deeper than \(limits.maxSubqueryDepth) levels",
                at: keyword.range)
        }
        _ = try expect(.leftParen, "'(' after SUBQUERY")
        let collection = try parseExpression(seed: nil)
        _ = try expect(.comma, "',' after the SUBQUERY collection")
        guard case .variable(let name) = current.kind else {
            var notes = ["SUBQUERY(collection, $x, predicate) binds $x to each element"]
            if case .identifier(let n) = current.kind { notes.append("write $\(n)") }
            throw Diagnostic(
                .predicate.subqueryVariable,
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
        return ExprNode(
            kind: .subquery(collection, variable: variable, predicate),
            range: keyword.range.union(close.range))
    }
}
