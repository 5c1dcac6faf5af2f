import QuarryCore

/// The datasets of the Backendless reference's test cases (§7), built in code.
enum ReferenceDatasets {
    static func record(_ id: String, _ fields: [(String, Value)]) -> Record { Record(objectId: id, fields: fields) }

    static func pointer(_ className: String, _ id: String) -> Value {
        .pointer(Pointer(className: className, objectId: id))
    }

    static func date(_ ms: Int64) -> Value { .date(ms) }

    /// DS-S: table Item, column name.
    static let strings = Database([
        ClassData(
            name: "Item",
            records: [
                record("s1", [("name", "foo")]), record("s2", [("name", "foobar")]), record("s3", [("name", "barfoo")]),
                record("s4", [("name", "bar")]), record("s5", [("name", "xfooy")]), record("s6", [("name", .null)]),
            ])
    ])

    /// DS-C (Contact) and DS-O (Order).
    static let numbers = Database([
        ClassData(
            name: "Contact",
            records: [
                record("c1", [("name", "Jack Daniels"), ("age", 47)]),
                record("c2", [("name", "Jack Black"), ("age", 30)]),
                record("c3", [("name", "Joe"), ("age", 27), ("title", "Plumber")]),
                record("c4", [("name", "Dude"), ("age", 33), ("title", "Coding Chief")]),
                record("c5", [("name", "Bob"), ("age", 21)]),
                record("c6", [("name", .null), ("age", 50)]),
                record("c7", [("name", "Jane"), ("age", .null)]),
            ]),
        ClassData(
            name: "Order",
            records: [
                record("o1", [("orderAmount", 50.0)]), record("o2", [("orderAmount", 100.0)]),
                record("o3", [("orderAmount", 100.5)]), record("o4", [("orderAmount", 250.0)]),
                record("o5", [("orderAmount", .null)]),
            ]),
    ])

    /// DS-U (Contact.updated) and DS-B (Person.birthDate).
    static let dates = Database([
        ClassData(
            name: "Contact",
            records: [
                record("u1", [("updated", date(1_427_025_600_000)), ("created", date(1_427_025_600_000))]),
                record("u2", [("updated", date(1_427_068_800_000)), ("created", date(1_427_068_800_000))]),
                record("u3", [("updated", date(1_427_104_800_000)), ("created", date(1_427_104_800_000))]),
                record("u4", [("updated", date(1_427_846_400_000)), ("created", date(1_427_846_400_000))]),
            ]),
        ClassData(
            name: "Person",
            records: [
                record("b1", [("birthDate", date(346_204_800_000))]),
                record("b2", [("birthDate", date(346_291_200_000))]),
                record("b3", [("birthDate", date(594_003_600_000))]),
                record("b4", [("birthDate", date(594_007_200_000))]),
                record("b5", [("birthDate", date(631_152_000_000))]),
            ]),
    ])

    /// DS-PA: counting related objects.
    static let counting = Database([
        ClassData(
            name: "Address", records: ["ad1", "ad2", "ad3", "ad4"].map { record($0, [("street", .string($0))]) }),
        ClassData(
            name: "Person",
            records: [
                record("p1", [("address", .array(["ad1", "ad2", "ad3"].map { pointer("Address", $0) }))]),
                record("p2", [("address", .array([pointer("Address", "ad3")]))]),
                record("p3", [("address", .array([]))]),
            ]),
    ])

    /// Users of the relation-mutation examples (tests 56–60: their where clause).
    static let users = Database([
        ClassData(
            name: "Users",
            records: [
                record("j", [("name", "Joe")]), record("f", [("name", "Frank")]), record("m", [("name", "Mary")]),
            ])
    ])
}
