import QuarryCore

/// Rewrites of one leaf: literal operands to the right, SQL negations into the opposite
/// operator, LIKE patterns without inner wildcards into prefix / suffix / substring tests, and
/// leaves that do not depend on the object folded to a constant.
extension Normalizer {
    mutating func leaf(_ original: Leaf) -> Filter {
        var l = original
        if case .compare(let a, let op, let b, let options) = l.condition, case .literal = a, case .key = b {
            // Every semantics treats both sides alike, with the operator mirrored.
            l.condition = .compare(b, op.swapped, a, options)
            log("operand-swap", .leaf(original), .leaf(l))
        }
        if l.semantics == .sql, l.negated, case .compare(let a, let op, let b, let options) = l.condition {
            // Under `.sql` a negated comparison holds when some non-null value fails the test
            // and the values are comparable: exactly the opposite operator.
            let before = l
            l.negated = false
            l.condition = .compare(a, op.complement, b, options)
            log("negation-to-operator", .leaf(before), .leaf(l))
        }
        if case .string(let e, .like(let syntax), .literal(.string(let pattern)), let options) = l.condition,
            let (op, literal, rule) = Self.simpleLike(pattern, syntax),
            // NSPredicate's empty prefix is in no string; `LIKE "*"` holds for every string.
            !(literal.isEmpty && l.semantics == .predicate)
        {
            let before = l
            l.condition = .string(e, op, .literal(.string(literal)), options)
            log(rule, .leaf(before), .leaf(l))
        }
        if l.isObjectIndependent, let b = constantValue(l) {
            log("constant-fold", .leaf(l), .constant(b))
            return .constant(b)
        }
        return .leaf(l)
    }

    /// The leaf's value, the same for every object; nil if evaluating it throws.
    private func constantValue(_ l: Leaf) -> Bool? {
        let empty = Record(objectId: "", fields: [])
        return try? folding.evaluate(.leaf(l), Scope(record: empty, className: ""))
    }

    /// A LIKE pattern whose only wildcards are a leading and/or trailing run of "any": the
    /// equivalent string operator, the literal text between, and the rule's name. Folding for
    /// the options applies to the literal the same way in both tests.
    static func simpleLike(_ pattern: String, _ syntax: LikeSyntax) -> (StringOperator, String, String)? {
        plainAffixLike(pattern, syntax) ?? tokenizedSimpleLike(pattern, syntax)
    }

    /// `simpleLike` of any pattern, from its tokens.
    static func tokenizedSimpleLike(_ pattern: String, _ syntax: LikeSyntax) -> (StringOperator, String, String)? {
        let tokens = LikePattern(pattern, syntax: syntax, options: []).tokens
        guard !tokens.contains(.one) else { return nil }
        let leading = tokens.first == .any, trailing = tokens.count > (leading ? 1 : 0) && tokens.last == .any
        let inner = tokens.dropFirst(leading ? 1 : 0).dropLast(trailing ? 1 : 0)
        guard !inner.contains(.any) else { return nil }
        var literal = String.UnicodeScalarView()
        for case .scalar(let u) in inner { literal.append(u) }
        switch (leading, trailing) {
        case (false, true): return (.beginsWith, String(literal), "like-to-prefix")
        case (true, false): return (.endsWith, String(literal), "like-to-suffix")
        case (true, true): return (.contains, String(literal), "like-to-contains")
        case (false, false): return nil
        }
    }

    /// `simpleLike` of a pattern whose only special characters are one "any" at its start,
    /// its end or both, read from its bytes (tokenizing the pattern was most of binding a new
    /// LIKE pattern to a cached plan); nil for any other pattern (an escape, a wildcard inside,
    /// fewer than two bytes), which `simpleLike` tokenizes.
    static func plainAffixLike(_ pattern: String, _ syntax: LikeSyntax) -> (StringOperator, String, String)? {
        let any: UInt8, one: UInt8, escape: UInt8?
        switch syntax {
        case .sql(let e):
            guard e == nil else { return nil }
            (any, one, escape) = (UInt8(ascii: "%"), UInt8(ascii: "_"), nil)
        case .glob:
            (any, one, escape) = (UInt8(ascii: "*"), UInt8(ascii: "?"), UInt8(ascii: "\\"))
        }
        let found = pattern.utf8.withContiguousStorageIfAvailable { b -> (StringOperator, String, String)? in
            guard b.count >= 2 else { return nil }
            let leading = b[0] == any, trailing = b[b.count - 1] == any
            let inner = UnsafeBufferPointer(rebasing: b[(leading ? 1 : 0)..<(b.count - (trailing ? 1 : 0))])
            guard leading || trailing, !inner.isEmpty,
                !inner.contains(where: { $0 == any || $0 == one || $0 == escape })
            else { return nil }
            let text = String(decoding: inner, as: UTF8.self)
            switch (leading, trailing) {
            case (false, _): return (.beginsWith, text, "like-to-prefix")
            case (true, false): return (.endsWith, text, "like-to-suffix")
            case (true, true): return (.contains, text, "like-to-contains")
            }
        }
        return found ?? nil
    }
}

extension Leaf {
    /// Whether the leaf's value is the same for every object and every run: no key, SELF,
    /// free variable, clock, randomness, database lookup or inner query.
    var isObjectIndependent: Bool {
        // Most leaves test a key of the object: told without walking the leaf.
        switch condition {
        case .compare(.key, _, _, _), .compare(_, _, .key, _), .between(.key, _, _), .inCollection(.key, _, _),
            .isNull(.key), .string(.key, _, _, _), .arraySize(.key, _):
            return false
        default:
            break
        }
        return !IRNode.leaf(self).contains(innerQueries: false) { node, context in
            switch node {
            case .condition(.geo), .condition(.inQuery), .condition(.select), .condition(.relatedTo),
                .condition(.text):
                return true
            case .expr(.literal(let v)): return v.needsDatabase
            case .expr(.key), .expr(.evaluatedObject), .expr(.member): return true
            case .expr(.variable(let name)): return !context.bound.contains(name)
            case .expr(.function(.now, _)), .expr(.function(.random, _)), .expr(.function(.randomn, _)),
                .expr(.function(.relativeTime, _)):
                return true
            default: return false
            }
        }
    }
}

extension Value {
    /// Pointers and relations are followed into the database (a path through a dangling
    /// pointer reaches nothing).
    var needsDatabase: Bool {
        switch self {
        case .pointer, .relation: return true
        case .array(let items): return items.contains(where: \.needsDatabase)
        case .object(let fields): return fields.values.contains(where: \.needsDatabase)
        default: return false
        }
    }
}
