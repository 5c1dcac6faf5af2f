import QuarryCore

@testable import QuarryEngine

// Small builders so that test tables read like the queries they check.

func record(_ id: String, _ fields: KeyValuePairs<String, Value> = [:]) -> Record {
    Record(objectId: id, fields: fields.map { ($0.key, $0.value) })
}

func database(_ classes: (String, [Record])...) -> Database {
    Database(classes.map { ClassData(name: $0.0, records: $0.1) })
}

func pointer(_ className: String, _ id: String) -> Value { .pointer(Pointer(className: className, objectId: id)) }

func key(_ path: FieldPath) -> Expr { .key(path) }
func lit(_ v: Value) -> Expr { .literal(v) }

func compare(
    _ path: FieldPath, _ op: ComparisonOperator, _ v: Value, _ semantics: LeafSemantics,
    negated: Bool = false, _ options: StringOptions = []
) -> Filter {
    .leaf(.compare(.key(path), op, .literal(v), options), negated: negated, semantics)
}

/// The objectIds a query returns, in order.
func ids(
    _ db: Database, _ query: Query, variables: [String: Value] = [:], limits: Limits = .default,
    now: Int64 = 0
) throws -> [String] {
    try ReferenceEvaluator(database: db, limits: limits, variables: variables, now: { now }).run(query).objectIds
}

func ids(
    _ db: Database, _ className: String, _ predicate: Filter, variables: [String: Value] = [:],
    limits: Limits = .default, now: Int64 = 0
) throws -> [String] {
    try ids(db, Query(className: className, predicate: predicate), variables: variables, limits: limits, now: now)
}

/// The diagnostic code a throwing call fails with, or nil if it does not fail.
func errorCode(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let d as Diagnostic {
        return d.code
    } catch {
        return "not a Diagnostic: \(error)"
    }
}

enum Datasets {
    /// One class covering null, missing, arrays and mixed types for the leaf-semantics tables.
    static let semantics = database(
        (
            "T",
            [
                record("n1", ["name": "foo", "tags": ["a", "b"], "age": 30]),
                record("n2", ["name": "bar", "tags": ["b"], "age": 20]),
                record("n3", ["name": nil, "tags": [], "age": 30.0]),
                record("n4", [:]),
                record("n5", ["name": "Foo", "tags": ["a", nil], "age": "30"]),
            ]
        ))
}
