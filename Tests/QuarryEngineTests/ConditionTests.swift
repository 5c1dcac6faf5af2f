import QuarryCore
import Testing

@testable import QuarryEngine

@Suite struct ArrayConditionTests {
    /// Parse's ARR dataset plus an empty array.
    let db = database(
        (
            "MyClass",
            [
                record("a1", ["arrayKey": [1, 2, 3]]), record("a2", ["arrayKey": [2, 3, 4, 5]]),
                record("a3", ["arrayKey": [4, 5]]),
                record("a4", ["arrayKey": [2]]), record("a5"), record("a6", ["arrayKey": []]),
            ]
        ))

    private func list(_ values: Value...) -> Expr { .list(values.map(Expr.literal)) }

    @Test func parseArrayExamples() throws {
        // T28, T29, T30.
        #expect(try ids(db, "MyClass", compare("arrayKey", .eq, 2, .document)) == ["a1", "a2", "a4"])
        #expect(
            try ids(db, "MyClass", .leaf(.inCollection(.literal(2), .key("arrayKey"), []), .predicate)) == [
                "a1", "a2", "a4",
            ])
        #expect(try ids(db, "MyClass", .leaf(.containsAll(.key("arrayKey"), list(2, 3, 4)), .document)) == ["a2"])
        #expect(
            try ids(db, "MyClass", .leaf(.inCollection(.key("arrayKey"), list(1, 5), []), .document)) == [
                "a1", "a2", "a3",
            ])
    }

    @Test func containsAllAndContainedBy() throws {
        // Like MongoDB's $all, an empty list matches nothing.
        #expect(try ids(db, "MyClass", .leaf(.containsAll(.key("arrayKey"), list()), .document)) == [])
        #expect(try ids(db, "MyClass", .leaf(.containsAll(.key("arrayKey"), list(5, 4)), .document)) == ["a2", "a3"])
        // A missing field is not an array: neither test holds, and NOT (document) then holds.
        #expect(
            try ids(db, "MyClass", .leaf(.containedBy(.key("arrayKey"), list(2, 3, 4, 5)), .document)) == [
                "a2", "a3", "a4", "a6",
            ])
        #expect(
            try ids(db, "MyClass", .leaf(.containedBy(.key("arrayKey"), list(2, 3, 4, 5)), negated: true, .document))
                == ["a1", "a5"])
        #expect(
            try ids(db, "MyClass", .leaf(.containedBy(.key("arrayKey"), list(2, 3, 4, 5)), negated: true, .sql)) == [
                "a1"
            ])
    }

    @Test func arraySize() throws {
        #expect(try ids(db, "MyClass", .leaf(.arraySize(.key("arrayKey"), 2), .document)) == ["a3"])
        #expect(try ids(db, "MyClass", .leaf(.arraySize(.key("arrayKey"), 0), .document)) == ["a6"])
        #expect(
            try ids(db, "MyClass", .leaf(.arraySize(.key("arrayKey"), 1), negated: true, .document)) == [
                "a1", "a2", "a3", "a5", "a6",
            ])
    }

    @Test func arrayTestsOnPointersAndRelations() throws {
        let db = database(
            (
                "Book",
                [
                    record("b1", ["authors": .relation(className: "Author", objectIds: ["x", "y"])]),
                    record("b2", ["authors": [pointer("Author", "x")]]),
                ]
            ),
            ("Author", [record("x"), record("y")]))
        let both = Expr.list([.literal(pointer("Author", "x")), .literal(pointer("Author", "y"))])
        #expect(try ids(db, "Book", .leaf(.containsAll(.key("authors"), both), .document)) == ["b1"])
        #expect(try ids(db, "Book", .leaf(.arraySize(.key("authors"), 2), .document)) == ["b1"])
        #expect(try ids(db, "Book", .leaf(.containedBy(.key("authors"), both), .document)) == ["b1", "b2"])
    }

    private func quantified(_ q: Quantifier, _ op: ComparisonOperator, _ v: Value, _ s: LeafSemantics) -> Filter {
        .leaf(
            .quantified(q, .key("arrayKey"), variable: "x", .leaf(.compare(.variable("x"), op, .literal(v), []), s)), s)
    }

    @Test func quantifiers() throws {
        #expect(try ids(db, "MyClass", quantified(.any, .gt, 4, .predicate)) == ["a2", "a3"])
        // ALL and NONE hold vacuously on an empty or missing collection…
        #expect(try ids(db, "MyClass", quantified(.all, .gt, 1, .predicate)) == ["a2", "a3", "a4", "a5", "a6"])
        #expect(try ids(db, "MyClass", quantified(.none, .eq, 2, .predicate)) == ["a3", "a5", "a6"])
        // …but not under SQL, where a collection that reaches nothing makes the leaf false.
        #expect(try ids(db, "MyClass", quantified(.all, .gt, 1, .sql)) == ["a2", "a3", "a4"])
        #expect(
            try ids(
                db, "MyClass",
                .leaf(
                    .quantified(
                        .any, .key("arrayKey"), variable: "x",
                        .leaf(.compare(.variable("x"), .gt, .literal(4), []), .predicate)),
                    negated: true, .predicate)) == ["a1", "a4", "a5", "a6"])
    }

    @Test func aValueThatIsNotACollectionIsOneElement() throws {
        let db = database(("S", [record("one", ["v": 7]), record("none", ["v": nil])]))
        let any7 = Filter.leaf(
            .quantified(
                .any, .key("v"), variable: "x",
                .leaf(.compare(.variable("x"), .eq, .literal(7), []), .predicate)), .predicate)
        #expect(try ids(db, "S", any7) == ["one"])
    }

    @Test func substringInString() throws {
        // NSPredicate `name IN 'Jack Daniels and Joe'`: the name is a substring of the text.
        let db = database(
            ("Contact", [record("c1", ["name": "Jack"]), record("c2", ["name": "joe"]), record("c3", ["name": "Bob"])]))
        let text = Expr.literal("Jack Daniels and Joe")
        #expect(try ids(db, "Contact", .leaf(.inCollection(.key("name"), text, []), .predicate)) == ["c1"])
        #expect(
            try ids(db, "Contact", .leaf(.inCollection(.key("name"), text, .caseInsensitive), .predicate)) == [
                "c1", "c2",
            ])
    }
}

@Suite struct TextSearchTests {
    let db = database(
        (
            "Doc",
            [
                record("d1", ["body": "The quick brown fox"]), record("d2", ["body": "Quick-thinking café owners"]),
                record("d3", ["body": "brown bread and butter"]), record("d4", ["body": "Über Cafe\u{301}"]),
                record("d5", ["body": 42]),
            ]
        ))

    private func search(
        _ terms: String, caseSensitive: Bool = false, diacriticSensitive: Bool = false,
        negated: Bool = false
    ) throws -> [String] {
        try ids(
            db, "Doc",
            .leaf(
                .text(
                    "body",
                    TextSearch(
                        terms: terms, caseSensitive: caseSensitive,
                        diacriticSensitive: diacriticSensitive)), negated: negated, .document))
    }

    @Test func tokens() throws {
        #expect(try search("quick") == ["d1", "d2"])
        #expect(try search("QUICK thinking") == ["d2"])
        #expect(try search("quick", caseSensitive: true) == ["d1"])  // d2 has "Quick"
        #expect(try search("cafe") == ["d2", "d4"])
        #expect(try search("cafe", diacriticSensitive: true) == [])
        #expect(try search("CAFÉ", diacriticSensitive: true) == ["d2"])
        #expect(try search("bro") == [])  // whole tokens, no prefixes
    }

    @Test func phrasesAndExclusions() throws {
        #expect(try search("\"brown fox\"") == ["d1"])
        #expect(try search("\"fox brown\"") == [])
        #expect(try search("brown -bread") == ["d1"])
        #expect(try search("brown -\"bread and\"") == ["d1"])
        #expect(try search("-bread") == [])  // nothing positive to look for
        #expect(try search("") == [])
        #expect(try search("brown", negated: true) == ["d2", "d4", "d5"])
    }

    @Test func tokenizer() {
        #expect(TextMatcher.tokens(of: "Hello, wörld! 42x a_b", []) == ["Hello", "wörld", "42x", "a", "b"])
        #expect(TextMatcher.tokens(of: "Straße", .caseInsensitive) == ["strasse"])
    }
}
