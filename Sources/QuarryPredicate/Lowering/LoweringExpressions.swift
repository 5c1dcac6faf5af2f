import QuarryCore

extension Lowering {
    mutating func expr(_ node: ExprNode) throws(Diagnostic) -> Expr {
        switch node.kind {
        case .integer(let n):
            guard n <= UInt64(Int64.max) else {
                throw Diagnostic(.lex.numberOutOfRange, "\(n) does not fit in a 64-bit integer", at: node.range)
            }
            return .literal(.int(Int64(n)))
        case .real(let d): return .literal(.double(d))
        case .string(let s): return .literal(.string(s))
        case .bool(let b): return .literal(.bool(b))
        case .null: return .literal(.null)
        case .percent: return .literal(.string("%"))
        case .selfRef: return .evaluatedObject
        case .identifier(let name): return .key(FieldPath([name]))
        case .variable(let name): return try variable(name, at: node.range)
        case .argument(let spec, let index): return try argument(spec, index, at: node.range)
        case .list(let xs):
            var out: [Expr] = []
            out.reserveCapacity(xs.count)
            for x in xs { out.append(try expr(x)) }
            return .list(out)
        case .parenthesized(let inner): return try expr(inner)
        case .member(let base, let names):
            return appending(try expr(base), names.map(\.text))
        case .memberArgument(let base, let spec, let index, let range):
            return try keyPathExpr(try keyPathArgument(spec, index, at: range), after: try expr(base), at: range)
        case .collectionOperator(let base, let op, let rest):
            guard let aggregate = AggregateOperator(rawValue: "@" + op.text) else {
                throw Diagnostic(
                    .predicate.unknownAggregate,
                    "unknown collection operator '@\(op.text)'; the operators are "
                        + AggregateOperator.allCases.map(\.rawValue).joined(separator: " "),
                    at: op.range)
            }
            let collection = try base.map { (b) throws(Diagnostic) in try expr(b) } ?? .evaluatedObject
            return .aggregate(aggregate, rest.isEmpty ? collection : appending(collection, rest.map(\.text)))
        case .index(let base, let spec):
            let b = try expr(base)
            switch spec {
            case .first: return .index(b, .first)
            case .last: return .index(b, .last)
            case .size: return .index(b, .size)
            case .expr(let e): return .index(b, .at(try expr(e)))
            }
        case .call(let name, let args):
            return try call(name, args, at: node.range)
        case .function(let receiver, let selector, let args):
            return try functionExpression(receiver, selector, args, at: node.range)
        case .subquery(let collection, let variable, let body):
            let c = try expr(collection)
            scope.append(variable.text)
            let p = predicate(body)
            scope.removeLast()
            return .subquery(c, variable: variable.text, p)
        case .cast(let args):
            return try cast(args, at: node.range)
        case .binary(let op, let l, let r):
            return .arithmetic(op.arithmetic, try expr(l), try expr(r))
        case .negate(let operand):
            // `-5` is the literal -5; `-(5)` stays a negation, as written.
            switch operand.kind {
            case .integer(let n) where n <= UInt64(Int64.max) + 1:
                return .literal(.int(n == UInt64(Int64.max) + 1 ? Int64.min : -Int64(n)))
            case .real(let d):
                return .literal(.double(-d))
            default:
                return .negate(try expr(operand))
            }
        case .assignment(let name, _):
            throw Diagnostic(
                .predicate.unsupported,
                "an assignment ($\(name.text) := …) binds a variable as a side effect, which a query cannot do; bind variables by substitution instead",
                at: node.range)
        }
    }

    /// `base` followed by more key names: extends a key path, or reads a member of a value.
    func appending(_ base: Expr, _ names: [String]) -> Expr {
        switch base {
        case .key(let p): return .key(p.appending(FieldPath(names)))
        case .evaluatedObject: return .key(FieldPath(names))
        case .member(let b, let p): return .member(b, p.appending(FieldPath(names)))
        default: return .member(base, FieldPath(names))
        }
    }

    func valueExpr(_ v: Value) -> Expr { expression(for: v) }

    /// A bound value as an expression, within the list-size limit a written `{…}` has.
    func bounded(_ v: Value, at range: SourceRange) throws(Diagnostic) -> Expr {
        if case .array(let items) = v, items.count > limits.maxInListSize {
            throw Diagnostic(
                .limit.inList,
                "the array bound here has \(items.count) elements; the limit is \(limits.maxInListSize)",
                at: range)
        }
        return valueExpr(v)
    }

    // MARK: - Variables and arguments

    private func variable(_ name: String, at range: SourceRange) throws(Diagnostic) -> Expr {
        if scope.contains(name) { return .variable(name) }
        guard let variables else { return .variable(name) }
        guard let v = variables[name] else { throw unbound(name, at: range) }
        return try bounded(v, at: range)
    }

    private func argument(_ spec: ArgumentSpec, _ index: Int, at range: SourceRange) throws(Diagnostic) -> Expr {
        let a = arguments[index]
        func mismatch(_ wanted: String) -> Diagnostic {
            Diagnostic(
                .argument.typeMismatch,
                "\(spec.text) needs \(wanted), but argument \(index + 1) is \(describe(a))",
                at: range)
        }
        switch spec.kind {
        case .object:
            switch a {
            case .value(let v): return try bounded(v, at: range)
            case .keyPath: throw mismatch("a value (use %K for a key path)")
            case .query:
                throw Diagnostic(
                    .argument.queryMisplaced,
                    "a query argument can only be the right side of `key IN %@` (or NOT (key IN %@))",
                    at: range)
            }
        case .keyPath:
            return try keyPathExpr(try keyPathArgument(spec, index, at: range), after: .evaluatedObject, at: range)
        case .integer:
            guard case .value(.int(let i)) = a else { throw mismatch("an integer") }
            return .literal(.int(i))
        case .real:
            switch a {
            case .value(.int(let i)): return .literal(.double(Double(i)))
            case .value(.double(let d)): return .literal(.double(d))
            default: throw mismatch("a number")
            }
        }
    }

    /// The string bound to a `%K`.
    private func keyPathArgument(_ spec: ArgumentSpec, _ index: Int, at range: SourceRange) throws(Diagnostic) -> String
    {
        switch arguments[index] {
        case .keyPath(let s), .value(.string(let s)): return s
        case let a:
            throw Diagnostic(
                .argument.typeMismatch,
                "\(spec.text) needs a key path, but argument \(index + 1) is \(describe(a))", at: range)
        }
    }

    /// The expression a `%K` string stands for after `base` (SELF at the start of a path, or the
    /// path before `.%K`): `a.b`, `items.@sum.price`, `@count`.
    private func keyPathExpr(_ s: String, after base: Expr, at range: SourceRange) throws(Diagnostic) -> Expr {
        let components = s.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !components.contains(where: \.isEmpty) else {
            throw Diagnostic(
                .argument.invalidKeyPath, "'\(s)' is not a key path (it has an empty component)", at: range)
        }
        guard let at = components.firstIndex(where: { $0.hasPrefix("@") }) else {
            return appending(base, components)
        }
        let rest = Array(components[(at + 1)...])
        guard let op = AggregateOperator(rawValue: components[at]), !rest.contains(where: { $0.hasPrefix("@") }) else {
            throw Diagnostic(
                .argument.invalidKeyPath,
                "'\(s)' has an unknown or repeated collection operator", at: range)
        }
        let collection = at == 0 ? base : appending(base, Array(components[..<at]))
        return .aggregate(op, rest.isEmpty ? collection : appending(collection, rest))
    }

    // MARK: - Functions and CAST

    private mutating func call(_ name: Name, _ args: [ExprNode], at range: SourceRange) throws(Diagnostic) -> Expr {
        let lowered = name.text.lowercased()
        let candidates =
            lowered == "randomn"
            ? [Function.randomn] : Function.allCases.filter { $0.callName.lowercased() == lowered }
        guard !candidates.isEmpty else {
            throw Diagnostic(
                .predicate.unknownFunction, "unknown function '\(name.text)'", at: name.range,
                notes: ["the functions are " + Self.functionList])
        }
        guard let f = candidates.first(where: { $0.arity == args.count }) else {
            let arities = candidates.map { String($0.arity) }.joined(separator: " or ")
            throw Diagnostic(
                .predicate.functionArity,
                "\(name.text) takes \(arities) argument\(arities == "1" ? "" : "s") but \(args.count) \(args.count == 1 ? "was" : "were") given",
                at: range)
        }
        var out: [Expr] = []
        for a in args { out.append(try expr(a)) }
        return .function(f, out)
    }

    static let functionList = Function.allCases.map {
        "\($0.callName)(\(String(repeating: "_", count: $0.arity).map(String.init).joined(separator: ", ")))"
    }
    .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    .joined(separator: " ")

    /// `FUNCTION(receiver, 'selector:', args…)` for the built-in selectors. The receiver is the
    /// first argument when one fewer is written; with all of them written it must be SELF.
    private mutating func functionExpression(
        _ receiver: ExprNode, _ selector: ExprNode, _ args: [ExprNode],
        at range: SourceRange
    ) throws(Diagnostic) -> Expr {
        guard let name = constantString(selector) else {
            throw Diagnostic(
                .predicate.functionSelector,
                "FUNCTION needs the selector name as a quoted string, as in 'sqrt:'", at: selector.range)
        }
        guard let f = Function(rawValue: name) else {
            throw Diagnostic(
                .predicate.unknownFunction, "unknown function selector '\(name)'", at: selector.range,
                notes: ["the selectors are " + Function.allCases.map(\.rawValue).joined(separator: " ")])
        }
        var operands: [ExprNode]
        if args.count == f.arity, case .selfRef = receiver.strippingParentheses.kind {
            operands = args
        } else if args.count + 1 == f.arity {
            operands = [receiver] + args
        } else {
            throw Diagnostic(
                .predicate.functionArity,
                "'\(name)' takes \(f.arity) argument\(f.arity == 1 ? "" : "s"); FUNCTION passes the receiver as the first one when one fewer is written, or ignores a SELF receiver",
                at: range)
        }
        var out: [Expr] = []
        for o in operands { out.append(try expr(o)) }
        return .function(f, out)
    }

    private mutating func cast(_ args: [ExprNode], at range: SourceRange) throws(Diagnostic) -> Expr {
        guard args.count == 2 else {
            throw Diagnostic(
                .predicate.functionArity,
                "CAST takes a value and a type name, as in CAST(0, 'NSDate'), but \(args.count) argument\(args.count == 1 ? " was" : "s were") given",
                at: range)
        }
        guard let typeName = constantString(args[1]) else {
            throw Diagnostic(
                .predicate.unknownCastType,
                "CAST needs the type name as a quoted string, such as 'NSDate'", at: args[1].range)
        }
        guard let type = CastType(rawValue: typeName) else {
            throw Diagnostic(
                .predicate.unknownCastType,
                "unknown CAST type '\(typeName)'; the types are NSDate, NSNumber and NSString",
                at: args[1].range)
        }
        // The engine converts; a date string it could never read is reported where it is written.
        if type == .date, let text = constantString(args[0]), ISODate.parse(text) == nil,
            BackendlessDate.parse(text) == nil
        {
            throw Diagnostic(
                .date.unparseable,
                "'\(text)' is not a date; CAST(…, 'NSDate') takes an ISO-8601 date such as '2015-03-23T00:00:00Z' or a number of seconds since 2001-01-01",
                at: args[0].range)
        }
        return .cast(try expr(args[0]), type)
    }

    /// A string written literally or passed as a `%@` argument.
    private func constantString(_ node: ExprNode) -> String? {
        switch node.strippingParentheses.kind {
        case .string(let s): return s
        case .argument(let spec, let index) where spec.kind == .object:
            if case .value(.string(let s)) = arguments[index] { return s }
            return nil
        default: return nil
        }
    }
}
