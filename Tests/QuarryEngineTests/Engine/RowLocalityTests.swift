import Quarry
import Testing

@testable import QuarryEngine

/// Which queries a store may finish on one statement's rows (docs/STORAGE.md#fixed-cost-per-query):
/// those whose residual, order and includes read no other object. Every key path of more than
/// one step, quantifier, inner query and include counts as a read.
@Suite struct RowLocalityTests {
    static func readsOnlyTheRows(_ text: String, _ dialect: Dialect = .predicate, includes: [FieldPath] = []) throws
        -> Bool
    {
        var query = try dialect.compile(text, className: "Person")
        query.includes = includes
        return PushdownEvaluator.finishReadsOnlyTheRows(query, residual: [query.predicate])
    }

    @Test(arguments: [
        "age > 1", "name BEGINSWITH[c] 'j' AND age BETWEEN {1, 9}", "name MATCHES 'J.*'", "age + 1 > 2",
        "FUNCTION(name, 'lowercase:') == 'x'", "tags CONTAINS 'a'", "city == nil", "NOT (score < 2 OR name == $NAME)",
        "SELF == SELF", "TRUEPREDICATE",
    ])
    func rowTestsReadOnlyTheRow(text: String) throws {
        #expect(try Self.readsOnlyTheRows(text))
    }

    @Test(arguments: [
        "city.name == 'Bern'", "ANY tags == 'a'", "tags.@count > 1", "SUBQUERY(tags, $t, $t == 'a').@count > 0",
        "tags[FIRST] == 'a'", "age > 1 AND city.population > 5",
    ])
    func pathsThroughOtherValuesCountAsReads(text: String) throws {
        #expect(try !Self.readsOnlyTheRows(text))
    }

    @Test func innerQueriesIncludesAndOrderThroughPointersCountAsReads() throws {
        #expect(try !Self.readsOnlyTheRows(#"{"city": {"$inQuery": {"where": {}, "className": "City"}}}"#, .json))
        #expect(
            try !Self.readsOnlyTheRows(
                #"{"city": {"$select": {"query": {"className": "City", "where": {}}, "key": "name"}}}"#, .json))
        #expect(try !Self.readsOnlyTheRows("age > 1", includes: ["city"]))
        #expect(
            try Self.readsOnlyTheRows(
                #"{"location": {"$nearSphere": {"__type": "GeoPoint", "latitude": 1, "longitude": 2}}}"#, .json))
        var ordered = try Dialect.predicate.compile("age > 1", className: "Person")
        ordered.order = [.key("name", .ascending)]
        #expect(PushdownEvaluator.finishReadsOnlyTheRows(ordered, residual: []))
        ordered.order = [.key("city.name", .ascending)]
        #expect(!PushdownEvaluator.finishReadsOnlyTheRows(ordered, residual: []))
    }
}
