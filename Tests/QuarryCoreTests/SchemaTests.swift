import QuarryCore
import Testing

/// `Schema.field(_:in:)` answers in one call what `resolveField` and `fieldType` answer in two.
@Suite struct SchemaFieldTests {
    static let database = Database([
        ClassData(
            name: "Contact",
            records: [
                Record(
                    objectId: "c1",
                    fields: [
                        ("name", .string("Ann")), ("Age", .int(3)), ("createdAt", .string("not a date")),
                        ("address", .pointer(Pointer(className: "Address", objectId: "a1"))),
                    ]),
                Record(objectId: "c2", fields: [("mixed", .int(1)), ("nothing", .null)]),
                Record(objectId: "c3", fields: [("mixed", .string("x"))]),
            ]),
        ClassData(name: "Address", records: [Record(objectId: "a1", fields: [("City", .string("Oslo"))])]),
    ])

    static let names = [
        "name", "NAME", "age", "Age", "AGE", "createdAt", "updatedAt", "objectId", "OBJECTID", "address",
        "mixed", "nothing", "missing", "city", "City", "",
    ]

    @Test(arguments: [true, false]) func fieldIsResolveFieldThenFieldType(inferred: Bool) {
        let schema: any Schema = inferred ? InferredSchema(Self.database) : Self.database
        for className in ["Contact", "Address", "Nope"] {
            for name in Self.names {
                let one = schema.field(name, in: className)
                let stored = schema.resolveField(name, in: className)
                #expect(one?.stored == stored, "\(className).\(name)")
                #expect(one?.type == stored.flatMap { schema.fieldType($0, in: className) }, "\(className).\(name)")
            }
        }
        // The answers the front-ends rely on, spelled out.
        #expect(schema.field("AGE", in: "Contact")?.stored == "Age")
        #expect(schema.field("createdAt", in: "Contact")?.type == .string)
        #expect(schema.field("updatedAt", in: "Contact")?.type == .date)
        #expect(schema.field("objectId", in: "Nope")?.type == .string)
        #expect(schema.field("missing", in: "Contact") == nil)
    }
}
