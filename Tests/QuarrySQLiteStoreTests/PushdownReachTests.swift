import Quarry
import QuarrySQLite
import QuarryTestSupport
import Testing

/// What the store pushes down beyond single translatable conjuncts: pointers and relations
/// (compared by identity, paths through them looked up in the same snapshot, dangling ones
/// missing), and an OR with an arm SQLite cannot answer (its translatable arms filter the
/// rows, Quarry checks the whole OR) — with the reference's answers, order and first error.
@Suite struct PushdownReachTests {
    static func leaf(_ c: Condition, _ s: LeafSemantics = .document) -> Filter { .leaf(Leaf(c, semantics: s)) }
    static func compare(_ key: FieldPath, _ op: ComparisonOperator, _ v: Value) -> Condition {
        .compare(.key(key), op, .literal(v), [])
    }

    /// Random data whose `ptr` only ever points to Other (so the field has one pointer kind),
    /// some pointers dangling, some to a class that is not stored at all.
    static func pointerData(_ random: inout RandomData) -> Database {
        let db = random.database(items: 40, others: 6)
        let items = db["Item"]!.records.map { r -> Record in
            var fields = r.fieldOrder.map { ($0, r.fields[$0]!) }
            if let at = fields.firstIndex(where: { $0.0 == "ptr" }), case .pointer(let p) = fields[at].1,
                p.className == "Item"
            {
                fields[at].1 = .pointer(Pointer(className: "Other", objectId: "o99"))
            }
            if random.chance(20) { fields.append(("ghost", .pointer(Pointer(className: "Ghost", objectId: "g1")))) }
            return Record(objectId: r.objectId, fields: fields)
        }
        return Database([ClassData(name: "Item", records: items), db["Other"]!])
    }

    @Test(arguments: SoakSeeds.seeds([11, 12], more: 4000))
    func randomQueriesOnPointersAgreeAsTargetsComeAndGo(seed: UInt64) async throws {
        let file = StoreFile()
        let store = try file.open()
        var random = RandomData(seed: seed, mixesTypes: false)
        var db = Self.pointerData(&random)
        try store.save(db)
        if !(await StoreAgreementTests.check(store, db, &random, queries: 150, depth: 3)) { return }
        for round in 0..<8 {
            // Pointer targets come and go: rows that read `ptr.name` change without being written.
            let id = "o\(random.int(8))"
            if round % 2 == 0 {
                db.remove(id, from: "Other")
                try store.apply([.delete(objectId: id, from: "Other")])
            } else {
                let record = Record(objectId: id, fields: [("name", .string(random.pick(RandomData.strings)))])
                db.insert(record, into: "Other")
                try store.apply([.save(record, in: "Other")])
            }
            if !(await StoreAgreementTests.check(store, db, &random, queries: 30, depth: 2)) { return }
        }
    }

    @Test func pointerTestsArePushedDown() throws {
        let file = StoreFile()
        let store = try file.open()
        let other = { (n: Int) in Pointer(className: "Other", objectId: "o\(n)") }
        let others = [Record(objectId: "o1", fields: [("name", .string("a"))])]
        let items = (0..<4).map { n in
            Record(
                objectId: "i\(n)",
                fields: [
                    ("ptr", .pointer(other(n))), ("rel", .relation(className: "Other", objectIds: ["o\(n)"])),
                    ("ghost", .pointer(Pointer(className: "Ghost", objectId: "g"))),
                ])
        }
        try store.apply(others.map { .save($0, in: "Other") } + items.map { .save($0, in: "Item") })
        let reference = ReferenceEvaluator(
            database: Database([ClassData(name: "Other", records: others), ClassData(name: "Item", records: items)]),
            now: { 1_700_000_000_000 }, random: { 0.5 })
        // nil: the reference's answer, whatever it is.
        let queries: [(String, Filter, [String]?)] = [
            ("Item", Self.leaf(Self.compare("ptr", .eq, .pointer(other(2)))), ["i2"]),
            ("Item", Self.leaf(Self.compare("ptr", .eq, .string("o3"))), ["i3"]),  // a bare objectId (document)
            ("Item", Self.leaf(Self.compare(FieldPath(["ptr", "name"]), .eq, .string("a"))), ["i1"]),
            // Dangling: the pointer is not null, a path through it is missing.
            ("Item", Self.leaf(.isNull(.key("ptr")), .sql), []),
            ("Item", Self.leaf(.isNull(.key(FieldPath(["ptr", "name"]))), .sql), ["i0", "i2", "i3"]),
            ("Item", Self.leaf(.isNull(.key(FieldPath(["ghost", "name"]))), .sql), ["i0", "i1", "i2", "i3"]),
            ("Item", Self.leaf(Self.compare("rel", .eq, .pointer(other(0)))), nil),
            ("Item", Self.leaf(.inCollection(.key("rel"), .literal(.array([.pointer(other(1))])), [])), nil),
            ("Other", Self.leaf(.relatedTo(Pointer(className: "Item", objectId: "i1"), key: "rel")), ["o1"]),
        ]
        for (className, predicate, ids) in queries {
            let q = Query(className: className, predicate: predicate)
            let e = try store.explanation(q)
            #expect(e.residual.isEmpty, "\(predicate): \(e.residual.map(\.reason))")
            #expect(try store.query(q) == reference.run(q), "\(predicate)")
            if let ids { #expect(try store.query(q).objectIds == ids, "\(predicate)") }
        }
    }

    @Test func anOrWithAnUntranslatableArmPushesItsOtherArms() throws {
        let file = StoreFile()
        let store = try file.open()
        let people = (0..<30).map { n in
            Record(
                objectId: "p\(n)",
                fields: [("age", .int(Int64(n))), ("tags", .array([.string("t\(n % 4)"), .string("u\(n % 3)")]))])
        }
        try store.apply(people.map { .save($0, in: "Person") })
        let db = Database([ClassData(name: "Person", records: people)])
        // `tags.0` (a path through an array) does not translate; `age` tests do.
        let firstTag = Self.leaf(Self.compare(FieldPath(["tags", "0"]), .eq, .string("t1")))
        let predicate = Filter.or([
            .and([Self.leaf(Self.compare("age", .lt, .int(10))), firstTag]),
            Self.leaf(Self.compare("age", .ge, .int(25))),
        ])
        let q = Query(className: "Person", predicate: predicate)
        let e = try store.explanation(q)
        #expect(e.residual.count == 1)
        #expect(e.residual.first?.reason.contains("maps over an array") == true)
        // The superset `(age < ?1 OR age >= ?2)` runs in SQLite, the literals bound.
        #expect(e.statement?.contains(" OR ") == true && e.parameterCount == 2)
        let reference = ReferenceEvaluator(database: db, now: { 1_700_000_000_000 }, random: { 0.5 })
        #expect(try store.query(q) == reference.run(q))
        #expect(try store.query(q).objectIds == ["p1", "p5", "p9", "p25", "p26", "p27", "p28", "p29"])

        // An OR arm that constrains nothing leaves nothing to push; the NOT of an OR pushes
        // the negation of its translatable arm.
        let loose = Query(
            className: "Person", predicate: .or([firstTag, Self.leaf(Self.compare("age", .lt, .int(3)))]))
        #expect(try store.explanation(loose).parameterCount == 0)
        #expect(try store.query(loose) == reference.run(loose))
        let negated = Query(
            className: "Person", predicate: .not(.or([firstTag, Self.leaf(Self.compare("age", .lt, .int(3)))])))
        #expect(try store.explanation(negated).parameterCount == 1)
        #expect(try store.query(negated) == reference.run(negated))
    }

    /// A conjunct that may throw stays residual (and so does anything after it), so its errors
    /// surface on the rows the reference meets them on; when only its regexes may throw, SQLite
    /// narrows the rows with a superset that keeps every row a regex could throw on
    /// (docs/STORAGE.md#regular-expressions, RegexSupersetTests).
    @Test func aFallibleOrStaysResidual() throws {
        let file = StoreFile()
        let store = try file.open()
        let records = (0..<5).map { n in
            Record(objectId: "p\(n)", fields: [("age", .int(Int64(n))), ("name", .string("n\(n)"))])
        }
        try store.apply(records.map { .save($0, in: "P") })
        let regex = Self.leaf(
            .string(.key("name"), .matches(RegexOptions(wholeString: true)), .literal(.string("n[34]")), []))
        let q = Query(className: "P", predicate: .or([regex, Self.leaf(Self.compare("age", .lt, .int(2)))]))
        let e = try store.explanation(q)
        #expect(e.residual.first?.reason.contains("may throw") == true)
        // The pattern, its flags, its GLOB superset `n*` and the age.
        #expect(e.statement?.contains("quarry_regexp(?1, ?2, ") == true && e.parameterCount == 4)
        #expect(e.statement?.contains(" GLOB ?3 AND quarry_regexp(") == true)
        let reference = ReferenceEvaluator(
            database: Database([ClassData(name: "P", records: records)]), now: { 1_700_000_000_000 },
            random: { 0.5 })
        #expect(try store.query(q) == reference.run(q))
        #expect(try store.query(q).objectIds == ["p0", "p1", "p3", "p4"])
    }
}
