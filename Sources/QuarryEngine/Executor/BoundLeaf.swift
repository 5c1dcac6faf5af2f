import QuarryCore

/// A leaf that compares with `$variables`: once a run's values are known they are bound into
/// the leaf as literals and the leaf is compiled to a typed node like any other, again only
/// when the values change, so no row evaluates the IR for them.
final class BoundLeaf: FilterNode {
    let leaf: Leaf
    let names: [String]
    let compiler: FilterCompiler
    private var bound: (values: [Value], node: FilterNode)?

    init(_ leaf: Leaf, names: [String], compiler: FilterCompiler, mayThrow: Bool) {
        self.leaf = leaf
        self.names = names
        self.compiler = compiler.owned()
        super.init(describing: .leaf(leaf), cost: 10, selectivity: 0.3, mayThrow: mayThrow)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let values = names.map { ctx.run.variables[$0] ?? .null }
        if bound?.values != values { bound = (values, compile(values)) }
        try bound?.node.refine(&b, ctx)
    }

    /// The typed node for these values. A literal is not always the same as a variable holding
    /// it: SQL reads a constant string as a date and fails when it is none, and Parse searches
    /// an array operand's elements unless it is written as a literal. Such values keep the
    /// reference's reading.
    private func compile(_ values: [Value]) -> FilterNode {
        var map: [String: Value] = [:]
        for (name, value) in zip(names, values) {
            switch value {
            case .array, .object, .relation:
                return FallbackNode(.leaf(leaf), mayThrow: mayThrow)
            case .string, .date:
                if leaf.semantics == .sql { return FallbackNode(.leaf(leaf), mayThrow: mayThrow) }
                map[name] = value
            default:
                map[name] = value
            }
        }
        var l = leaf.binding(map)
        if case .compare(.literal(let c), let op, .key(let k), let o) = l.condition {
            // As the normalizer puts literals: on the right, the operator mirrored.
            l.condition = .compare(.key(k), op.swapped, .literal(c), o)
        }
        return compiler.leaf(l)
    }
}

extension Leaf {
    /// The `$variables` its operands compare with (not those a quantifier binds).
    var operandVariables: [String] {
        var names: [String] = []
        func visit(_ e: Expr) {
            switch e {
            case .variable(let n): if !names.contains(n) { names.append(n) }
            case .list(let items): items.forEach(visit)
            default: break
            }
        }
        switch condition {
        case .compare(let a, _, let b, _): visit(a); visit(b)
        case .between(let e, let lo, let hi): visit(e); visit(lo); visit(hi)
        case .inCollection(let e, let c, _): visit(e); visit(c)
        case .string(let e, _, let p, _): visit(e); visit(p)
        case .containsAll(let e, let l), .containedBy(let e, let l): visit(e); visit(l)
        default: break
        }
        return names
    }

    /// The leaf with those variables replaced by literals of their values.
    func binding(_ values: [String: Value]) -> Leaf {
        func bind(_ e: Expr) -> Expr {
            switch e {
            case .variable(let n): return values[n].map(Expr.literal) ?? e
            case .list(let items): return .list(items.map(bind))
            default: return e
            }
        }
        var l = self
        switch condition {
        case .compare(let a, let op, let b, let o): l.condition = .compare(bind(a), op, bind(b), o)
        case .between(let e, let lo, let hi): l.condition = .between(bind(e), lower: bind(lo), upper: bind(hi))
        case .inCollection(let e, let c, let o): l.condition = .inCollection(bind(e), bind(c), o)
        case .string(let e, let op, let p, let o): l.condition = .string(bind(e), op, bind(p), o)
        case .containsAll(let e, let list): l.condition = .containsAll(bind(e), bind(list))
        case .containedBy(let e, let list): l.condition = .containedBy(bind(e), bind(list))
        default: break
        }
        return l
    }
}
