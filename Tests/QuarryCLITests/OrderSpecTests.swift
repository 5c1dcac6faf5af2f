import QuarryCore
import Testing
@testable import QuarryCLI

@Suite struct OrderSpecTests {
    @Test(arguments: [
        ("-score,name", [SortKey.key("score", .descending), .key("name", .ascending)]),
        ("score DESC, name", [.key("score", .descending), .key("name", .ascending)]),
        ("score desc,name asc", [.key("score", .descending), .key("name", .ascending)]),
        ("  address.city  ", [.key(FieldPath(["address", "city"]), .ascending)]),
        ("`order` DESC", [.key("order", .descending)]),
        ("-createdAt", [.key("createdAt", .descending)]),
        ("a ASC,\tb\tDESC", [.key("a", .ascending), .key("b", .descending)]),
    ])
    func accepts(_ spec: String, _ expected: [SortKey]) throws {
        #expect(try OrderSpec.parse(spec) == expected)
    }

    @Test(arguments: [
        ("", "the order is empty; give keys such as '-score,name' or 'score DESC, name'"),
        ("score,", "sort key 2 is empty (a stray comma?)"),
        ("-", "expected a key after '-' in '-'"),
        ("score DOWN", "expected ASC or DESC after 'score' but found 'DOWN'"),
        ("-score DESC", "'-score DESC' gives the direction twice; write '-score' or 'score DESC'"),
        ("score DESC NULLS", "expected 'key', '-key' or 'key ASC|DESC' but found 'score DESC NULLS'"),
        ("a..b", "the sort key 'a..b' has an empty component"),
    ])
    func rejects(_ spec: String, _ message: String) {
        #expect(throws: InvalidValue(message)) { try OrderSpec.parse(spec) }
    }
}

@Suite struct FieldListTests {
    @Test func splitsTrimsAndDropsRepeats() throws {
        #expect(
            try FieldList.parse("name, address.city,name", role: "key")
                == ["name", FieldPath(["address", "city"])])
    }

    @Test(arguments: [
        ("a,,b", "a key is empty (a stray comma?)"),
        ("a.", "the key 'a.' has an empty component"),
        ("first name", "the key 'first name' contains ' '"),
    ])
    func rejects(_ text: String, _ message: String) {
        #expect(throws: InvalidValue(message)) { try FieldList.parse(text, role: "key") }
    }
}

extension InvalidValue: Equatable {
    public static func == (a: InvalidValue, b: InvalidValue) -> Bool { a.description == b.description }
}
