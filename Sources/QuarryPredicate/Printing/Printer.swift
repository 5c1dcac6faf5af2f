import QuarryCore

/// Writes IR as a canonical predicate format string.
///
/// Canonical form: upper-case keywords, `==`/`!=`, double-quoted strings, `NULL TRUE FALSE`,
/// one space around binary operators, parentheses only where precedence or nesting needs them
/// (a nested AND/OR is always parenthesized, so `parse(print(ir)) == ir`). Only leaves with
/// `.predicate` semantics are written: SQL and document leaves treat null and arrays
/// differently, and writing them as NSPredicate would change the meaning.
///
/// With `withArguments`, values that have no literal spelling (dates, pointers, objects, …)
/// and queries become `%@` placeholders and key names that are not identifiers become `%K`.
struct Printer {
    let withArguments: Bool
    private(set) var arguments: [PredicateArgument] = []
    /// IR variable name → the name printed for it, for SUBQUERY variables that need renaming.
    private var renamed: [String: String] = [:]
    /// Every variable name in the predicate, so fresh names never collide.
    private var taken: Set<String>
    private var fresh = 0

    init(withArguments: Bool, variablesIn p: Filter) {
        self.withArguments = withArguments
        self.taken = p.variableNames()
    }

    // MARK: - Predicates

    /// Binding strength of a printed predicate: OR < AND < NOT < comparison.
    private enum Level: Int, Comparable {
        case or = 1, and, not, atom
        static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    mutating func predicate(_ p: Filter) throws(Diagnostic) -> String {
        try predicate(p, atLeast: .or)
    }

    private mutating func predicate(_ p: Filter, atLeast min: Level) throws(Diagnostic) -> String {
        let (text, level) = try predicateWithLevel(p)
        return level < min ? "(\(text))" : text
    }

    private mutating func predicateWithLevel(_ p: Filter) throws(Diagnostic) -> (String, Level) {
        switch p {
        case .constant(let b):
            return (b ? "TRUEPREDICATE" : "FALSEPREDICATE", .atom)
        case .and(let ps), .or(let ps):
            let isAnd: Bool
            if case .and = p { isAnd = true } else { isAnd = false }
            if ps.isEmpty { return (isAnd ? "TRUEPREDICATE" : "FALSEPREDICATE", .atom) }
            if ps.count == 1 { return try predicateWithLevel(ps[0]) }
            var parts: [String] = []
            for q in ps { parts.append(try predicate(q, atLeast: isAnd ? .not : .and)) }
            return (parts.joined(separator: isAnd ? " AND " : " OR "), isAnd ? .and : .or)
        case .not(let q):
            return ("NOT " + (try predicate(q, atLeast: .not)), .not)
        case .leaf(let leaf):
            guard leaf.semantics == .predicate else {
                throw Diagnostic(
                    .print.semantics,
                    "this condition has \(leaf.semantics.rawValue) null semantics, which an NSPredicate comparison does not share"
                )
            }
            if case .isNull(let e) = leaf.condition { return (try existence(e, exists: leaf.negated), .atom) }
            let text = try condition(leaf.condition)
            return leaf.negated ? ("NOT " + text, .not) : (text, .atom)
        }
    }

    /// `key IN SELF` is how the dialect spells existence; other operands compare with NULL.
    private mutating func existence(_ e: Expr, exists: Bool) throws(Diagnostic) -> String {
        if exists, case .key = e { return try expr(e) + " IN SELF" }
        return try expr(e) + (exists ? " != NULL" : " == NULL")
    }

    private func options(_ o: StringOptions) -> String {
        if o.isEmpty { return "" }
        return "[" + (o.contains(.caseInsensitive) ? "c" : "") + (o.contains(.diacriticInsensitive) ? "d" : "") + "]"
    }

    private mutating func condition(_ c: Condition) throws(Diagnostic) -> String {
        switch c {
        case .compare(let l, let op, let r, let o):
            return "\(try expr(l)) \(op.rawValue)\(options(o)) \(try expr(r))"
        case .between(let e, let lower, let upper):
            return "\(try expr(e)) BETWEEN \(try bounds(lower, upper))"
        case .inCollection(let v, let coll, let o):
            if case .evaluatedObject = coll {
                throw Diagnostic(
                    .print.inexpressible,
                    "membership in SELF has no spelling: `x IN SELF` means that the key x exists")
            }
            return "\(try expr(v)) IN\(options(o)) \(try expr(coll))"
        case .string(let l, let op, let r, let o):
            return "\(try expr(l)) \(try stringOperator(op, o)) \(try expr(r))"
        case .quantified(let q, let coll, let variable, let body):
            return try quantified(q, coll, variable, body)
        case .inQuery(let key, let query):
            guard withArguments else {
                throw Diagnostic(
                    .print.inexpressible,
                    "a subquery (key IN query) is written `key IN %@` with the query as an argument; print with arguments"
                )
            }
            let k = try expr(.key(key))
            arguments.append(.query(query))
            return k + " IN %@"
        case .isNull(let e):
            return try existence(e, exists: false)
        case .containsAll:
            throw Diagnostic(.print.inexpressible, "containsAll (Parse $all) has no NSPredicate spelling")
        case .containedBy:
            throw Diagnostic(.print.inexpressible, "containedBy (Parse $containedBy) has no NSPredicate spelling")
        case .arraySize:
            throw Diagnostic(.print.inexpressible, "an array-size test (Parse $size) has no NSPredicate spelling")
        case .geo:
            throw Diagnostic(.print.inexpressible, "geo conditions have no NSPredicate spelling")
        case .select:
            throw Diagnostic(.print.inexpressible, "select (Parse $select) has no NSPredicate spelling")
        case .relatedTo:
            throw Diagnostic(.print.inexpressible, "relatedTo (Parse $relatedTo) has no NSPredicate spelling")
        case .text:
            throw Diagnostic(.print.inexpressible, "text search (Parse $text) has no NSPredicate spelling")
        }
    }

    /// `BEGINSWITH[c]` and friends; a case-insensitive regex flag reads as `[c]`.
    private func stringOperator(_ op: StringOperator, _ o: StringOptions) throws(Diagnostic) -> String {
        switch op {
        case .beginsWith: return "BEGINSWITH" + options(o)
        case .endsWith: return "ENDSWITH" + options(o)
        case .contains: return "CONTAINS" + options(o)
        case .like(.glob): return "LIKE" + options(o)
        case .like(.sql):
            throw Diagnostic(.print.inexpressible, "an SQL LIKE pattern has no NSPredicate spelling; LIKE uses * and ?")
        case .matches(let ro):
            guard ro.wholeString, ro.flags.subtracting(.caseInsensitive).isEmpty else {
                throw Diagnostic(
                    .print.inexpressible,
                    "NSPredicate MATCHES matches the whole string and takes no regex flags but [c]")
            }
            return "MATCHES" + options(ro.flags.contains(.caseInsensitive) ? o.union(.caseInsensitive) : o)
        }
    }

    /// `{lo, hi}`, or `$v` when the bounds are `$v[0]` and `$v[1]` (an unbound BETWEEN $v).
    private mutating func bounds(_ lower: Expr, _ upper: Expr) throws(Diagnostic) -> String {
        if case .index(.variable(let a), .at(.literal(.int(0)))) = lower,
            case .index(.variable(let b), .at(.literal(.int(1)))) = upper, a == b,
            renamed[a] == nil, a.isIdentifier
        {
            return "$" + a
        }
        return "{\(try expr(lower)), \(try expr(upper))}"
    }

    /// `ANY coll op x` when the body is one leaf testing the element; otherwise the
    /// equivalent SUBQUERY count.
    private mutating func quantified(_ q: Quantifier, _ coll: Expr, _ v: String, _ body: Filter) throws(Diagnostic)
        -> String
    {
        let word = q == .any ? "ANY" : q == .all ? "ALL" : "NONE"
        if case .leaf(let leaf) = body, leaf.semantics == .predicate, !leaf.negated,
            let shape = ElementShape(leaf.condition, variable: v)
        {
            let c = try expr(coll)
            switch shape {
            case .compare(let op, let r, let o):
                return "\(word) \(c) \(op.rawValue)\(options(o)) \(try expr(r))"
            case .between(let lower, let upper):
                return "\(word) \(c) BETWEEN \(try bounds(lower, upper))"
            case .elementIn(let coll2, let o):
                return "\(word) \(c) IN\(options(o)) \(try expr(coll2))"
            case .elementContains(let x, let o):
                return "\(word) \(c) CONTAINS\(options(o)) \(try expr(x))"
            case .string(let op, let r, let o):
                return "\(word) \(c) \(try stringOperator(op, o)) \(try expr(r))"
            }
        }
        let name = freshName()
        renamed[v] = name
        defer { renamed[v] = nil }
        let c = try expr(coll)
        switch q {
        case .any: return "SUBQUERY(\(c), $\(name), \(try predicate(body))).@count > 0"
        case .none: return "SUBQUERY(\(c), $\(name), \(try predicate(body))).@count == 0"
        case .all: return "SUBQUERY(\(c), $\(name), NOT \(try predicate(body, atLeast: .not))).@count == 0"
        }
    }

    private mutating func freshName() -> String {
        while true {
            let n = "v\(fresh)"
            fresh += 1
            if !taken.contains(n) {
                taken.insert(n)
                return n
            }
        }
    }

    // MARK: - Expressions

    /// Binding strength of a printed expression.
    private enum Prec: Int, Comparable {
        case additive = 1, multiplicative, unary, power, postfix
        static func < (a: Prec, b: Prec) -> Bool { a.rawValue < b.rawValue }
    }

    mutating func expr(_ e: Expr) throws(Diagnostic) -> String {
        try expr(e, atLeast: .additive)
    }

    private mutating func expr(_ e: Expr, atLeast min: Prec) throws(Diagnostic) -> String {
        let (text, prec) = try exprWithPrec(e)
        return prec < min ? "(\(text))" : text
    }

    private mutating func exprWithPrec(_ e: Expr) throws(Diagnostic) -> (String, Prec) {
        switch e {
        case .literal(let v):
            return try literal(v)
        case .key(let path):
            return (try keyPath(path), .postfix)
        case .variable(let name):
            if let r = renamed[name] { return ("$" + r, .postfix) }
            guard name.isIdentifier else {
                throw Diagnostic(.print.inexpressible, "the variable name '\(name)' cannot be written as $name")
            }
            return ("$" + name, .postfix)
        case .evaluatedObject:
            return ("SELF", .postfix)
        case .member(let base, let path):
            return (try memberBase(base) + "." + (try components(path)), .postfix)
        case .list(let items):
            var parts: [String] = []
            for i in items { parts.append(try expr(i)) }
            return ("{" + parts.joined(separator: ", ") + "}", .postfix)
        case .arithmetic(let op, let l, let r):
            switch op {
            case .add, .subtract:
                return (
                    "\(try expr(l, atLeast: .additive)) \(op.rawValue) \(try expr(r, atLeast: .multiplicative))",
                    .additive
                )
            case .multiply, .divide:
                return (
                    "\(try expr(l, atLeast: .multiplicative)) \(op.rawValue) \(try expr(r, atLeast: .unary))",
                    .multiplicative
                )
            case .power:
                return ("\(try expr(l, atLeast: .postfix)) ** \(try expr(r, atLeast: .unary))", .power)
            case .modulus:
                return try exprWithPrec(.function(.modulus, [l, r]))
            }
        case .negate(let x):
            // `-5` would read back as the literal -5, and `--x` looks like a typo.
            var needsParens = false
            switch x {
            case .literal(.int), .literal(.double), .negate: needsParens = true
            default: break
            }
            let operand = needsParens ? "(\(try expr(x)))" : try expr(x, atLeast: .unary)
            return ("-" + operand, .unary)
        case .function(let f, let args):
            var parts: [String] = []
            for a in args { parts.append(try expr(a)) }
            return ("\(f.callName)(\(parts.joined(separator: ", ")))", .postfix)
        case .aggregate(let op, let target):
            return (try aggregateBase(target) + "." + op.rawValue, .postfix)
        case .index(let base, let spec):
            let b = try expr(base, atLeast: .postfix)
            switch spec {
            case .first: return (b + "[FIRST]", .postfix)
            case .last: return (b + "[LAST]", .postfix)
            case .size: return (b + "[SIZE]", .postfix)
            case .at(let i): return (b + "[\(try expr(i))]", .postfix)
            }
        case .subquery(let coll, let variable, let body):
            let c = try expr(coll)
            let name = variable.isIdentifier ? variable : freshName()
            let saved = renamed[variable]
            renamed[variable] = name == variable ? nil : name
            defer { renamed[variable] = saved }
            return ("SUBQUERY(\(c), $\(name), \(try predicate(body)))", .postfix)
        case .cast(let x, let type):
            return ("CAST(\(try expr(x)), \"\(type.rawValue)\")", .postfix)
        }
    }

    /// The base of `base.key`: a following `.key` must not be read as part of something else.
    private mutating func memberBase(_ base: Expr) throws(Diagnostic) -> String {
        switch base {
        case .aggregate:
            // `a.@count.b` would read as @count over a.b.
            return "(\(try expr(base)))"
        case .literal(.int), .literal(.double):
            return "(\(try expr(base)))"
        default:
            return try expr(base, atLeast: .postfix)
        }
    }

    /// The collection in front of `.@op`.
    private mutating func aggregateBase(_ target: Expr) throws(Diagnostic) -> String {
        switch target {
        case .literal(.int), .literal(.double):
            return "(\(try expr(target)))"
        default:
            return try expr(target, atLeast: .postfix)
        }
    }

    private mutating func keyPath(_ path: FieldPath) throws(Diagnostic) -> String {
        if path.components.allSatisfy({ $0.isIdentifier }) { return try components(path) }
        guard withArguments, !path.components.contains(where: { $0.isEmpty || $0.contains(".") || $0.hasPrefix("@") })
        else {
            throw Diagnostic(.print.inexpressible, "the key '\(path)' has a component that is not an identifier")
        }
        arguments.append(.keyPath(path.description))
        return "%K"
    }

    /// Dotted names; reserved words are escaped with `#`.
    private func components(_ path: FieldPath) throws(Diagnostic) -> String {
        var parts: [String] = []
        for c in path.components {
            guard c.isIdentifier else {
                throw Diagnostic(.print.inexpressible, "the key '\(c)' in '\(path)' is not an identifier")
            }
            // (`uti` needs no escape: only an adjacent `-EQUALS` would make it a keyword.)
            parts.append(Keyword.spelled(by: c) != nil ? "#" + c : c)
        }
        return parts.joined(separator: ".")
    }

    // MARK: - Literals

    private mutating func literal(_ v: Value) throws(Diagnostic) -> (String, Prec) {
        switch v {
        case .null: return ("NULL", .postfix)
        case .bool(let b): return (b ? "TRUE" : "FALSE", .postfix)
        case .int(let i): return (String(i), i < 0 ? .unary : .postfix)
        case .double(let d):
            guard d.isFinite else {
                if withArguments { return placeholder(v) }
                throw Diagnostic(.print.inexpressible, "\(d) has no literal spelling")
            }
            return (d.description, d.sign == .minus ? .unary : .postfix)
        case .string(let s): return (Self.quoted(s), .postfix)
        case .array(let items):
            var parts: [String] = []
            for i in items { parts.append(try literal(i).0) }
            return ("{" + parts.joined(separator: ", ") + "}", .postfix)
        case .date(let ms):
            if withArguments { return placeholder(v) }
            return ("CAST(\(Self.quoted(ISODate.format(ms))), \"NSDate\")", .postfix)
        default:
            if withArguments { return placeholder(v) }
            throw Diagnostic(
                .print.inexpressible,
                "a \(v.typeName) value has no literal spelling; print with arguments to pass it as %@")
        }
    }

    private mutating func placeholder(_ v: Value) -> (String, Prec) {
        arguments.append(.value(v))
        return ("%@", .postfix)
    }

    /// A double-quoted string literal the lexer reads back exactly.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if u.value < 0x20 || u.value == 0x7F {
                    let hex = String(u.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}

/// A quantifier body the `ANY coll op x` form can write: one leaf testing the element.
private enum ElementShape {
    case compare(ComparisonOperator, Expr, StringOptions)
    case between(Expr, Expr)
    case elementIn(Expr, StringOptions)
    case elementContains(Expr, StringOptions)
    case string(StringOperator, Expr, StringOptions)

    init?(_ c: Condition, variable v: String) {
        let element = Expr.variable(v)
        switch c {
        case .compare(let l, let op, let r, let o) where l == element && !r.mentions(v):
            self = .compare(op, r, o)
        case .between(let e, let lo, let hi) where e == element && !lo.mentions(v) && !hi.mentions(v):
            self = .between(lo, hi)
        case .inCollection(let x, let coll, let o) where x == element && !coll.mentions(v):
            if case .evaluatedObject = coll { return nil }
            self = .elementIn(coll, o)
        case .inCollection(let x, let coll, let o) where coll == element && !x.mentions(v):
            self = .elementContains(x, o)
        case .string(let l, let op, let r, let o) where l == element && !r.mentions(v):
            self = .string(op, r, o)
        default:
            return nil
        }
    }
}

extension String {
    /// Whether the lexer reads the text back as one identifier.
    var isIdentifier: Bool {
        guard let first = unicodeScalars.first, first.isIdentifierStart else { return false }
        return unicodeScalars.dropFirst().allSatisfy(\.isIdentifierPart)
    }
}
