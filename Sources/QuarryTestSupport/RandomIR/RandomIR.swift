import QuarryCore

/// Seeded random IR for property tests, in the subset its consumer can hold: what a front-end's
/// `parse(print(ir))` must give back, or leaves of every semantics for the converters. One
/// generator draws the AND/OR/NOT/constant nodes for every subset; each subset draws its leaves.
///
/// ```swift
/// var generator = RandomIR(seed: 7, subset: .sqlWhere(typed: false))
/// let filter = generator.filter()
/// ```
public struct RandomIR {
    public enum Subset: Sendable {
        /// What `PredicateFormat.parse(print(ir))` gives back. With arguments also values only
        /// `%@` carries (dates, pointers, objects), inner queries and keys only `%K` spells.
        case predicateFormat(withArguments: Bool)
        /// What `SQLWhere.parse(print(ir))` gives back, in the parser's canonical shape (no NOT,
        /// AND/OR with two or more operands). Typed: every literal has its column's type in
        /// `RandomIR.sqlSchema`; untyped: names that stress quoting.
        case sqlWhere(typed: Bool)
        /// Leaves of every kind on `keys` of class `T` comparing with `constants`, each in a
        /// semantics drawn from `semantics`; inner queries and pointers go to class `U` (field
        /// `x`), relations to `T.refs`: the semantics-conversion tests' data.
        case anySemantics(keys: [FieldPath], constants: [Value], semantics: [LeafSemantics])
        /// Leaves that test one of `conditions` (a table's rows), each in a semantics drawn from
        /// `semantics`, negated or not.
        case conditions([Condition], semantics: [LeafSemantics])
    }

    public var rng: SplitMix64
    public let subset: Subset
    /// The NSPredicate subset's quantifier variables are named `#depth`.
    var quantifierDepth = 0
    /// Subquery variables in scope (NSPredicate subset).
    var scope: [String] = []

    public init(seed: UInt64, subset: Subset) {
        rng = SplitMix64(seed: seed)
        self.subset = subset
    }

    /// A filter as deep as the subset's consumer tests it.
    public mutating func filter() -> Filter {
        switch subset {
        case .predicateFormat: return filter(depth: 3)
        case .sqlWhere: return filter(depth: 3)
        case .anySemantics: return filter(depth: 2)
        case .conditions: return filter(depth: 3)
        }
    }

    /// A filter with at most `depth` levels of AND/OR/NOT above its leaves.
    public mutating func filter(depth: Int) -> Filter {
        guard depth > 0 else { return leaf(depth: 0) }
        let shape = subset.shape
        var roll = int(0...shape.total - 1)
        func drawn(_ weight: Int) -> Bool {
            defer { roll -= weight }
            return roll < weight
        }
        if drawn(shape.and) { return .and(children(depth - 1, shape)) }
        if drawn(shape.or) { return .or(children(depth - 1, shape)) }
        if drawn(shape.not) { return .not(filter(depth: depth - 1)) }
        if drawn(shape.constant) { return .constant(chance(0.5)) }
        return leaf(depth: depth)
    }

    private mutating func children(_ depth: Int, _ shape: Shape) -> [Filter] {
        (0..<int(shape.children)).map { _ in filter(depth: depth) }
    }

    private mutating func leaf(depth: Int) -> Filter {
        switch subset {
        case .predicateFormat: return predicateFormatLeaf(depth: depth)
        case .sqlWhere(let typed):
            return .leaf(
                Leaf(
                    typed ? sqlTypedCondition(depth: depth) : sqlUntypedCondition(depth: depth),
                    negated: chance(0.3), semantics: .sql))
        case .anySemantics(let keys, let constants, let semantics):
            return anySemanticsLeaf(keys: keys, constants: constants, semantics: semantics)
        case .conditions(let conditions, let semantics):
            return .leaf(pick(conditions), negated: chance(0.5), pick(semantics))
        }
    }

    // MARK: - Draws

    mutating func int(_ range: ClosedRange<Int>) -> Int { rng.int(range) }
    mutating func chance(_ p: Double) -> Bool { rng.chance(p) }
    mutating func pick<T>(_ items: [T]) -> T { rng.pick(items) }
}

/// The odds of each compound node (out of `total`, the rest a leaf) and how many operands an
/// AND or OR has.
struct Shape {
    var and: Int, or: Int, not: Int, constant: Int, total: Int
    var children: ClosedRange<Int>
}

extension RandomIR.Subset {
    var shape: Shape {
        switch self {
        case .predicateFormat: return Shape(and: 2, or: 2, not: 1, constant: 1, total: 10, children: 2...4)
        // The parser folds NOT into the leaves, so the canonical IR has none.
        case .sqlWhere: return Shape(and: 22, or: 22, not: 0, constant: 3, total: 100, children: 2...4)
        case .anySemantics: return Shape(and: 1, or: 1, not: 1, constant: 0, total: 5, children: 2...2)
        case .conditions: return Shape(and: 1, or: 1, not: 1, constant: 0, total: 6, children: 2...3)
        }
    }
}
