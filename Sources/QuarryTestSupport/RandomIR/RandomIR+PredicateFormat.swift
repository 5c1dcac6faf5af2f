import QuarryCore
import QuarryPredicate

/// The NSPredicate subset: what `PredicateFormat.parse(print(ir)) == ir` must hold for.
///
/// It mirrors the lowering's choices: quantifier variables are named `#depth`; `a.b` is one
/// key path, never a member of a key; literal operands never take string options; string
/// operators never see number, boolean, null or collection literals; `x IN SELF` is only ever
/// key existence; BETWEEN bounds may come from an unbound `$variable`.
extension RandomIR {
    /// Values without a literal spelling and inner queries, printed as `%@` arguments.
    private var withArguments: Bool {
        if case .predicateFormat(withArguments: true) = subset { return true }
        return false
    }

    // MARK: - Leaves

    mutating func predicateFormatLeaf(depth: Int) -> Filter {
        let d = max(0, depth - 1)
        switch int(0...9) {
        case 0, 1, 2:
            let l = expr(depth: d), r = expr(depth: d)
            let opts = takesOptions(l) && takesOptions(r) ? options() : []
            return .leaf(.compare(l, pick(ComparisonOperator.allCases), r, opts), .predicate)
        case 3:
            return .leaf(.between(expr(depth: d), lower: bound(d), upper: bound(d)), .predicate)
        case 4:
            return .leaf(betweenVariable(expr(depth: d)), .predicate)
        case 5:
            let v = expr(depth: d), coll = collection(depth: d)
            let opts = takesOptions(v) && takesOptions(coll) ? options() : []
            return .leaf(.inCollection(v, coll, opts), .predicate)
        case 6:
            return .leaf(stringTest(lhs: stringOperand(depth: d), depth: d, allowContains: true), .predicate)
        case 7:
            return .leaf(.isNull(.key(keyPath())), negated: true, .predicate)
        case 8 where withArguments:
            return .leaf(
                .inQuery(keyPath(), Query(className: pick(["Post", "Team"]), predicate: filter(depth: 1))), .predicate)
        default:
            return quantified(depth: d)
        }
    }

    private mutating func quantified(depth: Int) -> Filter {
        var coll = expr(depth: depth)
        if let k = staticKind(coll), k.isScalar { coll = .key(keyPath()) }
        let name = "#\(quantifierDepth)"
        quantifierDepth += 1
        defer { quantifierDepth -= 1 }
        let element = Expr.variable(name)
        let body: Condition
        switch int(0...4) {
        case 0:
            let r = expr(depth: depth)
            body = .compare(element, pick(ComparisonOperator.allCases), r, takesOptions(r) ? options() : [])
        case 1:
            body = .between(element, lower: bound(depth), upper: bound(depth))
        case 2:
            let c = collection(depth: depth)
            body = .inCollection(element, c, takesOptions(c) ? options() : [])
        case 3:
            let x = expr(depth: depth)
            body = .inCollection(x, element, takesOptions(x) ? options() : [])
        default:
            body = stringTest(lhs: element, depth: depth, allowContains: false)
        }
        return .leaf(.quantified(pick([.any, .all, .none]), coll, variable: name, .leaf(body, .predicate)), .predicate)
    }

    private mutating func stringTest(lhs: Expr, depth: Int, allowContains: Bool) -> Condition {
        let isStringLiteral: Bool
        if case .literal(.string) = lhs { isStringLiteral = true } else { isStringLiteral = false }
        var ops: [StringOperator] = [.beginsWith, .endsWith, .like(.glob), .matches(RegexOptions(wholeString: true))]
        // CONTAINS reads as membership unless a string literal is on the left.
        if allowContains && isStringLiteral { ops.append(.contains) }
        return .string(lhs, pick(ops), stringOperand(depth: depth), options())
    }

    /// Anything a string operator accepts: not a number, boolean, null or collection literal.
    private mutating func stringOperand(depth: Int) -> Expr {
        let e = expr(depth: depth)
        if let k = staticKind(e), k != .string { return .literal(.string(predicateString())) }
        return e
    }

    /// The right side of IN: not a number, boolean or null literal, and never SELF.
    private mutating func collection(depth: Int) -> Expr {
        let e = expr(depth: depth)
        if case .evaluatedObject = e { return .key(keyPath()) }
        if let k = staticKind(e), k.isScalar, k != .string { return .list([e]) }
        return e
    }

    private mutating func bound(_ depth: Int) -> Expr { expr(depth: depth) }

    private mutating func betweenVariable(_ e: Expr) -> Condition {
        let v = pick(["r", "range", "size"])
        return .between(
            e, lower: .index(.variable(v), .at(.literal(.int(0)))),
            upper: .index(.variable(v), .at(.literal(.int(1)))))
    }

    private mutating func options() -> StringOptions {
        StringOptions(rawValue: UInt8(int(0...3)))
    }

    /// String options are refused next to a literal that is not a string or a collection.
    private func takesOptions(_ e: Expr) -> Bool {
        guard let k = staticKind(e) else { return true }
        return k == .string || k == .list
    }

    /// What the lowering can tell about an operand, on the IR side.
    private func staticKind(_ e: Expr) -> StaticKind? {
        switch e {
        case .literal(let v):
            if case .date = v { return withArguments ? .date : nil }
            return StaticKind(v)
        case .list: return .list
        default: return nil
        }
    }

    // MARK: - Expressions

    private mutating func expr(depth: Int) -> Expr {
        guard depth > 0 else { return atom() }
        let d = depth - 1
        switch int(0...19) {
        case 0...5: return atom()
        case 6: return .list((0..<int(0...3)).map { _ in expr(depth: d) })
        case 7: return .arithmetic(pick([.add, .subtract, .multiply, .divide, .power]), expr(depth: d), expr(depth: d))
        case 8: return .negate(expr(depth: d))
        case 9:
            let f = pick(Function.allCases)
            return .function(f, (0..<f.arity).map { _ in expr(depth: d) })
        case 10: return .aggregate(pick(AggregateOperator.allCases), aggregateTarget(depth: d))
        case 11: return .index(expr(depth: d), pick([.first, .last, .size, .at(expr(depth: d))]))
        case 12:
            let v = pick(["x", "item", "e"])
            let c = expr(depth: d)
            scope.append(v)
            defer { scope.removeLast() }
            return .subquery(c, variable: v, filter(depth: min(d, 2)))
        case 13:
            let type: CastType = pick([.date, .number, .string])
            var e = expr(depth: d)
            // A string literal cast to a date must read as one.
            if type == .date, case .literal(.string) = e { e = .literal(.string("2015-03-23T00:00:00.250Z")) }
            return .cast(e, type)
        case 14: return .member(memberBase(depth: d), keyPath(identifiersOnly: true))
        default: return atom()
        }
    }

    private mutating func aggregateTarget(depth: Int) -> Expr {
        switch int(0...3) {
        case 0: return .key(keyPath())
        case 1: return .evaluatedObject
        default: return expr(depth: depth)
        }
    }

    /// A value with a member: anything the parser does not fold into a key path.
    private mutating func memberBase(depth: Int) -> Expr {
        let e = expr(depth: depth)
        switch e {
        case .key, .evaluatedObject, .member: return .variable(pick(scope.isEmpty ? ["obj"] : scope))
        default: return e
        }
    }

    private mutating func atom() -> Expr {
        switch int(0...12) {
        case 0, 1, 2, 3: return .key(keyPath())
        case 4: return .literal(.int(Int64.random(in: -1000...1000, using: &rng)))
        case 5: return .literal(.int(pick([Int64.min, Int64.max, 0, -1])))
        case 6:
            return .literal(
                .double(pick([0.5, -2.25, 1e-7, 6.02e23, -0.0, 3.0, Double.random(in: -1e6...1e6, using: &rng)])))
        case 7: return .literal(.string(predicateString()))
        case 8: return .literal(pick([.bool(true), .bool(false), .null]))
        case 9: return .evaluatedObject
        case 10: return .variable(pick(scope + ["min", "max", "size", "café"]))
        case 11 where withArguments:
            return .literal(
                pick([
                    .date(Int64.random(in: 0...2_000_000_000_000, using: &rng)),
                    .pointer(Pointer(className: "Post", objectId: "p\(int(0...9))")),
                    .object(["k": .int(1)]), .geoPoint(GeoPoint(latitude: 1, longitude: 2)),
                ]))
        default: return .key(keyPath())
        }
    }

    /// Names that are not identifiers can only be written as a whole key path, with `%K`.
    private mutating func keyPath(identifiersOnly: Bool = false) -> FieldPath {
        var pool = ["name", "age", "tags", "address", "city", "size", "first", "café", "名前", "x_1", "uti"]
        if withArguments && !identifiersOnly { pool += ["first name", "a-b"] }
        return FieldPath((0..<int(1...3)).map { _ in pick(pool) })
    }

    private mutating func predicateString() -> String {
        let pieces = [
            "a", "Big Daddy's", "\"q\"", "\\", "%@", "$x", "é", "e\u{301}", "😀", "\n", "\t", "\u{0}", "\u{7F}", "*?",
            " ",
        ]
        return (0..<int(0...4)).map { _ in pick(pieces) }.joined()
    }
}
