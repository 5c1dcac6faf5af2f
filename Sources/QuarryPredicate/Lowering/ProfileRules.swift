import QuarryCore

/// The subsets Parse and MaxLeap accepted in `queryWithClassName:predicate:`.
///
/// Both SDK guides list: comparisons `= != < > <= >=` and BETWEEN between a key and a constant,
/// `x IN {…}` containment, `x IN SELF` key existence, BEGINSWITH, AND/OR/NOT, and
/// `"key IN %@", subquery`; not aggregates (ANY SOME ALL NONE), key-to-key comparisons, or
/// "complex predicates with many ORed clauses". Parse also rejects the regular-expression
/// family (LIKE MATCHES CONTAINS ENDSWITH), which MaxLeap's list accepts. The Parse SDK's
/// translator further refused negated string operators and ordering on booleans, and counted
/// an OR of more than four branches after normalization as "too complex".
/// LeanCloud's SDK discarded the predicate and Backendless has none: they reject format strings.
struct ProfileRules {
    let profile: Profile
    let arguments: [PredicateArgument]
    let bytes: [UInt8]
    /// Most OR branches after normalization to disjunctive normal form.
    static let maxOrBranches = 4

    static func acceptsFormatStrings(_ p: Profile) -> Bool {
        p != .leancloud && p != .backendless
    }

    static func rejectAll(_ p: Profile, at range: SourceRange) -> Diagnostic {
        let why =
            p == .leancloud
            ? "the LeanCloud SDK ignored the predicate of queryWithClassName:predicate:"
            : "Backendless queries are SQL where-clauses"
        return Diagnostic(
            .profile.unsupported,
            "the \(p.rawValue) profile does not accept NSPredicate format strings (\(why))",
            at: range)
    }

    private var restricted: Bool { profile == .parse || profile == .maxleap }

    func check(_ p: PredicateNode) -> [Diagnostic] {
        guard restricted else { return [] }
        var out: [Diagnostic] = []
        visit(p, negated: false, into: &out)
        return out
    }

    private func unsupported(_ what: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.profile.unsupported, "the \(profile.rawValue) profile does not support \(what)", at: range)
    }

    private func visit(_ p: PredicateNode, negated: Bool, into out: inout [Diagnostic]) {
        switch p.kind {
        case .constant(let b):
            out.append(unsupported(b ? "TRUEPREDICATE" : "FALSEPREDICATE", at: p.range))
        case .and(let ps), .or(let ps):
            for q in ps { visit(q, negated: negated, into: &out) }
        case .not(let q):
            visit(q, negated: !negated, into: &out)
        case .comparison(let c):
            if let d = comparison(c, negated: negated) { out.append(d) }
        }
    }

    private func comparison(_ c: ComparisonSyntax, negated: Bool) -> Diagnostic? {
        if let q = c.qualifier, let r = c.qualifierRange {
            return unsupported("aggregate operations such as \(q.rawValue)", at: r)
        }
        let stringFamily: Set<ComparisonOp> = [.beginsWith, .endsWith, .contains, .like, .matches]
        let regexFamily: Set<ComparisonOp> = [.endsWith, .contains, .like, .matches]
        if profile == .parse && regexFamily.contains(c.op) {
            return unsupported("regular expressions such as \(c.op.rawValue)", at: c.opRange)
        }
        if negated && stringFamily.contains(c.op) {
            return unsupported("a negated \(c.op.rawValue)", at: c.opRange)
        }
        if let r = c.optionsRange {
            if c.options.contains(.diacriticInsensitive) || profile == .parse || !stringFamily.contains(c.op) {
                return unsupported(
                    "the comparison options [\(text(r).dropFirst().dropLast())] on \(c.op.rawValue)", at: r)
            }
        }
        let l = operand(c.lhs), r = operand(c.rhs)
        if c.op == .in_, case .key = l, case .selfRef = r { return nil }  // key existence
        if c.op == .in_, case .key = l, case .query = r { return nil }  // matchesQuery
        switch (l, r) {
        case (.key, .key):
            return unsupported("predicates comparing one key to another", at: c.lhs.range.union(c.rhs.range))
        case (.key, .constant(let k)), (.constant(let k), .key):
            if [.lt, .le, .gt, .ge, .between].contains(c.op), let k, k == .bool || k == .null {
                return unsupported("ordering by \(k.article)", at: c.opRange)
            }
            if c.op == .between, case .key = r {
                return unsupported("BETWEEN with the key on the right", at: c.rhs.range)
            }
            return nil
        case (.constant, .constant):
            return unsupported(
                "a comparison without a key path (it needs a key path and a constant)",
                at: c.lhs.range.union(c.rhs.range))
        case (.other(let what, let range), _), (_, .other(let what, let range)):
            return unsupported(what, at: range)
        case (.selfRef, _), (_, .selfRef):
            return unsupported("SELF outside `key IN SELF`", at: c.lhs.range.union(c.rhs.range))
        case (.query, _), (_, .query):
            return unsupported("a query argument outside `key IN %@`", at: c.rhs.range)
        }
    }

    private enum Operand {
        case key
        case constant(StaticKind?)
        case selfRef
        case query
        case other(String, SourceRange)
    }

    private func operand(_ node: ExprNode) -> Operand {
        let n = node.strippingParentheses
        switch n.kind {
        case .identifier: return .key
        case .member(let base, _), .memberArgument(let base, _, _, _):
            if case .key = operand(base) { return .key }
            if case .selfRef = base.strippingParentheses.kind { return .key }
            return .other("key paths on computed values", n.range)
        case .argument(let spec, let index):
            switch spec.kind {
            case .keyPath: return .key
            case .integer, .real: return .constant(.number)
            case .object:
                switch arguments[index] {
                case .query: return .query
                case .value(let v): return .constant(StaticKind(v))
                case .keyPath: return .key
                }
            }
        case .integer, .real: return .constant(.number)
        case .string, .percent: return .constant(.string)
        case .bool: return .constant(.bool)
        case .null: return .constant(.null)
        case .variable: return .constant(nil)
        case .negate(let x):
            switch x.kind {
            case .integer, .real: return .constant(.number)
            default: return .other("arithmetic", n.range)
            }
        case .list(let xs):
            for x in xs {
                if case .constant = operand(x) { continue }
                return .other("a collection of non-constant values", x.range)
            }
            return .constant(.list)
        case .cast(let args):
            // CAST(number, 'NSDate') is how a date constant is written.
            if args.count == 2, case .constant = operand(args[0]), case .constant = operand(args[1]) {
                return .constant(.date)
            }
            return .other("CAST of a non-constant value", n.range)
        case .selfRef: return .selfRef
        case .collectionOperator(_, let op, _): return .other("collection operators such as @\(op.text)", n.range)
        case .index: return .other("index expressions", n.range)
        case .call(let name, _): return .other("functions such as \(name.text)()", n.range)
        case .function: return .other("FUNCTION expressions", n.range)
        case .subquery: return .other("SUBQUERY", n.range)
        case .binary(let op, _, _): return .other("arithmetic (\(op.rawValue))", n.range)
        case .assignment: return .other("assignments", n.range)
        case .parenthesized(let inner): return operand(inner)
        }
    }

    private func text(_ r: SourceRange) -> String {
        String(decoding: bytes[r.offset..<Swift.min(r.end, bytes.count)], as: UTF8.self)
    }
}
