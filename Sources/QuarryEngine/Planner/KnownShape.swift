import QuarryCore

/// A query's plan shape and literals, had without walking the query (`PlanShape.of`): kept by
/// a prepared query for its runs, or put together by a text template from the values of its
/// parameters (docs/ARCHITECTURE.md#text-templates).
package struct KnownShape: Sendable {
    let shape: PlanShape
    let literals: [Value]

    /// The shape of a query that may share plans; nil for one that may not.
    init?(_ query: Query) {
        guard let (shape, literals) = PlanShape.of(query) else { return nil }
        self.init(shape: shape, literals: literals)
    }

    fileprivate init(shape: PlanShape, literals: [Value]) {
        self.shape = shape
        self.literals = literals
    }

    /// Whether this is `PlanShape.of(query)`: what debug builds check wherever one is used.
    func describes(_ query: Query) -> Bool {
        guard let (shape, literals) = PlanShape.of(query) else { return false }
        return shape == self.shape && PlanShape.sameLiterals(literals, self.literals)
    }
}

/// Where a text template's parameters land among the plan-shape literals of its queries
/// (docs/ARCHITECTURE.md#text-templates). Every text of the template has the template's plan
/// shape (its parameters are literals the shape takes out), so a text's shape is the template's
/// with the text's values put in at their places, found without walking its query.
package struct TemplateShape: Sendable {
    private let base: KnownShape
    /// For each parameter: its index among the template's values, and among the shape's literals.
    private let places: [(value: Int, literal: Int)]

    /// Found from two texts of the template whose parameters all differ: the template's own
    /// (`base`) and another (`variant`), each with its parameters' values (indexed as the
    /// template's values; nil where a literal is not a parameter). Nil unless both have one
    /// shape, and the literals that differ between them are exactly the parameters, each at one
    /// place or more (a `$nearSphere` center is also the order's).
    package init?(base: Query, _ baseValues: [Value?], variant: Query, _ variantValues: [Value?]) {
        guard let known = KnownShape(base), let other = PlanShape.of(variant), other.0 == known.shape,
            other.1.count == known.literals.count, baseValues.count == variantValues.count
        else { return nil }
        let differing = known.literals.indices.filter { !PlanShape.sameLiteral(known.literals[$0], other.1[$0]) }
        var places: [(value: Int, literal: Int)] = []
        for (i, value) in variantValues.enumerated() {
            guard let value else { continue }
            let at = differing.filter { PlanShape.sameLiteral(other.1[$0], value) }
            guard !at.isEmpty, let own = baseValues[i],
                at.allSatisfy({ PlanShape.sameLiteral(known.literals[$0], own) })
            else { return nil }
            places += at.map { (i, $0) }
        }
        guard places.count == differing.count, Set(places.map(\.literal)).count == places.count else { return nil }
        self.base = known
        self.places = places
    }

    /// The shape of a text of the template, from its values (indexed as the template's, each
    /// parameter's at its place).
    package func shape(_ values: [Value]) -> KnownShape? {
        var literals = base.literals
        for (i, j) in places {
            guard i < values.count else { return nil }
            literals[j] = values[i]
        }
        return KnownShape(shape: base.shape, literals: literals)
    }
}
