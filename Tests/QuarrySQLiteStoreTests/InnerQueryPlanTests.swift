import Quarry
import QuarrySQLite
import QuarryTestSupport
import Testing

/// Inner queries reach SQLite as one uncorrelated IN-subquery that SQLite runs once (a LIST
/// SUBQUERY in its plan), not as a residual Quarry evaluates on every row, nor as a correlated
/// subquery run per row (docs/STORAGE.md#inner-queries). The plan's shape is checked, not
/// its time.
@Suite struct InnerQueryPlanTests {
    static let database: Database = {
        let cities = (0..<6).map { n in
            Record(
                objectId: "c\(n)",
                fields: [("country", .string(n % 2 == 0 ? "BR" : "US")), ("name", .string("city\(n)"))])
        }
        let people = (0..<30).map { n in
            var fields: [(String, Value)] = [("name", .string(n % 5 == 0 ? "city\(n % 6)" : "p\(n)"))]
            if n % 7 != 0 { fields.append(("city", .pointer(Pointer(className: "City", objectId: "c\(n % 6)")))) }
            return Record(objectId: "p\(n)", fields: fields)
        }
        return Database([ClassData(name: "City", records: cities), ClassData(name: "Person", records: people)])
    }()

    static func brazil(_ semantics: LeafSemantics) -> Query { cities(in: "BR", semantics) }

    static func cities(in country: String, _ semantics: LeafSemantics) -> Query {
        Query(
            className: "City",
            predicate: .leaf(Leaf(.compare(.key("country"), .eq, .literal(.string(country)), []), semantics: semantics))
        )
    }

    /// `city.objectId IN (City[country = 'BR'].objectId)` (SQL), `$inQuery`, `$notInQuery`,
    /// `$select` and `$dontSelect` (Parse), and a `$select` of a plain field.
    static let shapes: [(String, Filter)] = [
        (
            "SQL IN (Class[where].key)",
            .leaf(Leaf(.select("city.objectId", brazil(.sql), innerKey: "objectId"), semantics: .sql))
        ),
        (
            "SQL NOT IN (Class[where].key)",
            .not(.leaf(Leaf(.select("city.objectId", brazil(.sql), innerKey: "objectId"), semantics: .sql)))
        ),
        ("$inQuery", .leaf(Leaf(.inQuery("city", brazil(.document)), semantics: .document))),
        ("$notInQuery", .leaf(Leaf(.inQuery("city", brazil(.document)), negated: true, semantics: .document))),
        ("$select", .leaf(Leaf(.select("city", brazil(.document), innerKey: "objectId"), semantics: .document))),
        (
            "$dontSelect",
            .leaf(Leaf(.select("city", brazil(.document), innerKey: "objectId"), negated: true, semantics: .document))
        ),
        ("$select name", .leaf(Leaf(.select("name", brazil(.document), innerKey: "name"), semantics: .document))),
    ]

    @Test(arguments: shapes.indices)
    func innerQueryIsOneListSubquery(_ index: Int) throws {
        let (name, predicate) = Self.shapes[index]
        let file = StoreFile()
        let store = try file.open()
        try store.save(Self.database)
        let q = Query(className: "Person", predicate: predicate)
        let e = try store.explanation(q)
        #expect(e.residual.isEmpty, "\(name): \(e.residual.map(\.reason))")
        #expect(e.plan.contains { $0.contains("LIST SUBQUERY") }, "\(name): \(e.plan)")
        #expect(!e.plan.contains { $0.contains("CORRELATED") }, "\(name): \(e.plan)")
        // The literal is bound, and the inner class's rows are read once by that subquery.
        #expect(e.statement?.contains("'BR'") == false)
        let reference = ReferenceEvaluator(database: Self.database, now: { 1_700_000_000_000 }, random: { 0.5 })
        let answer = try store.query(q)
        #expect(answer == (try reference.run(q)), "\(name)")
        #expect(!answer.objectIds.isEmpty, "\(name)")
    }

    /// An inner query that yields nothing: SQL's `NULL NOT IN (empty)` is TRUE, yet a person
    /// without a city does not pass `NOT (city.objectId IN …)` under SQL semantics.
    @Test func negatedEmptyInnerQueryAgreesOnMissingValues() throws {
        let file = StoreFile()
        let store = try file.open()
        try store.save(Self.database)
        let reference = ReferenceEvaluator(database: Self.database, now: { 1_700_000_000_000 }, random: { 0.5 })
        let nowhere = Self.cities(in: "XX", .sql)
        let negatedLeaf = Query(
            className: "Person",
            predicate: .leaf(
                Leaf(.select("city.objectId", nowhere, innerKey: "objectId"), negated: true, semantics: .sql)))
        let dontSelect = Query(
            className: "Person",
            predicate: .leaf(
                Leaf(
                    .select("city", Self.cities(in: "XX", .document), innerKey: "objectId"), negated: true,
                    semantics: .document)))
        for q in [negatedLeaf, dontSelect] {
            #expect(try store.explanation(q).residual.isEmpty)
            #expect(try store.query(q) == reference.run(q))
        }
        // Every person with a city, none of those without (p0, p7, p14, p21, p28).
        #expect(try store.query(negatedLeaf).objectIds.count == 25)
        #expect(try store.query(dontSelect).objectIds.count == 30)
    }

    /// An inner predicate that may meet a date under SQL semantics still stays residual: the
    /// string would then have to parse as a date, which can throw.
    @Test func innerComparisonWithADateFieldStaysResidual() throws {
        let file = StoreFile()
        let store = try file.open()
        var db = Self.database
        db.insert(Record(objectId: "c9", fields: [("country", .date(0))]), into: "City")
        try store.save(db)
        let q = Query(
            className: "Person",
            predicate: .leaf(Leaf(.select("city.objectId", Self.brazil(.sql), innerKey: "objectId"), semantics: .sql)))
        let e = try store.explanation(q)
        #expect(e.residual.count == 1)
        #expect(e.residual.first?.reason.contains("may throw") == true)
        let reference = ReferenceEvaluator(database: db, now: { 1_700_000_000_000 }, random: { 0.5 })
        #expect(
            QueryOutcome { () throws(Diagnostic) in try store.query(q) }
                == QueryOutcome { () throws(Diagnostic) in try reference.run(q) })
    }

    /// `$relatedTo` finds the objects its parent lists by objectId (a SEARCH of the class's
    /// objectId index), not by testing the parent's list on every row of the class.
    @Test func relatedToLooksTheListedObjectsUp() throws {
        var db = Self.database
        let listed: [Value] = [.pointer(Pointer(className: "Person", objectId: "p3")), .null]
        db.insert(Record(objectId: "team", fields: [("members", .array(listed))]), into: "Team")
        let file = StoreFile()
        let store = try file.open()
        try store.save(db)
        let reference = ReferenceEvaluator(database: db)
        for negated in [false, true] {
            let q = Query(
                className: "Person",
                predicate: .leaf(
                    Leaf(
                        .relatedTo(Pointer(className: "Team", objectId: "team"), key: "members"), negated: negated,
                        semantics: .document)))
            #expect(try store.query(q) == (try reference.run(q)))
            guard !negated else { continue }
            #expect(try store.query(q).objectIds == ["p3"])
            let e = try store.explanation(q)
            #expect(e.residual.isEmpty)
            // The class's own rows (`t0`), not only the parent's.
            #expect(e.plan.contains { $0.hasPrefix("SEARCH t0 ") && $0.contains("(objectId=?)") }, "\(e.plan)")
        }
    }
}
