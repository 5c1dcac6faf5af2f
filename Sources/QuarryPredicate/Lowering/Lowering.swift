import QuarryCore

/// Gives the syntax tree its meaning: binds arguments and variables, checks what it can see
/// statically, and builds IR whose leaves all carry `.predicate` semantics.
///
/// Errors are collected per comparison, so one bad comparison does not hide another.
struct Lowering {
    let bytes: [UInt8]
    let arguments: [PredicateArgument]
    let variables: [String: Value]?
    let schema: (any Schema)?
    let className: String?
    let limits: Limits
    /// SUBQUERY statements already counted by the parser; query arguments add to it.
    var subqueries: Int
    var diagnostics: [Diagnostic] = []
    /// Quantifiers around the current position; names their element variables `#0`, `#1`, …
    /// (a `#` name can never clash with a `$variable` the text can spell).
    var quantifierDepth = 0
    /// SUBQUERY variables in scope: never substituted.
    var scope: [String] = []

    func text(_ r: SourceRange) -> String {
        String(decoding: bytes[Swift.max(0, r.offset)..<Swift.min(r.end, bytes.count)], as: UTF8.self)
    }

    // MARK: - Predicates

    mutating func predicate(_ node: PredicateNode) -> Filter {
        switch node.kind {
        case .constant(let b): return .constant(b)
        case .and(let ps): return .and(ps.map { predicate($0) })
        case .or(let ps): return .or(ps.map { predicate($0) })
        case .not(let p): return .not(predicate(p))
        case .comparison(let c):
            do {
                return try comparison(c).locating(node.range)
            } catch {
                diagnostics.append(error)
                return .constant(false)
            }
        }
    }

    private mutating func comparison(_ c: ComparisonSyntax) throws(Diagnostic) -> Filter {
        if c.op == .in_, let special = try specialIn(c) { return special }
        try checkOptions(c)
        guard let q = c.qualifier else {
            let lhs = try expr(c.lhs)
            return .leaf(try condition(c, lhs: lhs, quantified: false), .predicate)
        }
        try checkCollection(c)
        let collection = try expr(c.lhs)
        let name = "#\(quantifierDepth)"
        quantifierDepth += 1
        defer { quantifierDepth -= 1 }
        let body = Filter.leaf(try condition(c, lhs: .variable(name), quantified: true), .predicate)
        let quantifier: Quantifier
        switch q {
        case .any, .some: quantifier = .any
        case .all: quantifier = .all
        case .none: quantifier = .none
        }
        return .leaf(.quantified(quantifier, collection, variable: name, body), .predicate)
    }

    /// `key IN SELF` (key existence, as Parse defined it) and `key IN %@` with a query.
    private mutating func specialIn(_ c: ComparisonSyntax) throws(Diagnostic) -> Filter? {
        let rhs = c.rhs.strippingParentheses
        var form: String?
        if case .selfRef = rhs.kind { form = "IN SELF" }
        if case .argument(let spec, let index) = rhs.kind, spec.kind == .object, index < arguments.count,
            case .query = arguments[index]
        {
            form = "IN %@ with a query"
        }
        guard let form else { return nil }
        if let r = c.qualifierRange {
            throw Diagnostic(
                .predicate.quantifierNotAllowed,
                "\(c.qualifier?.rawValue ?? "") cannot qualify `key \(form)`", at: r)
        }
        if let r = c.optionsRange {
            throw Diagnostic(.predicate.modifierNotAllowed, "string options do not apply to `key \(form)`", at: r)
        }
        let lhs = try expr(c.lhs)
        guard case .key(let path) = lhs else {
            throw Diagnostic(
                .predicate.keyPathRequired,
                "`\(form)` needs a key path on the left, not '\(text(c.lhs.range))'",
                at: c.lhs.range,
                notes: form == "IN SELF" ? ["`score IN SELF` matches objects that have a value for score"] : [])
        }
        if case .argument(_, let index) = rhs.kind, case .query(let query) = arguments[index] {
            subqueries += 1
            if subqueries > limits.maxSubqueries {
                throw Diagnostic(.limit.subqueries, "more than \(limits.maxSubqueries) subqueries", at: rhs.range)
            }
            return .leaf(.inQuery(path, query), .predicate)
        }
        return .leaf(.isNull(.key(path)), negated: true, .predicate)
    }

    /// The test itself; `lhs` is the left operand, or the element variable under a quantifier.
    private mutating func condition(_ c: ComparisonSyntax, lhs: Expr, quantified: Bool) throws(Diagnostic) -> Condition
    {
        let opts = c.options
        switch c.op {
        case .eq, .ne, .lt, .le, .gt, .ge:
            return .compare(lhs, c.op.comparison ?? .eq, try expr(c.rhs), opts)
        case .between:
            let (lower, upper) = try betweenBounds(c.rhs)
            return .between(lhs, lower: lower, upper: upper)
        case .in_:
            if let kind = staticKind(c.rhs), kind.isScalar, kind != .string {
                throw Diagnostic(
                    .predicate.notACollection,
                    "IN needs a collection or a string on the right, but '\(text(c.rhs.range))' is \(kind.article)",
                    at: c.rhs.range)
            }
            return .inCollection(lhs, try expr(c.rhs), opts)
        case .contains:
            let rhs = try expr(c.rhs)
            if !quantified {
                let kind = staticKind(c.lhs)
                if let kind, kind.isScalar, kind != .string {
                    throw Diagnostic(
                        .predicate.notACollection,
                        "CONTAINS needs a collection or a string on the left, but '\(text(c.lhs.range))' is \(kind.article)",
                        at: c.lhs.range)
                }
                // A string on the left: substring test. Anything else (a key whose type is not
                // known) is membership, which the IR defines as substring for a string anyway.
                if kind == .string || isStringField(lhs) { return .string(lhs, .contains, rhs, opts) }
            }
            return .inCollection(rhs, lhs, opts)
        case .beginsWith, .endsWith, .like, .matches:
            if !quantified { try requireString(c.lhs, for: c.op) }
            if !(c.op == .beginsWith || c.op == .endsWith) || staticKind(c.rhs) != .null {
                try requireString(c.rhs, for: c.op)
            }
            let op: StringOperator
            switch c.op {
            case .beginsWith: op = .beginsWith
            case .endsWith: op = .endsWith
            case .like: op = .like(.glob)
            default: op = .matches(RegexOptions(wholeString: true))
            }
            return .string(lhs, op, try expr(c.rhs), opts)
        }
    }

    private func requireString(_ node: ExprNode, for op: ComparisonOp) throws(Diagnostic) {
        guard let kind = staticKind(node), kind != .string else { return }
        throw Diagnostic(
            .predicate.typeMismatch,
            "\(op.rawValue) compares strings, but '\(text(node.range))' is \(kind.article)",
            at: node.range)
    }

    /// `BETWEEN {lo, hi}`, `BETWEEN %@` (a two-element array), `BETWEEN $range`.
    private mutating func betweenBounds(_ node: ExprNode) throws(Diagnostic) -> (Expr, Expr) {
        let n = node.strippingParentheses
        func bad(_ what: String) -> Diagnostic {
            Diagnostic(
                .predicate.betweenBounds,
                "BETWEEN needs two bounds {lower, upper}, but \(what)", at: node.range)
        }
        switch n.kind {
        case .list(let xs):
            guard xs.count == 2 else { throw bad("the aggregate has \(xs.count) element\(xs.count == 1 ? "" : "s")") }
            return (try expr(xs[0]), try expr(xs[1]))
        case .argument(let spec, let index) where spec.kind == .object:
            guard case .value(.array(let vs)) = arguments[index], vs.count == 2 else {
                throw bad("\(spec.text) is bound to \(describe(arguments[index]))")
            }
            return (valueExpr(vs[0]), valueExpr(vs[1]))
        case .variable(let name) where !scope.contains(name):
            if let variables {
                guard let v = variables[name] else { throw unbound(name, at: n.range) }
                guard case .array(let vs) = v, vs.count == 2 else {
                    throw bad("$\(name) is bound to \(describe(.value(v)))")
                }
                return (valueExpr(vs[0]), valueExpr(vs[1]))
            }
            // Bound later by `substituting`, which checks the shape.
            return (.index(.variable(name), .at(.literal(.int(0)))), .index(.variable(name), .at(.literal(.int(1)))))
        default:
            throw bad("found '\(text(node.range))'")
        }
    }

    // MARK: - Static checks

    private func checkOptions(_ c: ComparisonSyntax) throws(Diagnostic) {
        guard !c.options.isEmpty, let r = c.optionsRange else { return }
        if c.op == .between {
            throw Diagnostic(
                .predicate.modifierNotAllowed,
                "BETWEEN takes no string options; [c] and [d] apply to string comparisons",
                at: r)
        }
        for (side, node) in [("left", c.lhs), ("right", c.rhs)] {
            if side == "left" && c.qualifier != nil { continue }
            // Foundation takes nil as the needle of a substring test, options or not (no match):
            // on the right of BEGINSWITH, ENDSWITH and CONTAINS, on the left of IN.
            if staticKind(node) == .null,
                side == "right" ? [.beginsWith, .endsWith, .contains].contains(c.op) : c.op == .in_
            {
                continue
            }
            if let kind = staticKind(node), kind != .string, kind != .list {
                throw Diagnostic(
                    .predicate.modifierNotAllowed,
                    "string options apply to string comparisons, but '\(text(node.range))' is \(kind.article)",
                    at: r)
            }
        }
    }

    /// ANY / ALL / NONE over something that is certainly not a collection.
    private func checkCollection(_ c: ComparisonSyntax) throws(Diagnostic) {
        let q = c.qualifier?.rawValue ?? ""
        if let kind = staticKind(c.lhs), kind.isScalar {
            throw Diagnostic(
                .predicate.quantifierOnScalar,
                "\(q) needs a collection, but '\(text(c.lhs.range))' is \(kind.article)",
                at: c.lhs.range)
        }
        if let path = plainKeyPath(c.lhs), let type = fieldType(path), !type.isCollectionLike {
            throw Diagnostic(
                .predicate.quantifierOnScalar,
                "\(q) needs a collection, but '\(path)' is a \(type) field",
                at: c.lhs.range)
        }
    }

    func unbound(_ name: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.variable.unbound, "no value was given for the variable $\(name)", at: range)
    }

    func describe(_ a: PredicateArgument) -> String {
        switch a {
        case .value(.array(let vs)): return "an array of \(vs.count) element\(vs.count == 1 ? "" : "s")"
        case .value(let v): return v.article
        case .keyPath(let k): return "the key path '\(k)'"
        case .query: return "a query"
        }
    }
}

extension ExprNode {
    var strippingParentheses: ExprNode {
        if case .parenthesized(let inner) = kind { return inner.strippingParentheses }
        return self
    }
}
