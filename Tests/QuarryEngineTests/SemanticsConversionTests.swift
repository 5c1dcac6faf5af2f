import QuarryCore
import Testing

@testable import QuarryEngine

/// `SemanticsConversion` keeps results: on data with every shape the leaf semantics disagree
/// on, the reference evaluator selects the same objects before and after, or the conversion is a
/// `translate.inexpressible` diagnostic.
@Suite struct SemanticsConversionTests {
    static let pairs: [(LeafSemantics, LeafSemantics)] = LeafSemantics.allCases.flatMap { s in
        LeafSemantics.allCases.filter { $0 != s }.map { (s, $0) }
    }

    /// Leaves of every kind, plain, negated and under NOT, without a schema: the conversion
    /// assumes nothing about the fields, so it must be exact on the mixed data.
    @Test(arguments: pairs)
    func everyLeafWithoutSchema(_ source: LeafSemantics, _ target: LeafSemantics) throws {
        let conditions = conversionConditions(
            keys: ["a", "name", "tags", "born", "ref.x", "refs.x", "refs", "geo", "objectId"],
            constants: [5, 5.5, "bob", "2015-03-23", .date(5), true, nil])
        var outcomes: [ConversionOutcome: Int] = [:]
        for c in conditions {
            for negated in [false, true] {
                let leaf = Predicate.leaf(c, negated: negated, source)
                for p in [leaf, .not(leaf)] {
                    let outcome = try checkConversion(p, to: target, db: ConversionData.mixed, schema: nil)
                    outcomes[outcome, default: 0] += 1
                }
            }
        }
        // Each pair restates a good share of the leaves exactly even knowing nothing.
        #expect(outcomes[.converted, default: 0] >= Self.minimumWithoutSchema[target]!, "\(outcomes)")
    }

    /// With the data as schema, single-valued and single-typed fields translate far more often.
    @Test(arguments: pairs)
    func everyLeafWithSchema(_ source: LeafSemantics, _ target: LeafSemantics) throws {
        let db = ConversionData.typed
        let conditions = conversionConditions(
            keys: ["name", "age", "tags", "born", "ref", "ref.x", "refs.x", "refs", "geo"],
            constants: [5, 5.5, "bob", "2015-03-23", .date(5), nil])
        var outcomes: [ConversionOutcome: Int] = [:]
        for c in conditions {
            for negated in [false, true] {
                let leaf = Predicate.leaf(c, negated: negated, source)
                for p in [leaf, .not(leaf)] {
                    let outcome = try checkConversion(p, to: target, db: db, schema: db)
                    outcomes[outcome, default: 0] += 1
                }
            }
        }
        #expect(outcomes[.converted, default: 0] >= Self.minimumWithSchema[target]!, "\(outcomes)")
    }

    /// Conversions each target reaches from either source (of about 5900 leaves), a little
    /// below what the rules reach today, so a rule that stops applying shows up.
    static let minimumWithoutSchema: [LeafSemantics: Int] = [.predicate: 4700, .document: 2000, .sql: 600]
    static let minimumWithSchema: [LeafSemantics: Int] = [.predicate: 5100, .document: 2400, .sql: 2300]
}
