import QuarryCore
import Testing

@testable import QuarryEngine

/// One condition under the three leaf semantics, over `Datasets.semantics`:
/// n1 {name foo, tags [a b], age 30}, n2 {bar, [b], 20}, n3 {name null, tags [], age 30.0},
/// n4 {} (everything missing), n5 {Foo, [a null], age "30"}.
struct SemanticsCase: Sendable, CustomTestStringConvertible {
    let label: String
    let condition: Condition
    let negated: Bool
    let sql: [String]
    let predicate: [String]
    let document: [String]

    init(
        _ label: String, _ condition: Condition, negated: Bool = false,
        sql: [String], predicate: [String], document: [String]
    ) {
        self.label = label
        self.condition = condition
        self.negated = negated
        self.sql = sql
        self.predicate = predicate
        self.document = document
    }

    var testDescription: String { label }

    func expected(_ s: LeafSemantics) -> [String] {
        switch s {
        case .sql: return sql
        case .predicate: return predicate
        case .document: return document
        }
    }
}

private func cmp(_ k: FieldPath, _ op: ComparisonOperator, _ v: Value, _ o: StringOptions = []) -> Condition {
    .compare(.key(k), op, .literal(v), o)
}

let semanticsCases: [SemanticsCase] = [
    SemanticsCase(
        "name == 'foo'", cmp("name", .eq, "foo"),
        sql: ["n1"], predicate: ["n1"], document: ["n1"]),
    // SQL: null and missing never pass, not even `!=`. NSPredicate/Mongo: nil is a value.
    SemanticsCase(
        "name != 'foo'", cmp("name", .ne, "foo"),
        sql: ["n2", "n5"], predicate: ["n2", "n3", "n4", "n5"], document: ["n2", "n3", "n4", "n5"]),
    SemanticsCase(
        "NOT name == 'foo'", cmp("name", .eq, "foo"), negated: true,
        sql: ["n2", "n5"], predicate: ["n2", "n3", "n4", "n5"], document: ["n2", "n3", "n4", "n5"]),
    SemanticsCase(
        "name ==[c] 'FOO'", cmp("name", .eq, "FOO", .caseInsensitive),
        sql: ["n1", "n5"], predicate: ["n1", "n5"], document: ["n1", "n5"]),
    SemanticsCase(
        "name == nil", cmp("name", .eq, nil),
        sql: [], predicate: ["n3", "n4"], document: ["n3", "n4"]),
    SemanticsCase(
        "name != nil", cmp("name", .ne, nil),
        sql: [], predicate: ["n1", "n2", "n5"], document: ["n1", "n2", "n5"]),
    // Arrays: SQL and Mongo look at the elements; NSPredicate compares the whole array.
    SemanticsCase(
        "tags == 'a'", cmp("tags", .eq, "a"),
        sql: ["n1", "n5"], predicate: [], document: ["n1", "n5"]),
    SemanticsCase(
        "tags != 'a'", cmp("tags", .ne, "a"),
        sql: ["n1", "n2"], predicate: ["n1", "n2", "n3", "n4", "n5"], document: ["n2", "n3", "n4"]),
    SemanticsCase(
        "tags == ['a','b']", cmp("tags", .eq, ["a", "b"]),
        sql: ["n1", "n2", "n5"], predicate: ["n1"], document: ["n1"]),
    SemanticsCase(
        "tags == nil (Mongo: an array holding null counts)", cmp("tags", .eq, nil),
        sql: [], predicate: ["n4"], document: ["n4", "n5"]),
    // Numbers by value across int and double; a string "30" is not a number.
    SemanticsCase(
        "age == 30", cmp("age", .eq, 30),
        sql: ["n1", "n3"], predicate: ["n1", "n3"], document: ["n1", "n3"]),
    SemanticsCase(
        "age > 25", cmp("age", .gt, 25),
        sql: ["n1", "n3"], predicate: ["n1", "n3"], document: ["n1", "n3"]),
    SemanticsCase(
        "NOT age > 25", cmp("age", .gt, 25), negated: true,
        sql: ["n2"], predicate: ["n2", "n4", "n5"], document: ["n2", "n4", "n5"]),
    SemanticsCase(
        "age < 'z' (different types never order)", cmp("age", .lt, "z"),
        sql: ["n5"], predicate: ["n5"], document: ["n5"]),
    SemanticsCase(
        "isNull(name)", .isNull(.key("name")),
        sql: ["n3", "n4"], predicate: ["n3", "n4"], document: ["n3", "n4"]),
    SemanticsCase(
        "NOT isNull(name)", .isNull(.key("name")), negated: true,
        sql: ["n1", "n2", "n5"], predicate: ["n1", "n2", "n5"], document: ["n1", "n2", "n5"]),
    // SQL: an empty to-many reaches no value, so it is null.
    SemanticsCase(
        "isNull(tags)", .isNull(.key("tags")),
        sql: ["n3", "n4"], predicate: ["n4"], document: ["n4"]),
    SemanticsCase(
        "name BEGINSWITH[c] 'f'", .string(.key("name"), .beginsWith, .literal("f"), .caseInsensitive),
        sql: ["n1", "n5"], predicate: ["n1", "n5"], document: ["n1", "n5"]),
    SemanticsCase(
        "NOT name BEGINSWITH[c] 'f'", .string(.key("name"), .beginsWith, .literal("f"), .caseInsensitive),
        negated: true, sql: ["n2"], predicate: ["n2", "n3", "n4"], document: ["n2", "n3", "n4"]),
    SemanticsCase(
        "tags CONTAINS 'a' (string test on elements)", .string(.key("tags"), .contains, .literal("a"), []),
        sql: ["n1", "n5"], predicate: [], document: ["n1", "n5"]),
    SemanticsCase(
        "age LIKE '3%' (not a string)", .string(.key("age"), .like(.sql(escape: nil)), .literal("3%"), []),
        sql: ["n5"], predicate: ["n5"], document: ["n5"]),
    SemanticsCase(
        "name IN {foo, baz}", .inCollection(.key("name"), .list([.literal("foo"), .literal("baz")]), []),
        sql: ["n1"], predicate: ["n1"], document: ["n1"]),
    SemanticsCase(
        "NOT name IN {foo, baz}", .inCollection(.key("name"), .list([.literal("foo"), .literal("baz")]), []),
        negated: true, sql: ["n2", "n5"], predicate: ["n2", "n3", "n4", "n5"], document: ["n2", "n3", "n4", "n5"]),
    SemanticsCase(
        "name IN {nil, bar}", .inCollection(.key("name"), .list([.literal(nil), .literal("bar")]), []),
        sql: ["n2"], predicate: ["n2", "n3", "n4"], document: ["n2", "n3", "n4"]),
    SemanticsCase(
        "tags IN {a}", .inCollection(.key("tags"), .list([.literal("a")]), []),
        sql: ["n1", "n5"], predicate: [], document: ["n1", "n5"]),
    SemanticsCase(
        "name IN {} is false", .inCollection(.key("name"), .list([]), []),
        sql: [], predicate: [], document: []),
    SemanticsCase(
        "'a' IN tags (collection on the right)", .inCollection(.literal("a"), .key("tags"), []),
        sql: ["n1", "n5"], predicate: ["n1", "n5"], document: ["n1", "n5"]),
    SemanticsCase(
        "age BETWEEN 25 AND 30", .between(.key("age"), lower: .literal(25), upper: .literal(30)),
        sql: ["n1", "n3"], predicate: ["n1", "n3"], document: ["n1", "n3"]),
    SemanticsCase(
        "NOT age BETWEEN 25 AND 30", .between(.key("age"), lower: .literal(25), upper: .literal(30)),
        negated: true, sql: ["n2"], predicate: ["n2", "n4", "n5"], document: ["n2", "n4", "n5"]),
    SemanticsCase(
        "age BETWEEN 25 AND nil", .between(.key("age"), lower: .literal(25), upper: .literal(nil)),
        sql: [], predicate: [], document: []),
]

@Suite struct LeafSemanticsTests {
    @Test(arguments: semanticsCases, LeafSemantics.allCases)
    func condition(_ c: SemanticsCase, _ semantics: LeafSemantics) throws {
        let p = Filter.leaf(c.condition, negated: c.negated, semantics)
        #expect(try ids(Datasets.semantics, "T", p) == c.expected(semantics))
    }

    /// For the two-valued semantics a negated leaf is exactly logical NOT; for SQL it is not.
    @Test(arguments: semanticsCases, [LeafSemantics.predicate, .document])
    func negationIsLogicalNot(_ c: SemanticsCase, _ semantics: LeafSemantics) throws {
        let negated = Filter.leaf(c.condition, negated: !c.negated, semantics)
        let not = Filter.not(.leaf(c.condition, negated: c.negated, semantics))
        #expect(try ids(Datasets.semantics, "T", negated) == ids(Datasets.semantics, "T", not))
    }

    @Test func sqlNegationNeverMatchesNull() throws {
        for c in semanticsCases {
            let both =
                try ids(Datasets.semantics, "T", .leaf(c.condition, negated: false, .sql))
                + ids(Datasets.semantics, "T", .leaf(c.condition, negated: true, .sql))
            if case .isNull = c.condition { continue }
            #expect(!both.contains("n4"), "\(c.label): a row with every field missing never matches in SQL")
        }
    }
}
