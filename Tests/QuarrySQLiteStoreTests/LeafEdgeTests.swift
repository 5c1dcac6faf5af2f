import Quarry
import QuarrySQLite
import QuarryTestSupport
import Testing

/// Leaves whose SQL once answered differently from the reference, found by running the random
/// agreement tests over many more seeds than `make test` does: each case checks the store's
/// answer against a golden list of ids and against `ReferenceEvaluator`.
@Suite struct LeafEdgeTests {
    static let box = Condition.geo(
        .withinBox(
            "g", southwest: GeoPoint(latitude: 29, longitude: -98), northeast: GeoPoint(latitude: 31, longitude: -95)))

    static let records = [
        Record(
            objectId: "a",
            fields: [("i", .int(1)), ("s", .string("joe")), ("g", .geoPoint(GeoPoint(latitude: 30, longitude: -97)))]),
        Record(
            objectId: "b",
            fields: [("i", .int(2)), ("s", .string("ann")), ("g", .geoPoint(GeoPoint(latitude: 0, longitude: 0)))]),
        Record(objectId: "c", fields: [("i", .null), ("s", .null), ("g", .null)]),
        Record(objectId: "d", fields: []),
    ]

    /// The store's ids for `predicate` on `records`, after checking they are the reference's.
    static func ids(_ predicate: Filter) throws -> [String] {
        let db = Database([ClassData(name: "Item", records: records)])
        let file = StoreFile()
        let store = try file.open()
        try store.save(db)
        let query = Query(className: "Item", predicate: predicate)
        let answer = try store.query(query).records.map(\.objectId)
        #expect(answer == (try ReferenceEvaluator(database: db).run(query).records.map(\.objectId)))
        return answer
    }

    static func leaf(_ c: Condition, negated: Bool = false, _ s: LeafSemantics) -> Filter {
        .leaf(Leaf(c, negated: negated, semantics: s))
    }

    /// Parse's `$all` on a field holding single values is an AND of equalities (MongoDB), which
    /// a value passes when it equals every member; the store had answered false for every row.
    @Test func allOnASingleValueIsAnAndOfEqualities() throws {
        let all = { (key: FieldPath, members: [Value]) in
            Condition.containsAll(.key(key), .list(members.map { Expr.literal($0) }))
        }
        #expect(try Self.ids(Self.leaf(all("i", [.int(1)]), .document)) == ["a"])
        #expect(try Self.ids(Self.leaf(all("i", [.double(1)]), .document)) == ["a"])
        #expect(try Self.ids(Self.leaf(all("i", [.int(1), .int(2)]), .document)) == [])
        #expect(try Self.ids(Self.leaf(all("i", [.int(1), .null]), .document)) == [])
        #expect(try Self.ids(Self.leaf(all("i", []), .document)) == [])
        #expect(try Self.ids(Self.leaf(all("s", [.string("joe")]), .document)) == ["a"])
        #expect(try Self.ids(Self.leaf(all("s", [.string("joe")]), negated: true, .document)) == ["b", "c", "d"])
        // Under the other semantics `$all` tests arrays only.
        #expect(try Self.ids(Self.leaf(all("i", [.int(1)]), .sql)) == [])
    }

    /// NOT above a strict leaf whose SQL begins with NOT: `NOT x IS NOT 1` is SQLite's
    /// `NOT (x IS NOT 1)`, which had turned away the rows without a point.
    @Test func notAboveANegatedStrictLeaf() throws {
        #expect(try Self.ids(.not(Self.leaf(Self.box, negated: true, .sql))) == ["a", "c", "d"])
        #expect(try Self.ids(Self.leaf(Self.box, negated: true, .sql)) == ["b"])
        #expect(try Self.ids(.not(Self.leaf(Self.box, .sql))) == ["b", "c", "d"])
    }

    /// NSPredicate: an empty prefix, suffix or substring is in no string (`hasPrefix:@""` is
    /// NO); the store's GLOB had matched every string.
    @Test func anEmptySubstringIsInNoStringUnderThePredicateSemantics() throws {
        for op in [StringOperator.beginsWith, .endsWith, .contains] {
            let test = Condition.string(.key("s"), op, .literal(.string("")), [])
            #expect(try Self.ids(Self.leaf(test, .predicate)) == [])
            #expect(try Self.ids(Self.leaf(test, negated: true, .predicate)) == ["a", "b", "c", "d"])
            #expect(try Self.ids(Self.leaf(test, .document)) == ["a", "b"])
        }
    }

    /// `$relatedTo`, negated, on a parent whose array of pointers holds a null: the store's `NOT
    /// (objectId IN (…, NULL))` was unknown for every object the list does not name, which then
    /// matched nothing. Found by the PostgreSQL store's golden test of the same leaf.
    @Test func aNegatedRelatedToOverAListWithANull() throws {
        var db = Database()
        for i in 0..<6 { db.insert(Record(objectId: "i\(i)", fields: []), into: "Item") }
        let item = { (i: Int) in Value.pointer(Pointer(className: "Item", objectId: "i\(i)")) }
        db.insert(Record(objectId: "a", fields: [("list", .array([item(2), .null, item(5)]))]), into: "Shelf")
        let file = StoreFile()
        let store = try file.open()
        try store.save(db)
        let reference = ReferenceEvaluator(database: db)
        for semantics in [LeafSemantics.sql, .predicate, .document] {
            for negated in [false, true] {
                let query = Query(
                    className: "Item",
                    predicate: Self.leaf(
                        .relatedTo(Pointer(className: "Shelf", objectId: "a"), key: "list"), negated: negated, semantics
                    ))
                let answer = try store.query(query).records.map(\.objectId)
                #expect(answer == (negated ? ["i0", "i1", "i3", "i4"] : ["i2", "i5"]), "\(semantics)")
                #expect(answer == (try reference.run(query).records.map(\.objectId)))
            }
        }
    }
}
