import QuarryCore
import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// The reference fallback evaluates rows on records built with only the fields a predicate
/// reads: which fields those are, and that SELF still sees the whole object.
@Suite struct FieldsReadTests {
    @Test func keysQuantifiersAndConditionsNameTheirFirstStep() {
        let p: Filter = .and([
            compare("a.b", .eq, 1, .sql),
            .leaf(
                .quantified(
                    .any, .key("tags"), variable: "t", .leaf(.compare(.variable("t"), .eq, .key("c"), []), .predicate)),
                .predicate),
            .leaf(
                .geo(
                    .withinBox(
                        "g", southwest: GeoPoint(latitude: 0, longitude: 0),
                        northeast: GeoPoint(latitude: 1, longitude: 1))), .sql),
            .leaf(.text("body", TextSearch(terms: "x")), .document),
            .leaf(.compare(.function(.lowercase, [.key("name")]), .eq, .literal("x"), []), .predicate),
            .leaf(.relatedTo(Pointer(className: "P", objectId: "p1"), key: "items"), .document),
        ])
        #expect(FieldsRead.of(p) == ["a", "tags", "c", "g", "body", "name"])
        #expect(FieldsRead.of(.leaf(.compare(.member(.evaluatedObject, "a"), .eq, .literal(1), []), .predicate)) == nil)
        #expect(
            FieldsRead.of(
                .not(
                    .leaf(
                        .isNull(
                            .subquery(
                                .key("xs"), variable: "x",
                                .leaf(.compare(.evaluatedObject, .eq, .literal(.null), []), .predicate))), .predicate)))
                == nil)
    }

    /// SELF and its members, through whatever path the engine takes, answer as the reference.
    @Test(arguments: [31, 32] as [UInt64])
    func selfSeesTheWholeObject(seed: UInt64) throws {
        var random = RandomData(seed: seed)
        let db = random.database(items: 70, others: 6)
        let engine = Engine(database: db)
        let reference = ReferenceEvaluator(database: db)
        let queries: [Filter] = [
            .leaf(.compare(.member(.evaluatedObject, "s"), .eq, .literal("a"), []), .predicate),
            .leaf(.compare(.evaluatedObject, .eq, .literal(pointer("Item", "i3")), []), .predicate),
            .leaf(
                .inCollection(
                    .evaluatedObject, .list([.literal(pointer("Item", "i4")), .literal(pointer("Item", "i9"))]), []),
                .predicate),
            .leaf(
                .compare(
                    .aggregate(
                        .count,
                        .subquery(
                            .key("tags"), variable: "t",
                            .leaf(.compare(.member(.evaluatedObject, "s"), .eq, .variable("t"), []), .predicate))), .gt,
                    .literal(0), []), .predicate),
        ]
        for p in queries {
            let q = Query(className: "Item", predicate: p)
            #expect(try engine.run(q) == reference.run(q), "\(PredicateText.render(p))")
        }
    }
}
