import QuarryCore

/// Recursive descent over the tokens (grammar: `Grammar/where.ebnf`). Precedence, loosest
/// first: OR, AND, NOT, predicate. Stops at the first syntax error.
struct SQLParser {
    let source: [UInt8]
    let tokens: [SQLToken]
    let limits: Limits
    var position = 0
    var depth = 0
    /// Where the previously consumed token ended (for node ranges).
    var lastEnd = 0

    init(source: [UInt8], tokens: [SQLToken], limits: Limits) {
        self.source = source
        self.tokens = tokens
        self.limits = limits
    }

    mutating func parseWhereClause() throws(Diagnostic) -> SQLCondition {
        let root = try orExpression()
        guard case .end = current.kind else {
            throw unexpected("AND, OR or the end of the query", after: lastToken)
        }
        return root
    }

    // MARK: - Boolean structure

    mutating func orExpression() throws(Diagnostic) -> SQLCondition {
        let first = try andExpression()
        var items = [first]
        while isKeyword(.or) {
            advance()
            items.append(try andExpression())
        }
        if items.count == 1 { return first }
        return SQLCondition(kind: .or(items), range: span(first.range.offset))
    }

    mutating func andExpression() throws(Diagnostic) -> SQLCondition {
        let first = try notExpression()
        var items = [first]
        while isKeyword(.and) {
            advance()
            items.append(try notExpression())
        }
        if items.count == 1 { return first }
        return SQLCondition(kind: .and(items), range: span(first.range.offset))
    }

    mutating func notExpression() throws(Diagnostic) -> SQLCondition {
        guard isKeyword(.not) else { return try primary() }
        let start = current.range.offset
        try enter()
        advance()
        let operand = try notExpression()
        leave()
        return SQLCondition(kind: .not(operand), range: span(start))
    }

    mutating func primary() throws(Diagnostic) -> SQLCondition {
        let start = current.range.offset
        if isSymbol(.leftParen) {
            let open = current
            try enter()
            advance()
            let inner = try orExpression()
            guard isSymbol(.rightParen) else {
                var d = unexpected("AND, OR or ')'", after: lastToken)
                let at = SourceText(String(decoding: source, as: UTF8.self)).position(ofByte: open.range.offset)
                d.notes.append("the '(' at \(at.line):\(at.column) is not closed")
                throw d
            }
            advance()
            leave()
            return SQLCondition(kind: .group(inner), range: span(start))
        }
        if let b = booleanKeyword(current), !startsPredicateTail(at: position + 1) {
            advance()
            return SQLCondition(kind: .constant(b), range: span(start))
        }
        let p = try predicate()
        return SQLCondition(kind: .predicate(p), range: p.range)
    }

    // MARK: - Predicates

    mutating func predicate() throws(Diagnostic) -> SQLPredicate {
        let start = current.range.offset
        if case .identifier(let name, let quoted) = current.kind, !quoted {
            if isSymbol(.leftParen, at: position + 1) {
                if current.keyword == .distance { return try distance() }
                if current.keyword == .within { return try within() }
                throw unknownFunction(name, current.range)
            }
        }
        if case .identifier = current.kind, isSymbol(.leftBracket, at: position + 1),
            !isReservedWord(current)
        {
            return try invertedRelation()
        }
        let left = try scalar(expected: "a condition", after: nil)
        let kind = try tail(left)
        return SQLPredicate(kind: kind, range: span(start))
    }

    /// Everything after the left operand.
    mutating func tail(_ left: SQLScalar) throws(Diagnostic) -> SQLPredicate.Kind {
        let afterLeft = lastToken
        if let op = try comparisonOperator() {
            let right = try scalar(expected: "a value", after: op.range)
            return .compare(left, op, right)
        }
        if isKeyword(.is) {
            let isToken = current
            advance()
            var negated = false
            if isKeyword(.not) {
                negated = true
                advance()
            }
            guard isKeyword(.null) else {
                throw unexpected(negated ? "NULL" : "NULL or NOT NULL", after: negated ? lastToken : isToken)
            }
            advance()
            return .isNull(left, negated: negated)
        }
        var negated = false
        if isKeyword(.not) {
            negated = true
            advance()
            guard isKeyword(.like) || isKeyword(.in) || isKeyword(.between) else {
                throw unexpected("LIKE, IN or BETWEEN", after: lastToken)
            }
        }
        if isKeyword(.like) {
            let likeToken = current
            advance()
            let pattern = try stringLiteral(expected: "a string pattern", after: likeToken)
            var escape: SQLLiteral?
            if isKeyword(.escape) {
                let escapeToken = current
                advance()
                escape = try stringLiteral(expected: "a one-character string", after: escapeToken)
            }
            return .like(left, pattern: pattern, escape: escape, negated: negated)
        }
        if isKeyword(.in) {
            return try inTail(left, negated: negated)
        }
        if isKeyword(.between) {
            let betweenToken = current
            advance()
            let lower = try scalar(expected: "a value", after: betweenToken.range)
            guard isKeyword(.and) else {
                throw unexpected("AND and the upper bound of BETWEEN", after: lastToken)
            }
            let andToken = current
            advance()
            let upper = try scalar(expected: "a value", after: andToken.range)
            return .between(left, lower: lower, upper: upper, negated: negated)
        }
        throw unexpected(
            "an operator (=, !=, <>, <, <=, >, >=, LIKE, IN, BETWEEN, IS, after, before, at or after, at or before)",
            after: afterLeft)
    }

    mutating func inTail(_ left: SQLScalar, negated: Bool) throws(Diagnostic) -> SQLPredicate.Kind {
        let inToken = current
        advance()
        guard isSymbol(.leftParen) else { throw unexpected("'(' after IN", after: inToken) }
        let open = current
        advance()
        if case .identifier = current.kind, !isReservedWord(current) {
            let sub = try subquery()
            guard isSymbol(.rightParen) else { throw unexpected("')' to close the subquery", after: lastToken) }
            advance()
            return .inSubquery(left, sub, negated: negated)
        }
        var items: [SQLScalar] = []
        var separator = open
        while true {
            if items.count == limits.maxInListSize {
                throw Diagnostic(
                    .limit.inList,
                    "the IN list has more than \(limits.maxInListSize) values (Limits.maxInListSize)",
                    at: current.range)
            }
            let item = try literalScalar(
                expected: items.isEmpty ? "a value or a subquery Table[where].column" : "a value",
                after: separator)
            items.append(item)
            if isSymbol(.comma) {
                separator = current
                advance()
                continue
            }
            guard isSymbol(.rightParen) else {
                throw unexpected("',' or ')' in the IN list", after: lastToken)
            }
            advance()
            return .inList(left, items, negated: negated)
        }
    }

    /// `Table[where].path` or `Table.path`, after `IN (`.
    mutating func subquery() throws(Diagnostic) -> SQLSubquery {
        let start = current.range.offset
        let table = try name(expected: "a table name", after: nil)
        var condition: SQLCondition?
        if isSymbol(.leftBracket) {
            try enter()
            advance()
            condition = try orExpression()
            guard isSymbol(.rightBracket) else {
                throw unexpected("AND, OR or ']' to close the subquery's condition", after: lastToken)
            }
            advance()
            leave()
        }
        guard isSymbol(.dot) else {
            throw unexpected(
                "'.' and the column the subquery selects, as in \(table.text).objectId",
                after: lastToken)
        }
        advance()
        let selected = try path(expected: "a column name", after: lastToken)
        return SQLSubquery(table: table, condition: condition, selected: selected, range: span(start))
    }

    /// `Parent[relation].column <test>`
    mutating func invertedRelation() throws(Diagnostic) -> SQLPredicate {
        let start = current.range.offset
        let parent = try name(expected: "a table name", after: nil)
        try enter()
        advance()  // [
        let relation = try name(expected: "a relation column", after: lastToken)
        guard isSymbol(.rightBracket) else { throw unexpected("']' after the relation column", after: lastToken) }
        advance()
        guard isSymbol(.dot) else {
            throw unexpected(
                "'.' and a column of \(parent.text), as in \(parent.text)[\(relation.text)].objectId",
                after: lastToken)
        }
        advance()
        let column = try path(expected: "a column name", after: lastToken)
        let kind = try tail(.path(column))
        leave()
        let inner = SQLPredicate(kind: kind, range: span(column.range.offset))
        return SQLPredicate(kind: .inverted(parent: parent, relation: relation, inner), range: span(start))
    }

    // MARK: - Operands

    /// A path or a literal.
    mutating func scalar(expected: String, after: SourceRange?) throws(Diagnostic) -> SQLScalar {
        if case .identifier(let text, let quoted) = current.kind, !isReservedWord(current) {
            if !quoted, isSymbol(.leftParen, at: position + 1) { throw unknownFunction(text, current.range) }
            if isSymbol(.leftBracket, at: position + 1) {
                throw Diagnostic(
                    .syntax.unexpectedToken,
                    "an inverted relation \(text)[…].column can only start a condition",
                    at: current.range)
            }
            return .path(try path(expected: expected, after: nil))
        }
        if case .identifier(let text, quoted: false) = current.kind, booleanKeyword(current) == nil,
            !isKeyword(.null), startsPredicateTail(at: position + 1)
        {
            // `and = 1`: a reserved word used as a column name.
            throw Diagnostic(
                .syntax.unexpectedToken,
                "expected \(expected) but found the keyword '\(text)'; write `\(text)` to use it as a name",
                at: current.range)
        }
        return try literalScalar(expected: expected, afterRange: after)
    }

    mutating func literalScalar(expected: String, after token: SQLToken) throws(Diagnostic) -> SQLScalar {
        try literalScalar(expected: expected, afterRange: token.range)
    }

    mutating func literalScalar(expected: String, afterRange: SourceRange?) throws(Diagnostic) -> SQLScalar {
        guard let l = try literal() else { throw unexpected(expected, afterRange: afterRange) }
        return .literal(l)
    }

    /// A string, a signed number, TRUE, FALSE or NULL; nil (nothing consumed) otherwise.
    mutating func literal() throws(Diagnostic) -> SQLLiteral? {
        let t = current
        switch t.kind {
        case .string(let s):
            advance()
            return SQLLiteral(value: .string(s), range: t.range)
        case .integer, .decimal:
            return try number(negative: false, start: t.range.offset)
        case .symbol(.minus):
            advance()
            switch current.kind {
            case .integer, .decimal: return try number(negative: true, start: t.range.offset)
            default: throw unexpected("a number", after: t)
            }
        case .identifier(_, quoted: false):
            let value: SQLLiteral.Value
            switch t.keyword {
            case .true?: value = .bool(true)
            case .false?: value = .bool(false)
            case .null?: value = .null
            default: return nil
            }
            advance()
            return SQLLiteral(value: value, range: t.range)
        default:
            return nil
        }
    }

    private mutating func number(negative: Bool, start: Int) throws(Diagnostic) -> SQLLiteral {
        let t = current
        advance()
        let range = span(start)
        switch t.kind {
        case .integer(let magnitude):
            if negative {
                guard magnitude <= UInt64(Int64.max) + 1 else { throw outOfRange(range) }
                return SQLLiteral(
                    value: .int(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)),
                    range: range)
            }
            guard magnitude <= UInt64(Int64.max) else { throw outOfRange(range) }
            return SQLLiteral(value: .int(Int64(magnitude)), range: range)
        case .decimal(let d):
            return SQLLiteral(value: .double(negative ? -d : d), range: range)
        default:
            throw unexpected("a number", afterRange: nil)
        }
    }

    private func outOfRange(_ range: SourceRange) -> Diagnostic {
        Diagnostic(
            .lex.numberOutOfRange,
            "the integer \(text(range)) does not fit in 64 bits (\(Int64.min) through \(Int64.max))",
            at: range)
    }

    mutating func stringLiteral(expected: String, after: SQLToken) throws(Diagnostic) -> SQLLiteral {
        guard case .string(let s) = current.kind else { throw unexpected(expected, after: after) }
        let t = current
        advance()
        return SQLLiteral(value: .string(s), range: t.range)
    }

    mutating func path(expected: String, after: SQLToken?) throws(Diagnostic) -> SQLPath {
        let start = current.range.offset
        var components = [try name(expected: expected, after: after)]
        while isSymbol(.dot) {
            let dot = current
            advance()
            components.append(try name(expected: "a column name", after: dot))
        }
        return SQLPath(components: components, range: span(start))
    }

    mutating func name(expected: String, after: SQLToken?) throws(Diagnostic) -> SQLName {
        guard case .identifier(let text, let quoted) = current.kind, !isReservedWord(current) else {
            if case .identifier(let text, false) = current.kind {
                throw Diagnostic(
                    .syntax.unexpectedToken,
                    "expected \(expected) but found the keyword '\(text)'; write `\(text)` to use it as a name",
                    at: current.range)
            }
            throw unexpected(expected, after: after)
        }
        let t = current
        advance()
        return SQLName(text: text, quoted: quoted, range: t.range)
    }

    /// A comparison symbol or date keyword, consumed; nil when the next token is neither.
    mutating func comparisonOperator() throws(Diagnostic) -> SQLOperator? {
        let t = current
        let spelling: SQLOperator.Spelling
        switch t.kind {
        case .symbol(let s):
            guard let sp = Self.spelling(of: s) else { return nil }
            spelling = sp
        case .identifier:
            if isKeyword(.after) {
                spelling = .after
            } else if isKeyword(.before) {
                spelling = .before
            } else if isKeyword(.at) {
                advance()
                guard isKeyword(.or) else { throw unexpected("'or after' or 'or before'", after: t) }
                advance()
                if isKeyword(.after) {
                    spelling = .atOrAfter
                } else if isKeyword(.before) {
                    spelling = .atOrBefore
                } else {
                    throw unexpected("'after' or 'before' in 'at or after' / 'at or before'", after: lastToken)
                }
                advance()
                return SQLOperator(spelling: spelling, range: span(t.range.offset))
            } else {
                return nil
            }
        default: return nil
        }
        advance()
        return SQLOperator(spelling: spelling, range: t.range)
    }

    static func spelling(of s: SQLSymbol) -> SQLOperator.Spelling? {
        switch s {
        case .equal: return .equal
        case .notEqual: return .notEqual
        case .notEqualSQL: return .notEqualSQL
        case .less: return .less
        case .lessOrEqual: return .lessOrEqual
        case .greater: return .greater
        case .greaterOrEqual: return .greaterOrEqual
        case .greaterOrEqualAlias: return .greaterOrEqualAlias
        default: return nil
        }
    }

    // MARK: - Token helpers

    var current: SQLToken { tokens[position] }

    /// The token consumed last (the first token before anything is consumed).
    var lastToken: SQLToken { tokens[max(0, position - 1)] }

    mutating func advance() {
        lastEnd = current.range.end
        if position < tokens.count - 1 { position += 1 }
    }

    func span(_ start: Int) -> SourceRange { SourceRange(offset: start, length: max(0, lastEnd - start)) }

    func isKeyword(_ word: SQLKeyword) -> Bool { tokens[position].keyword == word }

    func isKeyword(_ word: SQLKeyword, _ t: SQLToken) -> Bool { t.keyword == word }

    func isReservedWord(_ t: SQLToken) -> Bool { t.keyword?.isReserved ?? false }

    func isSymbol(_ s: SQLSymbol) -> Bool { isSymbol(s, at: position) }

    func isSymbol(_ s: SQLSymbol, at index: Int) -> Bool {
        guard index < tokens.count, case .symbol(let x) = tokens[index].kind else { return false }
        return x == s
    }

    func booleanKeyword(_ t: SQLToken) -> Bool? {
        if isKeyword(.true, t) { return true }
        if isKeyword(.false, t) { return false }
        return nil
    }

    /// Whether the token at `index` can follow a left operand (so `TRUE = flag` is a
    /// comparison, not a constant).
    func startsPredicateTail(at index: Int) -> Bool {
        let t = tokens[index]
        if case .symbol(let s) = t.kind { return Self.spelling(of: s) != nil }
        switch t.keyword {
        case .is?, .like?, .in?, .between?, .after?, .before?, .at?: return true
        case .not? where index + 1 < tokens.count:
            switch tokens[index + 1].keyword {
            case .like?, .in?, .between?: return true
            default: return false
            }
        default: return false
        }
    }

    mutating func enter() throws(Diagnostic) {
        depth += 1
        if depth > limits.maxNestingDepth {
            throw Diagnostic(
                .limit.nesting,
                "the condition nests deeper than \(limits.maxNestingDepth) levels (Limits.maxNestingDepth)",
                at: current.range)
        }
    }

    mutating func leave() { depth -= 1 }

    // MARK: - Diagnostics

    func text(_ range: SourceRange) -> String {
        String(decoding: source[range.offset..<min(range.end, source.count)], as: UTF8.self)
    }

    /// How a token is named in a message.
    func describe(_ t: SQLToken) -> String {
        if case .end = t.kind { return "the end of the query" }
        return quoted(text(t.range))
    }

    /// Source text as a message shows it: quoted once (a string literal keeps its own quotes),
    /// long text cut short.
    func quoted(_ source: String) -> String {
        var s = source
        if s.unicodeScalars.count > 24 { s = String(String.UnicodeScalarView(s.unicodeScalars.prefix(24))) + "…" }
        return s.hasPrefix("'") ? s : "'\(s)'"
    }

    func unexpected(_ expected: String, after: SQLToken?) -> Diagnostic {
        unexpected(expected, afterRange: after?.range)
    }

    /// `expected a value after '>' but found 'AND'`
    func unexpected(_ expected: String, afterRange: SourceRange?) -> Diagnostic {
        var message = "expected \(expected)"
        if let r = afterRange, r.length > 0 { message += " after \(quoted(text(r)))" }
        message += " but found \(describe(current))"
        if case .end = current.kind {
            return Diagnostic(.syntax.unexpectedEnd, message, at: current.range)
        }
        return Diagnostic(.syntax.unexpectedToken, message, at: current.range)
    }

    func unknownFunction(_ name: String, _ range: SourceRange) -> Diagnostic {
        var message = "unknown function '\(name)'; a condition can call distance(…) or Within(…)"
        if SQLUnits.unit(named: name) != nil {
            message =
                "the unit function '\(name)(…)' can only stand after a distance(…) comparison, as in distance(…) < \(name)(10)"
        }
        return Diagnostic(.syntax.unknownFunction, message, at: range)
    }
}
