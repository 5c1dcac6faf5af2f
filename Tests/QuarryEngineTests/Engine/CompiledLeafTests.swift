import Quarry
import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// The leaf kinds that used to fall back to the reference evaluator row by row — LIKE with
/// inner wildcards, regular expressions, case- and diacritic-insensitive substring tests,
/// `$all` / `$containedBy` / `$size`, quantifiers, geo point latitude/longitude — written in
/// the three languages over adversarial data (non-ASCII folding cases, empty strings, nulls,
/// missing fields, mixed arrays, NaN, dangling pointers, points near the antimeridian): each
/// compiles to typed nodes and answers exactly as the reference does, with and without
/// indexes.
/// The answers for missing and null that the compiler takes from the rules of the commonest
/// leaves are the reference's answers, for every operator, semantics, negation and scalar.
@Suite struct ScalarAnswerTests {
    static let scalars: [Value] = [
        .int(3), .double(-0.5), .double(.nan), .string(""), .string("x"), .date(7), .bool(false),
    ]
    static let evaluator = ReferenceEvaluator(database: Database([ClassData(name: "T")]))
    static let missing = Record(objectId: "m", fields: [])
    static let null = Record(objectId: "n", fields: [("a", .null)])

    static func compiles(_ pattern: String, _ regexOptions: RegexOptions, _ options: StringOptions) -> Bool {
        (try? StringMatcher.regex(pattern, regexOptions, options, .default)) != nil
    }

    static func reference(_ l: Leaf) throws -> SlotAnswers {
        SlotAnswers(
            missing: try evaluator.matches(missing, className: "T", predicate: .leaf(l)),
            null: try evaluator.matches(null, className: "T", predicate: .leaf(l)))
    }

    @Test(arguments: LeafSemantics.allCases, [false, true]) func rulesAreTheReferencesAnswers(
        semantics: LeafSemantics, negated: Bool
    ) throws {
        var leaves: [Leaf] = []
        for v in Self.scalars {
            for op in ComparisonOperator.allCases {
                for options: StringOptions in [[], .caseInsensitive] {
                    leaves.append(
                        Leaf(.compare(.key("a"), op, .literal(v), options), negated: negated, semantics: semantics))
                }
            }
            for hi in Self.scalars {
                leaves.append(
                    Leaf(
                        .between(.key("a"), lower: .literal(v), upper: .literal(hi)), negated: negated,
                        semantics: semantics))
            }
        }
        let lists: [[Value]] = [[], [.null]] + Self.scalars.map { [$0] } + [Self.scalars, Self.scalars + [.null]]
        for list in lists {
            for options: StringOptions in [[], .caseInsensitive] {
                for collection: Expr in [.literal(.array(list)), .list(list.map(Expr.literal))] {
                    leaves.append(
                        Leaf(.inCollection(.key("a"), collection, options), negated: negated, semantics: semantics))
                }
            }
        }
        for op: StringOperator in [.beginsWith, .endsWith, .contains] {
            for pattern in ["", "x", "É"] {
                for options: StringOptions in [[], .caseInsensitive, [.caseInsensitive, .diacriticInsensitive]] {
                    leaves.append(
                        Leaf(
                            .string(.key("a"), op, .literal(.string(pattern)), options), negated: negated,
                            semantics: semantics))
                }
            }
        }
        for pattern in ["^J.n", "", "(?i)É"] {
            for options: StringOptions in [[], .caseInsensitive, .diacriticInsensitive] {
                let condition = Condition.string(
                    .key("a"), .matches(RegexOptions(wholeString: false)), .literal(.string(pattern)), options)
                leaves.append(Leaf(condition, negated: negated, semantics: semantics))
            }
        }
        for l in leaves {
            let rule = try #require(SlotAnswers.ofScalarTest(l, subject: "a", compiles: Self.compiles), "\(l)")
            let expected = try Self.reference(l)
            #expect(rule.missing == expected.missing && rule.null == expected.null, "\(l)")
        }
    }

    /// Other leaves are evaluated: null and array literals, the key on the right, another key.
    @Test func otherLeavesHaveNoRule() {
        for condition: Condition in [
            .compare(.key("a"), .eq, .literal(.null), []), .compare(.key("a"), .eq, .literal(.array([.int(1)])), []),
            .compare(.literal(.int(1)), .lt, .key("a"), []), .compare(.key("b"), .eq, .literal(.int(1)), []),
            .between(.key("a"), lower: .literal(.null), upper: .literal(.int(1))),
            .inCollection(.key("a"), .literal(.array([.int(1), .array([.null])])), []),
            .inCollection(.key("a"), .literal(.string("abc")), []), .inCollection(.key("a"), .key("b"), []),
            .inCollection(.key("a"), .list([.literal(.int(1)), .key("b")]), []),
            .string(.key("a"), .like(.sql(escape: nil)), .literal(.string("x%")), []),
            .string(.key("a"), .matches(RegexOptions(wholeString: true)), .literal(.string("(")), []),
            .string(.key("a"), .matches(RegexOptions(wholeString: true)), .key("b"), []),
            .string(.key("a"), .contains, .literal(.null), []),
        ] {
            #expect(
                SlotAnswers.ofScalarTest(Leaf(condition, semantics: .document), subject: "a", compiles: Self.compiles)
                    == nil, "\(condition)")
        }
    }
}

@Suite struct CompiledLeafTests {
    static let strings = [
        "", "an", "AN", "Jan", "JAN", "Jon", "jän", "Ja\u{308}n", "Jün", "bANana", "ß", "SS", "ss", "Straße",
        "STRASSE", "İ", "i\u{307}", "I", "ı", "é", "e\u{301}", "É", "E\u{301}", "Ångström", "\u{FB00}", "FF",
        "\u{212A}", "k", "a\u{301}n", "x%y", "x_y", "J", "J\u{301}n", "\u{1F600}n", "日本an",
    ]

    static func database(seed: UInt64) -> Database {
        var random = RandomData(seed: seed)
        var items: [Record] = []
        for n in 0..<160 {
            var fields: [(String, Value)] = []
            func maybe(_ name: String, _ v: @autoclosure () -> Value) {
                if random.chance(8) { return }
                fields.append((name, random.chance(6) ? .null : v()))
            }
            maybe("s", .string(random.pick(strings)))
            maybe(
                "tags",
                .array(
                    (0..<random.int(4)).map { _ in
                        random.chance(8) ? .null : .string(random.pick(["a", "b", "A", "é", "e\u{301}", "", "ab"]))
                    }))
            maybe(
                "nums", .array((0..<random.int(4)).map { _ in random.chance(10) ? .null : .int(Int64(random.int(4))) }))
            maybe("reals", .array((0..<random.int(3)).map { _ in .double(random.pick([0.5, -0.0, 0, 1, .nan, 2.5])) }))
            maybe(
                "loc",
                .geoPoint(
                    random.pick([
                        GeoPoint(latitude: 3.2, longitude: -96.9), GeoPoint(latitude: -33.9, longitude: 151.2),
                        GeoPoint(latitude: 10, longitude: 179.9), GeoPoint(latitude: 10, longitude: -179.9),
                        GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 89.9, longitude: 10),
                    ])))
            maybe("when", .date(random.pick([0, 1_427_068_800_000, 1_700_000_000_000])))
            maybe(
                "x",
                .double(random.pick([9.007199254740992e15, 9.007199254740994e15, -1, .nan, 9.223372036854775807e18])))
            if !random.chance(15) {
                // o6 dangles
                fields.append(("ptr", .pointer(Pointer(className: "Other", objectId: "o\(random.int(7))"))))
            }
            if !random.chance(20) {
                // Lists of pointers, some dangling (o6), some empty.
                fields.append(
                    (
                        "rel",
                        .array(
                            (0..<random.int(4)).map { _ in
                                .pointer(Pointer(className: "Other", objectId: "o\(random.int(7))"))
                            })
                    ))
            }
            items.append(Record(objectId: "i\(n)", fields: fields))
        }
        // A few values of another type in typed columns: the reference decides those rows.
        items[7] = Record(
            objectId: "i7", fields: [("s", .int(3)), ("tags", .string("a")), ("loc", .string("x")), ("nums", .int(2))])
        var others: [Record] = []
        for n in 0..<6 {
            others.append(
                Record(
                    objectId: "o\(n)",
                    fields: [
                        ("loc", .geoPoint(GeoPoint(latitude: Double(n * 10), longitude: Double(n * 30)))),
                        ("name", .string(random.pick(strings))), ("n", .int(Int64(n))),
                    ]))
        }
        return Database([ClassData(name: "Item", records: items), ClassData(name: "Other", records: others)])
    }

    static let sql = [
        "s LIKE '%an%'", "s LIKE 'J_n'", "s LIKE 'J%n'", "s LIKE '%ß%'", "s LIKE '_'", "s LIKE '%e%'", "s LIKE ''",
        "s LIKE '%'", "s LIKE '_%_'", "s LIKE 'x\\%y' ESCAPE '\\'", "NOT (s LIKE '%an%')", "s NOT LIKE 'J_n%'",
        "s LIKE '%\u{1F600}_'", "s LIKE '%日_a%'", "s LIKE '%SS%'", "s LIKE '%ss%'", "s LIKE '%i%'",
        "loc.latitude BETWEEN 3 AND 3.5 AND loc.longitude BETWEEN -97.2 AND -96.7", "loc.latitude > 5",
        "loc.longitude < -100 OR loc.longitude > 100", "NOT (loc.latitude < 10)", "loc.latitude IS NULL",
        "loc.latitude IN (10, 0)", "ptr.loc.latitude >= 20", "ptr.loc.longitude = 30", "loc.latitude IS NOT NULL",
        "tags = 'a'", "nums > 2", "rel.name = 'Jan'", "rel.name LIKE '%an%'", "rel.n > 2", "rel.n BETWEEN 1 AND 3",
        "rel.objectId IN ('o1', 'o2')", "NOT (rel.name = 'an')", "rel.name <> 'an'",
        "when > 'not a date'", "when BETWEEN '2015-03-23' AND 'later'", "NOT (when < 'soon')",
        "x < 9007199254740993", "x > 9007199254740993", "x = 9007199254740993", "x <> 9223372036854775807",
        "x >= -9223372036854775808",
        "ptr.objectId IN (Other[n > 2].objectId)", "NOT (ptr.objectId IN (Other[name LIKE '%a%'].objectId))",
        "Within(loc, 'POLYGON((-97.2 3, -96.7 3, -96.7 3.5, -97.2 3.5, -97.2 3))') = TRUE",
    ]

    static let predicate = [
        "s CONTAINS[c] 'an'", "s CONTAINS[cd] 'an'", "s CONTAINS[d] 'e'", "s CONTAINS[c] 'ss'", "s CONTAINS[c] 'ß'",
        "s CONTAINS[c] 'i'", "s CONTAINS[cd] 'i'", "s CONTAINS[c] 'k'", "s CONTAINS[c] 'ff'", "s CONTAINS ''",
        "s BEGINSWITH[cd] 'ja'", "s ENDSWITH[c] 'N'", "s LIKE[c] '*an*'", "s LIKE '?n*'", "s LIKE[cd] 'j?n'",
        "s LIKE 'J*n'", "s MATCHES '[jJ].n.*'", "s MATCHES[c] 'j.n'", "s MATCHES[cd] 'jan'", "s MATCHES '.*'",
        "NOT (s MATCHES 'J.*')", "ANY tags == 'a'", "ANY tags ==[c] 'a'", "ALL tags != 'b'", "NONE tags BEGINSWITH 'a'",
        "SOME tags CONTAINS[cd] 'e'", "ANY nums > 1", "ALL nums >= 1", "NONE nums IN {1, 2}", "ANY reals == 0",
        "ALL reals > 0.5", "ANY tags == nil", "ALL tags != nil", "ANY s == 'Jan'", "ALL s BEGINSWITH 'J'",
        "loc.latitude > 5", "loc.latitude BETWEEN {0, 20}", "loc.longitude == nil", "ptr.loc.latitude < 25",
        "NOT (ANY tags == 'a')", "ANY tags LIKE 'a*'", "rel.name == 'Jan'", "rel.n > 2", "rel.name == nil",
        "rel.name != nil", "SUBQUERY(tags, $x, $x == 'a').@count > 0", "SUBQUERY(nums, $n, $n > 1).@count == 2",
        "SUBQUERY(tags, $t, $t BEGINSWITH[c] 'a').@count < 1", "SUBQUERY(s, $x, $x == 'Jan').@count == 1",
        "SUBQUERY(tags, $x, $x == nil).@count >= 1", "NOT (SUBQUERY(reals, $r, $r > 0.5).@count != 1)",
    ]

    static let json = [
        #"{"s": {"$regex": "an", "$options": "i"}}"#, #"{"s": {"$regex": "^J.n"}}"#, #"{"s": {"$regex": "n$"}}"#,
        #"{"s": {"$regex": "ß|ss", "$options": "i"}}"#, #"{"s": {"$regex": "^$"}}"#, #"{"s": {"$regex": "(a+)+$"}}"#,
        #"{"s": {"$regex": "["}}"#, #"{"tags": {"$all": ["a", "b"]}}"#, #"{"tags": {"$all": ["a"]}}"#,
        #"{"tags": {"$all": []}}"#, #"{"tags": {"$all": ["a", null]}}"#, #"{"nums": {"$all": [1, 2.0]}}"#,
        #"{"nums": {"$all": [1.5]}}"#, #"{"reals": {"$all": [0]}}"#, #"{"tags": {"$containedBy": ["a", "b"]}}"#,
        #"{"nums": {"$containedBy": [0, 1, 2, null]}}"#, #"{"tags": {"$size": 2}}"#, #"{"nums": {"$size": 0}}"#,
        #"{"s": {"$all": ["a"]}}"#, #"{"tags": {"$all": ["a", "b"]}, "nums": {"$gte": 1}}"#,
        #"{"loc": {"$within": {"$box": [{"__type": "GeoPoint", "latitude": 0, "longitude": 170}, {"__type": "GeoPoint", "latitude": 20, "longitude": 180}]}}}"#,
        #"{"loc": {"$geoWithin": {"$polygon": [{"__type": "GeoPoint", "latitude": 0, "longitude": 0}, {"__type": "GeoPoint", "latitude": 20, "longitude": 0}, {"__type": "GeoPoint", "latitude": 20, "longitude": 40}]}}}"#,
        #"{"rel": {"__type": "Pointer", "className": "Other", "objectId": "o1"}}"#, #"{"rel": "o2"}"#,
        #"{"tags": {"$regex": "^a"}}"#, #"{"tags": {"$regex": "E", "$options": "i"}}"#, #"{"nums": {"$regex": "1"}}"#,
        #"{"tags": null}"#, #"{"tags": {"$ne": null}}"#, #"{"tags": {"$text": {"$search": {"$term": "a"}}}}"#,
        #"{"s": {"$text": {"$search": {"$term": "jan"}}}}"#,
        #"{"loc": {"__type": "GeoPoint", "latitude": 10, "longitude": 179.9}}"#,
        #"{"loc": {"$in": [{"__type": "GeoPoint", "latitude": 0, "longitude": 0}, 5, null]}}"#,
        #"{"loc": {"$ne": {"__type": "GeoPoint", "latitude": 0, "longitude": 0}}}"#,
        #"{"rel": {"$ne": {"__type": "Pointer", "className": "Other", "objectId": "o1"}}}"#,
        #"{"rel": {"$in": [{"__type": "Pointer", "className": "Other", "objectId": "o3"}, "o4", null]}}"#,
        #"{"rel": {"$nin": ["o4", 5]}}"#, #"{"rel": {"$gt": 5}}"#, #"{"rel": {"$regex": "o"}}"#,
        #"{"loc": {"$geoWithin": {"$polygon": [{"__type": "GeoPoint", "latitude": 0, "longitude": 170}, {"__type": "GeoPoint", "latitude": 20, "longitude": -170}, {"__type": "GeoPoint", "latitude": 20, "longitude": 179.9}]}}}"#,
    ]

    enum Dialect: CaseIterable { case sql, predicate, json }

    static func parse(_ dialect: Dialect, _ text: String) throws -> Query {
        switch dialect {
        case .sql: return Query(className: "Item", predicate: try SQLWhere.parse(text, className: "Item"))
        case .predicate: return Query(className: "Item", predicate: try PredicateFormat.parse(text, className: "Item"))
        case .json: return try ParseWhere.parse(text, className: "Item")
        }
    }

    static func texts(_ dialect: Dialect) -> [String] {
        switch dialect {
        case .sql: return sql
        case .predicate: return predicate
        case .json: return json
        }
    }

    @Test(arguments: Dialect.allCases, [false, true])
    func agreesWithTheReference(dialect: Dialect, indexed: Bool) throws {
        for seed in [1, 2, 3] as [UInt64] {
            let db = Self.database(seed: seed)
            let engine = Engine(database: db, now: { 0 }, random: { 0.5 })
            if indexed {
                for k in ["s", "tags", "nums"] as [FieldPath] { try engine.createIndex(.ordered, on: k, in: "Item") }
                try engine.createIndex(.geo, on: "loc", in: "Item")
            }
            let reference = ReferenceEvaluator(database: db, now: { 0 }, random: { 0.5 })
            for text in Self.texts(dialect) {
                var q = try Self.parse(dialect, text)
                q.limit = 1000
                let expected = EngineAgreementTests.outcome { () throws(Diagnostic) in try reference.run(q) }
                let actual = EngineAgreementTests.outcome { () throws(Diagnostic) in try engine.run(q) }
                #expect(actual == expected, "\(text) (seed \(seed))")
            }
        }
    }

    /// `$variables` are bound into typed leaves per run: the same plan answers for each set
    /// of values as the reference does, and compiles no fallback for scalar values.
    @Test func variablesBindIntoTypedLeaves() throws {
        let db = Self.database(seed: 4)
        let engine = Engine(database: db, now: { 0 }, random: { 0.5 })
        let texts = [
            "s == $v", "s CONTAINS[c] $v", "s BEGINSWITH $v", "loc.latitude > $n", "nums CONTAINS $n",
            "s IN {$v, 'Jan'}", "loc.latitude BETWEEN {$n, 50}", "$n < loc.longitude",
        ]
        let bindings: [[String: Value]] = [
            ["v": .string("Jan"), "n": .int(5)], ["v": .string("an"), "n": .double(-40.5)],
            ["v": .int(3), "n": .string("x")], ["v": .null, "n": .null],
            ["v": .array([.string("a")]), "n": .array([.int(1)])],
        ]
        for text in texts {
            var q = Query(className: "Item", predicate: try PredicateFormat.parse(text, className: "Item"))
            q.limit = 1000
            for variables in bindings {
                let reference = ReferenceEvaluator(database: db, variables: variables, now: { 0 }, random: { 0.5 })
                let expected = EngineAgreementTests.outcome { () throws(Diagnostic) in try reference.run(q) }
                let actual = EngineAgreementTests.outcome { () throws(Diagnostic) in
                    try engine.run(q, variables: variables)
                }
                #expect(actual == expected, "\(text) with \(variables)")
            }
            #expect(
                FallbackListingTests.fallbacks(try engine.plan(q, variables: ["v", "n"]).plan.filter).isEmpty, "\(text)"
            )
        }
    }

    /// An inner query's values are the run's: the same cached plan run again with other
    /// variables (each run a new run state, possibly where the last one was) reads the new ones.
    @Test func innerValuesAreEachRunsOwn() throws {
        let people = (0..<50).map { record("p\($0)", ["name": .string("n\($0 % 5)")]) }
        let others = (0..<5).map { record("o\($0)", ["tag": .string($0 < 2 ? "a" : "b"), "name": .string("n\($0)")]) }
        let db = Database([ClassData(name: "Person", records: people), ClassData(name: "Other", records: others)])
        let engine = Engine(database: db, now: { 0 }, random: { 0.5 })
        let inner = Query(
            className: "Other", predicate: .leaf(.compare(.key("tag"), .eq, .variable("v"), []), negated: false, .sql))
        let q = Query(
            className: "Person", predicate: .leaf(.select("name", inner, innerKey: "name"), negated: false, .sql))
        for v in ["a", "b", "a", "c", "b", "a"] {
            let variables: [String: Value] = ["v": .string(v)]
            let expected = try ReferenceEvaluator(database: db, variables: variables, now: { 0 }, random: { 0.5 }).run(
                q)
            #expect(try engine.run(q, variables: variables) == expected, "v = \(v)")
        }
    }

    /// Equality with an element of a dictionary-encoded array column compares codes; a string
    /// no row holds has no code, and no element equals it (nor, negated, does any element).
    @Test(arguments: [LeafSemantics.sql, .document, .predicate])
    func codedElementsAreComparedByCode(semantics: LeafSemantics) throws {
        let tags: [[Value]] = [["a", "b"], ["b"], [], ["c", "a", "c"], [.null, "b"]]
        let records = (0..<400).map { Record(objectId: "r\($0)", fields: [("tags", .array(tags[$0 % tags.count]))]) }
        let db = Database([ClassData(name: "Item", records: records)])
        let engine = Engine(database: db)
        let elements = (engine.store.table("Item")?.column("tags") as? ArrayColumn)?.elements as? StringColumn
        #expect(elements?.coded == true)
        let reference = ReferenceEvaluator(database: db)
        for literal in ["a", "b", "c", "", "zz", "aa"] {
            for op in [ComparisonOperator.eq, .ne] {
                for negated in [false, true] {
                    let leaf = Leaf(
                        .compare(.key("tags"), op, .literal(.string(literal)), []), negated: negated,
                        semantics: semantics)
                    let q = Query(className: "Item", predicate: .leaf(leaf))
                    #expect(try engine.run(q) == reference.run(q), "\(op) \(literal) negated \(negated)")
                }
            }
        }
    }

    /// A backtracking string repeated on 100 rows of a coded column is matched once, but each
    /// row is charged its steps against the total regex budget, as the reference charges every
    /// row it matches: budgets under, at and over the 100 rows' charges, on one thread and two.
    @Test(arguments: [UInt64(150_000), 999_999, 1_000_000, 1_500_000])
    func memoizedAnswersChargeTheTotalBudget(total: UInt64) throws {
        let backtracking = String(repeating: "a", count: 14) + "b"
        let records = (0..<300).map {
            Record(objectId: "r\($0)", fields: [("s", .string($0 % 3 == 0 ? backtracking : "J\($0 % 7)"))])
        }
        let db = Database([ClassData(name: "Item", records: records)])
        let limits = Limits(regexMatchLimit: 100_000_000, regexJIT: false, regexTotalLimit: total)
        let reference = ReferenceEvaluator(database: db, limits: limits, now: { 0 }, random: { 0.5 })
        let q = try ParseWhere.parse(#"{"s": {"$regex": "(a+)+$"}}"#, className: "Item")
        let expected = EngineAgreementTests.outcome { () throws(Diagnostic) in try reference.run(q) }
        // 100 rows of 10,000 steps each (the match needs more than the ladder's first limit).
        #expect(expected == (total < 1_000_000 ? .failure("limit.regex") : .result(.records([]))))
        for parallelism in [ScanParallelism.sequential, ScanParallelism(threads: 2, morselRows: 40)] {
            let engine = Engine(database: db, limits: limits, now: { 0 }, random: { 0.5 }, parallelism: parallelism)
            #expect((engine.store.table("Item")?.column("s") as? StringColumn)?.coded == true)
            #expect(EngineAgreementTests.outcome { () throws(Diagnostic) in try engine.run(q) } == expected)
        }
    }

    /// A dictionary-encoded column answers each distinct string once; a regex over its budget
    /// still fails (never remembered as "no match"), on the reference's first failing row, and
    /// rows before it still pass or fail as the reference says.
    @Test func codedColumnsAnswerPerEntryAndFailAsTheReference() throws {
        let long = String(repeating: "a", count: 28) + "!"
        let values = ["Jan", "an", long, "Jan", long, "x"]
        let records = (0..<600).map { Record(objectId: "r\($0)", fields: [("s", .string(values[$0 % values.count]))]) }
        let db = Database([ClassData(name: "Item", records: records)])
        let limits = Limits(regexMatchLimit: 5_000)
        let engine = Engine(database: db, limits: limits, now: { 0 }, random: { 0.5 })
        #expect((engine.store.table("Item")?.column("s") as? StringColumn)?.coded == true)
        let reference = ReferenceEvaluator(database: db, limits: limits, now: { 0 }, random: { 0.5 })
        for text in [
            #"{"s": {"$regex": "^J.n"}}"#, #"{"s": {"$regex": "(a+)+$"}}"#,
            #"{"s": {"$regex": "AN", "$options": "i"}}"#,
            #"{"$or": [{"s": "x"}, {"s": {"$regex": "(a+)+$"}}]}"#,
        ] {
            var q = try ParseWhere.parse(text, className: "Item")
            q.limit = 1000
            let expected = EngineAgreementTests.outcome { () throws(Diagnostic) in try reference.run(q) }
            let actual = EngineAgreementTests.outcome { () throws(Diagnostic) in try engine.run(q) }
            #expect(actual == expected, "\(text)")
        }
        let failing = try ParseWhere.parse(#"{"s": {"$regex": "(a+)+$"}}"#, className: "Item")
        #expect(
            EngineAgreementTests.outcome { () throws(Diagnostic) in try engine.run(failing) } == .failure("limit.regex")
        )

        // The same on array elements: the element that fails first fails the query.
        let arrays = (0..<60).map { n in
            Record(
                objectId: "a\(n)",
                fields: [("tags", .array(n % 5 == 4 ? [.string("Jan"), .string(long)] : [.string("x"), .null]))])
        }
        let arrayDB = Database([ClassData(name: "Item", records: arrays)])
        let arrayEngine = Engine(database: arrayDB, limits: limits, now: { 0 }, random: { 0.5 })
        let arrayReference = ReferenceEvaluator(database: arrayDB, limits: limits, now: { 0 }, random: { 0.5 })
        for text in [
            #"{"tags": {"$regex": "(a+)+$"}}"#, #"{"tags": {"$regex": "^J"}}"#, #"{"tags": {"$not": {"$regex": "x"}}}"#,
        ] {
            guard let q = try? ParseWhere.parse(text, className: "Item") else { continue }
            let expected = EngineAgreementTests.outcome { () throws(Diagnostic) in try arrayReference.run(q) }
            #expect(
                EngineAgreementTests.outcome { () throws(Diagnostic) in try arrayEngine.run(q) } == expected, "\(text)")
        }
    }

    /// None of these queries leaves a leaf to the reference evaluator; the one invalid regex
    /// among them has no plan at all (it fails before any row is read, cached shape or not).
    @Test(arguments: Dialect.allCases)
    func compilesWithoutFallback(dialect: Dialect) throws {
        let engine = Engine(database: Self.database(seed: 1), now: { 0 }, random: { 0.5 })
        for text in Self.texts(dialect) {
            let query = try Self.parse(dialect, text)
            do throws(Diagnostic) {
                let plan = try engine.plan(query).plan
                #expect(FallbackListingTests.fallbacks(plan.filter).isEmpty, "\(text)")
            } catch {
                #expect(text == #"{"s": {"$regex": "["}}"# && error.code == "regex.invalid", "\(text): \(error)")
            }
        }
    }
}

/// Under the document semantics a pointer equals the string of its objectId, in `$all` and
/// `$containedBy` lists too: the compiled list leaf answers as the reference does.
@Suite struct ArrayListPointerMemberTests {
    @Test func aPointerMemberIsItsObjectIdUnderTheDocumentSemantics() throws {
        let items = [
            Record(objectId: "i0", fields: [("tags", .array([.string("c1")]))]),
            Record(objectId: "i1", fields: [("tags", .array([.string("a")]))]),
            Record(objectId: "i2", fields: [("tags", .array([.string("c1"), .string("a")]))]),
            Record(objectId: "i3", fields: [("tags", .array([.string("c2")]))]),
            Record(objectId: "i4", fields: [("tags", .array([]))]),
        ]
        let data = Database([ClassData(name: "Item", records: items)])
        let engine = Engine(database: data), reference = ReferenceEvaluator(database: data)
        let pointer = #"{"__type": "Pointer", "className": "City", "objectId": "c1"}"#
        let cases = [
            (#"{"tags": {"$containedBy": [\#(pointer), "a"]}}"#, ["i0", "i1", "i2", "i4"]),
            (#"{"tags": {"$all": [\#(pointer), "a"]}}"#, ["i2"]),
            (#"{"tags": {"$all": [\#(pointer)]}}"#, ["i0", "i2"]),
        ]
        for (text, ids) in cases {
            let query = try Dialect.json.compile(text, className: "Item")
            #expect(try engine.run(query).records.map(\.objectId) == ids, "\(text)")
            #expect(try reference.run(query).records.map(\.objectId) == ids, "\(text)")
        }
    }
}
