import Quarry
import QuarryPostgres
import QuarryTestSupport
import Testing

/// `$all`, `$containedBy` and `$size` on the PostgreSQL store, pushed down over the `jsonb`
/// arrays (docs/STORAGE.md#postgresql-pushdown): golden ids, each the reference's too, and
/// nothing left residual.
@Suite struct PostgresArrayTests {
    static let records = [
        Record(
            objectId: "a",
            fields: [
                ("tags", .array([.string("x"), .string("y")])), ("nums", .array([.int(1), .double(2.5)])),
                ("i", .int(1)),
            ]),
        Record(
            objectId: "b",
            fields: [("tags", .array([.string("x"), .null])), ("nums", .array([.double(1)])), ("i", .int(2))]),
        Record(objectId: "c", fields: [("tags", .array([])), ("nums", .array([])), ("i", .null)]),
        Record(objectId: "d", fields: [("tags", .null)]),
        Record(objectId: "e", fields: []),
        Record(objectId: "f", fields: [("tags", .array([.string("y"), .string("Y"), .string("y")]))]),
    ]

    static func leaf(_ c: Condition, negated: Bool = false, _ s: LeafSemantics = .document) -> Filter {
        .leaf(Leaf(c, negated: negated, semantics: s))
    }

    static func all(_ key: FieldPath, _ members: [Value]) -> Condition {
        .containsAll(.key(key), .list(members.map { Expr.literal($0) }))
    }

    static func within(_ key: FieldPath, _ members: [Value]) -> Condition {
        .containedBy(.key(key), .list(members.map { Expr.literal($0) }))
    }

    /// The store's ids for each predicate, after checking each is the reference's answer and
    /// is pushed down whole.
    static func ids(_ predicates: [Filter]) async throws -> [[String]] {
        let db = Database([ClassData(name: "Item", records: records)])
        let store = try await PostgresServer.store()
        defer { store.close() }
        try await store.save(db)
        let reference = ReferenceEvaluator(database: db)
        var answers: [[String]] = []
        for predicate in predicates {
            let query = Query(className: "Item", predicate: predicate)
            let answer = try await store.query(query).records.map(\.objectId)
            #expect(answer == (try reference.run(query).records.map(\.objectId)), "\(predicate)")
            #expect(try await store.explain(query, variables: [:]).residual.isEmpty, "\(predicate)")
            answers.append(answer)
        }
        return answers
    }

    @Test func containsAll() async throws {
        let answers = try await Self.ids([
            Self.leaf(Self.all("tags", [.string("x")])),
            Self.leaf(Self.all("tags", [.string("x"), .string("y")])),
            Self.leaf(Self.all("tags", [.string("x"), .null])),
            Self.leaf(Self.all("tags", [])),
            Self.leaf(Self.all("tags", [.string("x")]), negated: true),
            Self.leaf(Self.all("tags", [.string("x")]), negated: true, .sql),
            // Numbers compare as numbers: 1 is 1.0.
            Self.leaf(Self.all("nums", [.int(1)])),
            Self.leaf(Self.all("nums", [.double(2.5), .int(1)])),
            // A member of another type equals no element.
            Self.leaf(Self.all("nums", [.string("1")])),
            // On single values, an AND of equalities.
            Self.leaf(Self.all("i", [.double(1)])),
            Self.leaf(Self.all("i", [.int(1), .int(2)])),
        ])
        #expect(
            answers == [
                ["a", "b"], ["a"], ["b"], [], ["c", "d", "e", "f"], ["c", "f"], ["a", "b"], ["a"], [], ["a"], [],
            ])
    }

    @Test func containedBy() async throws {
        let answers = try await Self.ids([
            Self.leaf(Self.within("tags", [.string("x"), .string("y")])),
            Self.leaf(Self.within("tags", [.string("x"), .null])),
            Self.leaf(Self.within("tags", [.string("y")])),
            Self.leaf(Self.within("tags", [])),
            Self.leaf(Self.within("tags", [.string("y")]), negated: true),
            Self.leaf(Self.within("nums", [.int(1), .double(2.5)])),
        ])
        #expect(answers == [["a", "c"], ["b", "c"], ["c"], ["c"], ["a", "b", "d", "e", "f"], ["a", "b", "c"]])
    }

    @Test func size() async throws {
        let answers = try await Self.ids([
            Self.leaf(.arraySize(.key("tags"), 2)),
            Self.leaf(.arraySize(.key("tags"), 0)),
            Self.leaf(.arraySize(.key("tags"), 3)),
            Self.leaf(.arraySize(.key("tags"), 2), negated: true),
            Self.leaf(.arraySize(.key("tags"), 2), negated: true, .sql),
            Self.leaf(.arraySize(.key("tags"), Int.max)),
            Self.leaf(.arraySize(.key("tags"), -1), negated: true),
        ])
        #expect(
            answers == [
                ["a", "b"], ["c"], ["f"], ["c", "d", "e", "f"], ["c", "f"], [], ["a", "b", "c", "d", "e", "f"],
            ])
    }
}
