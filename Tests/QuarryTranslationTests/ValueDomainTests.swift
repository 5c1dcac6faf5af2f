import Testing
@testable import QuarryTranslation
import QuarryCore

/// What a key path may reach, read from a schema: the facts the semantics conversion relies on.
@Suite struct ValueDomainTests {
    static let db: Database = {
        func rec(_ id: String, _ fields: [(String, Value)]) -> Record { Record(objectId: id, fields: fields) }
        let p = { (c: String, id: String) in Value.pointer(Pointer(className: c, objectId: id)) }
        return Database([
            ClassData(
                name: "Contact",
                records: [
                    rec(
                        "k1",
                        [
                            ("name", "Clark"), ("age", 25), ("tags", ["hero"]), ("address", p("Address", "a1")),
                            ("where", .geoPoint(GeoPoint(latitude: 1, longitude: 2))), ("misc", 1),
                        ]),
                    rec("k2", [("name", .null), ("age", 20.5), ("tags", []), ("misc", "x"), ("nested", [["a"]])]),
                ]),
            ClassData(name: "Address", records: [rec("a1", [("city", "Smallville")])]),
            ClassData(name: "Book", records: [rec("b1", [("contacts", [p("Contact", "k1")])])]),
        ])
    }()

    private func domain(_ path: FieldPath, _ className: String? = "Contact") -> ValueDomain {
        ValueDomain.of(path, in: className, schema: Self.db)
    }

    @Test func singleValuedFields() {
        #expect(domain("name") == ValueDomain(multiValued: false, kinds: .string))
        #expect(domain("age") == ValueDomain(multiValued: false, kinds: .number))
        #expect(domain("address") == ValueDomain(multiValued: false, kinds: .pointer))
        #expect(domain("address.city") == ValueDomain(multiValued: false, kinds: .string))
        #expect(domain("where.latitude") == ValueDomain(multiValued: false, kinds: .number))
        #expect(domain("name.length") == ValueDomain(multiValued: false, kinds: []))
    }

    @Test func arraysAndToManyPathsAlwaysReachArrays() {
        #expect(domain("tags") == ValueDomain(multiValued: true, kinds: .string, maybeSingleValue: false))
        #expect(domain("nested") == ValueDomain(multiValued: true, kinds: .collection, maybeSingleValue: false))
        #expect(
            domain("contacts.age", "Book") == ValueDomain(multiValued: true, kinds: .number, maybeSingleValue: false))
        #expect(
            domain("contacts.tags", "Book") == ValueDomain(multiValued: true, kinds: .string, maybeSingleValue: false))
        #expect(
            domain("contacts.address.city", "Book")
                == ValueDomain(multiValued: true, kinds: .string, maybeSingleValue: false))
    }

    @Test func unknownsAssumeAnything() {
        #expect(domain("misc") == .anything)
        #expect(domain("nope") == .anything)
        #expect(domain("name", "NoSuchClass") == .anything)
        #expect(domain("name", nil) == .anything)
        #expect(ValueDomain.of("name", in: "Contact", schema: nil) == .anything)
    }

    /// The object's own id needs no schema.
    @Test func objectIdIsAlwaysAString() {
        #expect(ValueDomain.of("objectId", in: nil, schema: nil) == ValueDomain(multiValued: false, kinds: .string))
    }
}

/// LIKE patterns read the way the evaluator reads them, and written in the other syntax.
@Suite struct LikeTextTests {
    @Test func sqlToGlob() {
        #expect(LikeText.glob(LikeText.tokens("a%b_c", .sql(escape: nil))) == "a*b?c")
        #expect(LikeText.glob(LikeText.tokens(#"100\%\_*?\\"#, .sql(escape: "\\"))) == #"100%_\*\?\\"#)
        // An escape character at the very end stands for itself.
        #expect(LikeText.glob(LikeText.tokens("a!", .sql(escape: "!"))) == "a!")
    }

    @Test func globToSQL() {
        #expect(LikeText.sql(LikeText.tokens("a*b?c", .glob)) == ("a%b_c", nil))
        #expect(LikeText.sql(LikeText.tokens(#"5%_\*\\"#, .glob)) == (#"5\%\_*\\"#, "\\"))
        #expect(LikeText.sql(LikeText.tokens("end\\", .glob)) == (#"end\\"#, "\\"))
    }

    @Test func exactMatchesAndPrefixes() {
        #expect(LikeText.exactGlob(#"a*?\b"#) == #"a\*\?\\b"#)
        #expect(LikeText.tokens(for: .beginsWith, "ab") == [.literal("a"), .literal("b"), .any])
        #expect(LikeText.tokens(for: .contains, "") == [.any, .any])
        #expect(LikeText.tokens(for: .matches(RegexOptions(wholeString: true)), "x") == nil)
    }
}
