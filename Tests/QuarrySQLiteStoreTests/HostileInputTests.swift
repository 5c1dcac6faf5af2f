import Quarry
import QuarrySQLite
import Testing

/// Literals and key names are data, never SQL: hostile strings as objectIds, field names,
/// values and query literals come back exactly, match only themselves, never appear in the
/// statement sent, and leave the store intact.
@Suite struct HostileInputTests {
    static let hostile: [String] = [
        "'", "''", "\"", "'; DROP TABLE c1; --", "\"); DELETE FROM quarry_classes; --", "--", ";", "a\u{0}b", "\u{0}",
        "\\", "\\'", "%", "_", "*", "__proto__", "a.b", "$where", "$gt", "?1", ":name", "@x",
        String(repeating: "x'y\"z;--", count: 1300),
    ]

    @Test func hostileStringsAreData() throws {
        let file = StoreFile()
        let store = try file.open()
        var records: [Record] = []
        for (n, h) in Self.hostile.enumerated() {
            records.append(Record(objectId: h, fields: [(h, .string(h)), ("n", .int(Int64(n))), ("s", .string(h))]))
        }
        let db = Database([ClassData(name: "H", records: records)])
        try store.save(db)
        try store.declareIndex(.ordered, on: "s", in: "H")
        let reference = ReferenceEvaluator(database: db)
        for h in Self.hostile {
            for condition: Condition in [
                .compare(.key(FieldPath([h])), .eq, .literal(.string(h)), []),
                .compare(.key("s"), .eq, .literal(.string(h)), []),
                .compare(.key("objectId"), .eq, .literal(.string(h)), []),
                .string(.key("s"), .beginsWith, .literal(.string(h)), []),
                .string(.key("s"), .like(.sql(escape: nil)), .literal(.string(h)), []),
                .inCollection(.key("s"), .list([.literal(.string(h))]), []),
            ] {
                let q = Query(className: "H", predicate: .leaf(condition, .document))
                let (got, expected) = (try store.query(q), try reference.run(q))
                #expect(
                    got == expected,
                    "\(condition): \(got.objectIds.map(\.unicodeScalars.count)) vs \(expected.objectIds.map(\.unicodeScalars.count))"
                )
                let statement = try #require(try store.explanation(q).statement)
                if h.count > 2 { #expect(!statement.contains(h)) }
            }
        }
        // Every object reads back exactly, and the catalog still lists the class.
        #expect(try store.query(Query(className: "H", predicate: .constant(true))).records == records)
        #expect(try store.classes().map(\.name) == ["H"])
    }

    @Test func hostileClassNames() throws {
        let file = StoreFile()
        let store = try file.open()
        for h in Self.hostile {
            try store.apply([.save(Record(objectId: "o", fields: [("v", .string(h))]), in: h)])
        }
        #expect(try store.classes().map(\.name) == Self.hostile)
        for h in Self.hostile {
            let q = Query(className: h, predicate: .leaf(.compare(.key("v"), .eq, .literal(.string(h)), []), .document))
            #expect(try store.query(q).objectIds == ["o"])
        }
    }
}
