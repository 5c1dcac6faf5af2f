import QuarryPredicate
import QuarrySQL
import QuarryCore
import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// Plans cached by shape: a query that differs from a cached one only in its literals gets
/// a plan for its own literals (never the cached one's answer), the same query reuses its
/// plan, and changes to the data or the indexes drop every plan.
@Suite struct PlanCacheTests {
    typealias Outcome = EngineAgreementTests.Outcome

    static func outcome(_ body: () throws(Diagnostic) -> QueryResult) -> Outcome { EngineAgreementTests.outcome(body) }

    // MARK: - Rebinding agrees with the reference

    /// For random queries: shape A with literals L1, then with L2, then L1 again, each equal to
    /// the reference for its own literals. L2 redraws every scalar literal, mostly keeping its
    /// type (the same shape: a rebind), sometimes changing it (another shape), and the center
    /// of each distance in the order.
    static func checkRebinding(seed: UInt64, indexes: [(IndexKind, FieldPath, String)]) -> Engine.PlanCounts {
        var random = RandomData(seed: seed)
        let db = random.database(items: 40, others: 6)
        let engine = Engine(database: db, now: { 1_700_000_000_000 }, random: { 0.5 })
        for (kind, key, className) in indexes { try? engine.createIndex(kind, on: key, in: className) }
        let reference = ReferenceEvaluator(database: db, now: { 1_700_000_000_000 }, random: { 0.5 })
        for _ in 0..<200 {
            let first = random.query(depth: 2)
            var second = first
            second.predicate = random.redrawLiterals(first.predicate)
            // A distance order's center is a parameter too.
            second.order = first.order.map { key in
                guard case .distance(let path, _, let direction) = key else { return key }
                return .distance(path, from: random.pick(RandomData.points), direction)
            }
            for q in [first, second, first, second] {
                let expected = outcome { () throws(Diagnostic) in try reference.run(q) }
                let actual = outcome { () throws(Diagnostic) in try engine.run(q) }
                if actual != expected {
                    Issue.record(
                        "\(actual) vs \(expected) for \(PredicateText.render(q.predicate)) after \(PredicateText.render(first.predicate))"
                    )
                    return engine.planCounts
                }
            }
        }
        return engine.planCounts
    }

    /// IN lists over typed columns (strings dictionary-encoded and plain, short and long,
    /// case-insensitive, ints, doubles with -0.0 and NaN) and element equality on an array of
    /// strings read their literals from the execution: each set of literals binds the cached
    /// plan without planning again, and answers as the reference does for its own literals.
    @Test func membersAndElementsAreParameters() throws {
        let names = ["Ann", "Bob", "Zoe", "Ann", "straße", "a-much-longer-name-than-eight"]
        let records = (0..<120).map { i in
            record(
                "r\(i)",
                [
                    "s": .string(names[i % names.count]),
                    "t": .string("t\(i)-\(String(repeating: "x", count: i % 12))"),
                    "n": .int(Int64(i % 9)), "d": .double([0.5, -0.0, .nan, 2, 7.25][i % 5]),
                    "tags": .array([.string(names[i % 4]), .string("k\(i % 3)")]),
                ])
        }
        let db = database(("T", records))
        let engine = Engine(database: db)
        let reference = ReferenceEvaluator(database: db)
        func inList(_ key: FieldPath, _ values: [Value], _ options: StringOptions = []) -> Filter {
            .leaf(.inCollection(.key(key), .list(values.map { .literal($0) }), options), negated: false, .sql)
        }
        let shapes: [[Filter]] = [
            [
                inList("s", ["Ann", "Bob"]), inList("s", ["Zoe", "nobody"]),
                inList("s", ["a-much-longer-name-than-eight", "Bob"]),
            ],
            [inList("s", ["ANN", "STRASSE"], [.caseInsensitive]), inList("s", ["zoe", "bob"], [.caseInsensitive])],
            [inList("t", ["t1-x", "t30-xxxxxx"]), inList("t", ["t2-xx", "t119-xxxxxxxxxxx"])],
            [inList("n", [1, 2, 3]), inList("n", [8, 0, 4]), inList("n", [7, 100, -1])],
            [inList("d", [0.5, 2.0]), inList("d", [0.0, .double(.nan)]), inList("d", [7.25, 3.5])],
            [compare("tags", .eq, "Ann", .sql), compare("tags", .eq, "k2", .sql), compare("tags", .eq, "none", .sql)],
            [compare("s", .eq, "Ann", .sql), compare("s", .eq, "a-much-longer-name-than-eight", .sql)],
            [compare("s", .ne, "Bob", .document), compare("s", .ne, "straße", .document)],
            [compare("t", .gt, "t5", .sql), compare("t", .gt, "t77", .sql)],
            [
                .leaf(.compare(.key("s"), .eq, .literal("ann"), [.caseInsensitive]), negated: false, .predicate),
                .leaf(.compare(.key("s"), .eq, .literal("STRASSE"), [.caseInsensitive]), negated: false, .predicate),
            ],
            [
                .leaf(.between(.key("t"), lower: .literal("t1"), upper: .literal("t3")), negated: false, .sql),
                .leaf(.between(.key("t"), lower: .literal("t40"), upper: .literal("t9")), negated: false, .sql),
            ],
        ]
        for shape in shapes {
            let before = engine.planCounts
            for predicate in shape + shape {
                let q = Query(className: "T", predicate: predicate)
                #expect(try engine.run(q) == reference.run(q), "\(PredicateText.render(predicate))")
            }
            let counts = engine.planCounts
            #expect(counts.built == before.built + 1, "\(PredicateText.render(shape[0]))")
            #expect(counts.bound > before.bound, "\(PredicateText.render(shape[0]))")
            #expect(counts.rebound == before.rebound, "\(PredicateText.render(shape[0]))")
        }
    }

    /// A regular expression on a string column (dictionary-encoded and plain, with non-ASCII
    /// names) or on an array's elements reads its compiled pattern from each execution: every valid pattern of the shape
    /// binds the cached plan, answering as the reference does for it (whose per-entry answers
    /// are those of the execution's pattern, not the last one's); an invalid pattern fails,
    /// located, as in the reference, and a pattern that runs past the regex budget fails as
    /// there too; the cached plan still answers the patterns after them.
    @Test(arguments: [false, true]) func regularExpressionsAreParameters(inParallel: Bool) throws {
        let names = ["Ann", "Bob", "Zoë", "ann", "straße", "aaaaaaaaaaaaaaaaaaaaaaaaaaaa!"]
        let records = (0..<120).map { i in
            record(
                "r\(i)",
                [
                    "s": .string(names[i % names.count]),
                    "t": .string("t\(i)-\(String(repeating: "x", count: i % 12))"),
                    "tags": .array([.string(names[(i + 1) % names.count]), .string("k\(i % 3)")]),
                ])
        }
        let db = database(("T", records))
        var limits = Limits.default
        limits.regexMatchLimit = 20_000
        limits.regexTotalLimit = 100_000
        let engine = Engine(
            database: db, limits: limits,
            parallelism: inParallel ? ScanParallelism(threads: 2, morselRows: 16) : ScanParallelism(threads: 1))
        let reference = ReferenceEvaluator(database: db, limits: limits)
        func regex(
            _ key: FieldPath, _ pattern: String, _ flags: RegexFlags = [], _ options: StringOptions = [],
            negated: Bool = false, _ semantics: LeafSemantics = .document
        ) -> Filter {
            .leaf(
                .string(
                    .key(key), .matches(RegexOptions(wholeString: false, flags: flags)), .literal(.string(pattern)),
                    options),
                negated: negated, semantics)
        }
        let shapes: [[Filter]] = [
            ["^A", "n$", "(ë|ß)", "^$", "(", "^(a+)+$", "o", "^A"].map { regex("s", $0) },
            ["^a", "B", "ZOE", "(", "ss"].map { regex("s", $0, [.caseInsensitive]) },
            ["oe", "^zo", "e$"].map { regex("s", $0, [.caseInsensitive], [.diacriticInsensitive]) },
            ["^A", "b"].map { regex("s", $0, negated: true) },
            ["^A", "b", "["].map { regex("s", $0, negated: true, .sql) },
            ["x{3}$", "^t1", "-$", "^(x+x+)+y"].map { regex("t", $0) },
            // An array's string elements, any of which may match.
            ["^k1", "n$", "(", "^(a+)+$", "^[AB]"].map { regex("tags", $0) },
            ["^k1", "n$"].map { regex("tags", $0, negated: true, .sql) },
        ]
        func failure(_ body: () throws(Diagnostic) -> QueryResult) -> (String, SourceRange?)? {
            do throws(Diagnostic) { _ = try body() } catch { return (error.code, error.range) }
            return nil
        }
        for shape in shapes {
            let before = engine.planCounts
            for predicate in shape + shape {
                var q = Query(className: "T", predicate: predicate)
                q.order = [.key("t", .ascending)]
                let expected = Self.outcome { () throws(Diagnostic) in try reference.run(q) }
                #expect(
                    Self.outcome { () throws(Diagnostic) in try engine.run(q) } == expected,
                    "\(PredicateText.render(predicate))")
                if let error = failure({ () throws(Diagnostic) in try reference.run(q) }) {
                    #expect(failure { () throws(Diagnostic) in try engine.run(q) }.map { $0 == error } == true)
                }
            }
            let counts = engine.planCounts
            #expect(counts.built == before.built + 1, "\(PredicateText.render(shape[0]))")
            #expect(counts.bound > before.bound, "\(PredicateText.render(shape[0]))")
            #expect(counts.rebound == before.rebound, "\(PredicateText.render(shape[0]))")
        }
    }

    /// A new literal a parameter's check refuses (under SQL, a string that is no date, in an IN
    /// list over a date column) is planned again: the same located error as the reference, and
    /// the cached plan still answers its own literals after it.
    @Test func aRefusedLiteralFailsAsTheReference() throws {
        let records = (0..<20).map { i in record("r\(i)", ["when": .date(1_577_836_800_000 + Int64(i) * 86_400_000)]) }
        let db = database(("T", records))
        let engine = Engine(database: db)
        let reference = ReferenceEvaluator(database: db)
        func query(_ literals: [String]) throws -> Query {
            Query(
                className: "T",
                predicate: try SQLWhere.parse(
                    "when IN (\(literals.map { "'\($0)'" }.joined(separator: ", ")))", className: "T"))
        }
        for literals in [["2020-01-01", "2020-01-03"], ["2020-01-02", "not a date"], ["2020-01-05", "2020-01-04"]] {
            let q = try query(literals)
            let expected = Self.outcome { () throws(Diagnostic) in try reference.run(q) }
            #expect(Self.outcome { () throws(Diagnostic) in try engine.run(q) } == expected, "\(literals)")
            if literals.contains("not a date") {
                func range(_ body: () throws(Diagnostic) -> QueryResult) -> SourceRange? {
                    do throws(Diagnostic) { _ = try body() } catch { return error.range }
                    return nil
                }
                let located = range { () throws(Diagnostic) in try engine.run(q) }
                #expect(located != nil)
                #expect(located == range { () throws(Diagnostic) in try reference.run(q) })
            }
        }
    }

    /// A lookup through an index that covers its leaf (equality, IN, ranges, BETWEEN)
    /// reads the leaf's literals from each execution, and so does a conjunct on another indexed
    /// key that the lookup leaves to the filter: every literal of the shape binds the
    /// cached plan, answering as the reference does for it. (A null member under the document
    /// semantics keeps the lookup from covering the leaf: the leaf stays in the filter.)
    @Test(arguments: [IndexKind.hash, .ordered], [1, 2])
    func indexLookupsReadTheirLiterals(kind: IndexKind, threads: Int) throws {
        let firstNames = ["Ann", "Bob", "Zoe", "Joe"]
        let records = (0..<3000).map { (i: Int) -> Record in
            let name: Value = i % 17 == 0 ? .null : .string(firstNames[i % 4] + String(i % 23))
            return record("r\(i)", ["s": name, "n": .int(Int64(i % 31)), "d": .double(Double(i % 13) / 4)])
        }
        let db = database(("T", records))
        // On two threads, scans of 8-row morsels run the filter's copies too.
        let engine = Engine(database: db, parallelism: ScanParallelism(threads: threads, morselRows: 8))
        for key in ["s", "n", "d"] as [FieldPath] { try engine.createIndex(kind, on: key, in: "T") }
        let reference = ReferenceEvaluator(database: db)
        func sql(_ text: String) throws -> Filter { try SQLWhere.parse(text, className: "T") }
        var shapes: [[String]] = [
            ["s = 'Ann4'", "s = 'Zoe0'", "s = 'nobody'", "s = 'Bob9'"],
            ["n = 7", "n = 30", "n = 99", "n = -1"],
            ["d = 0.5", "d = 3.0", "d = 2.75"],
            ["s IN ('Ann4', 'Joe3')", "s IN ('Zoe2', 'nobody')", "s IN ('Joe3', 'Joe3')"],
            ["n IN (1, 2, 3)", "n IN (30, 0, 100)"],
            // Scanned (no lookup serves them under a hash index) and filtered on both threads.
            ["n <> 5", "n <> 3", "n <> 40"],
            ["d < 1.25", "d < 0.0", "d < 99.5"],
            // One lookup covers one conjunct; the other, on an indexed key too, is filtered.
            ["n = 7 AND d < 1.25", "n = 30 AND d < 0.0", "n = 3 AND d < 99.5"],
            ["s = 'Ann4' AND n <> 5", "s = 'Joe3' AND n <> 3", "s = 'nobody' AND n <> 0"],
        ]
        if kind == .ordered {
            shapes += [
                ["n > 20", "n > 29", "n > -5", "n > 40"],
                ["n <= 3", "n <= 0", "n <= 30"],
                ["n BETWEEN 3 AND 5", "n BETWEEN 10 AND 2", "n BETWEEN 0 AND 30"],
                ["s >= 'Joe'", "s >= 'Zoe'", "s >= ''"],
            ]
        }
        for shape in shapes {
            let before = engine.planCounts
            for text in shape + shape {
                let q = Query(className: "T", predicate: try sql(text))
                #expect(try engine.run(q) == reference.run(q), "\(text)")
            }
            let counts = engine.planCounts
            #expect(counts.built == before.built + 1, "\(shape[0]): planned \(counts.built - before.built) times")
            #expect(counts.bound > before.bound, "\(shape[0])")
        }
        // Under the document semantics a null member keeps the lookup from covering the leaf.
        let members: [Value] = ["Ann4", "Joe3"]
        for list in [members, ["Bob5", .null]] {
            let q = Query(
                className: "T",
                predicate: .leaf(
                    .inCollection(.key("s"), .list(list.map { .literal($0) }), []), negated: false, .document))
            #expect(try engine.run(q) == reference.run(q), "\(list)")
        }
    }

    /// A simple LIKE pattern, rewritten into a prefix, suffix or substring test, and those
    /// tests written as such read their text from each execution: every pattern of the shape
    /// that makes the same test binds the cached plan and answers as the reference does for
    /// it; one that makes another test (or an empty text under NSPredicate's semantics, no
    /// test of the same kind) is planned again, with the right answer too.
    @Test(arguments: [1, 2])
    func stringTestsReadTheirText(threads: Int) throws {
        let names = ["Ann", "ann", "Zoë", "Joe", "Jo%e", "Émile"]
        let records = (0..<3000).map { (i: Int) -> Record in
            let name: Value = i % 19 == 0 ? .null : .string(names[i % 6] + String(i % 23))
            return record("r\(i)", ["s": name, "n": .int(Int64(i % 31))])
        }
        let db = database(("T", records))
        // On two threads, scans of 8-row morsels run the filter's copies too.
        let engine = Engine(database: db, parallelism: ScanParallelism(threads: threads, morselRows: 8))
        let reference = ReferenceEvaluator(database: db)
        func query(_ text: String) throws -> Query {
            let predicate =
                text.hasPrefix("ns:")
                ? try PredicateFormat.parse(String(text.dropFirst(3)), className: "T")
                : try SQLWhere.parse(text, className: "T")
            return Query(className: "T", predicate: predicate)
        }
        func expectAnswers(_ text: String) throws {
            let q = try query(text)
            #expect(try engine.run(q) == reference.run(q), "\(text)")
        }
        // After the first of a group is planned, every other binds its plan.
        let bound: [[String]] = [
            ["s LIKE 'Ann%'", "s LIKE 'Zo%'", "s LIKE 'nobody%'", "s LIKE 'É%'"],
            ["s LIKE 'Jo\\%%' ESCAPE '\\'", "s LIKE 'Ann\\%%' ESCAPE '\\'", "s LIKE 'J%' ESCAPE '\\'"],
            ["s LIKE '%4'", "s LIKE '%e1'", "s LIKE '%22'"],
            ["s LIKE '%nn%'", "s LIKE '%o%'", "s LIKE '%J%'", "s LIKE '%ë1%'"],
            ["n > 5 AND s LIKE 'J%'", "n > 20 AND s LIKE 'Zo%'", "n > 0 AND s LIKE 'Émile1%'"],
            ["NOT (s LIKE 'A%')", "NOT (s LIKE 'Jo%')"],
            ["ns:s LIKE[cd] 'ann*'", "ns:s LIKE[cd] 'ZOE*'", "ns:s LIKE[cd] 'emile*'"],
            ["ns:s BEGINSWITH[c] 'an'", "ns:s BEGINSWITH[c] 'Z'", "ns:s BEGINSWITH[c] 'jo%'"],
            ["ns:s ENDSWITH[cd] 'e1'", "ns:s ENDSWITH[cd] 'N4'", "ns:s ENDSWITH[cd] '22'"],
            // `'nn' IN s` for a string `s`: a substring test.
            ["ns:s CONTAINS 'nn'", "ns:s CONTAINS 'ë'", "ns:s CONTAINS '9'"],
        ]
        for group in bound {
            try expectAnswers(group[0])
            for text in group.dropFirst() + group {
                let before = engine.planCounts
                try expectAnswers(text)
                let counts = engine.planCounts
                #expect(counts.built == before.built && counts.rebound == before.rebound, "planned again: \(text)")
            }
        }
        // Each pattern makes another test than the one before it (or a general LIKE, or an empty
        // text under NSPredicate's semantics): none binds the plan before it.
        let replanned: [[String]] = [
            ["s LIKE 'Bob%'", "s LIKE '%'", "s LIKE '%nn%'", "s LIKE 'A_n%'", "s LIKE '%o%'", "s LIKE 'Ann4'"],
            ["ns:s LIKE 'Ann*'", "ns:s LIKE '*'", "ns:s LIKE 'Zo*'"],
            ["ns:s BEGINSWITH 'An'", "ns:s BEGINSWITH ''", "ns:s BEGINSWITH 'Jo'"],
        ]
        for group in replanned {
            let before = engine.planCounts
            for text in group { try expectAnswers(text) }
            #expect(engine.planCounts.bound == before.bound, "\(group)")
        }
    }

    /// The test's own seeds rebind many plans; the extra seeds of `make soak` check answers only.
    @Test(arguments: SoakSeeds.seeds([11, 12, 13], more: 1000))
    func rebindingWithoutIndexes(seed: UInt64) {
        let counts = Self.checkRebinding(seed: seed, indexes: [])
        if seed < 1000 { #expect(counts.rebound > 100) }
    }

    @Test(arguments: [IndexKind.hash, .ordered], SoakSeeds.seeds([14, 15], more: 2000))
    func rebindingWithValueIndexes(kind: IndexKind, seed: UInt64) {
        let counts = Self.checkRebinding(
            seed: seed, indexes: EngineAgreementTests.indexedKeys.map { (kind, $0, "Item") })
        if seed < 1000 { #expect(counts.rebound > 100) }
    }

    @Test func rebindingWithGeoIndexes() {
        let counts = Self.checkRebinding(seed: 16, indexes: [(.geo, "g", "Item"), (.geo, "m", "Item")])
        #expect(counts.rebound > 100)
    }

    /// Places at random points, with a few whose location is null, missing, a string or a
    /// polygon (which no point condition matches or the reference alone decides).
    static let places: Database = {
        var r = SplitMix64(seed: 41)
        var rows: [Record] = []
        for i in 0..<300 {
            let location: Value? =
                switch i % 25 {
                case 0: .null
                case 1: nil
                case 2: .string("here")
                default:
                    .geoPoint(
                        GeoPoint(
                            latitude: Double(r.int(-8_000...8_000)) / 100,
                            longitude: Double(r.int(-17_000...17_000)) / 100
                        ))
                }
            rows.append(
                location.map { record("g\(i)", ["n": .int(Int64(i)), "location": $0]) }
                    ?? record("g\(i)", ["n": .int(Int64(i))]))
        }
        return database(("Place", rows))
    }()

    /// An order by distance takes its center from the running query: a `$nearSphere`'s center,
    /// which is also its order's, and an order's own center are parameters of one plan, bound
    /// without planning again; every answer is the reference's, in its order (all rows, a page,
    /// and the first rows a parallel scan's morsels keep).
    @Test(arguments: [1, 2]) func aDistanceOrdersCenterIsAParameter(threads: Int) throws {
        let engine = Engine(database: Self.places, parallelism: ScanParallelism(threads: threads, morselRows: 64))
        let reference = ReferenceEvaluator(database: Self.places)
        func p(_ lat: Double, _ lon: Double) -> GeoPoint { GeoPoint(latitude: lat, longitude: lon) }
        let centers = [p(10, 20), p(-30, 100), p(80, -170), p(0, 0), p(-45.5, 5.25)]
        let shapes: [(GeoPoint, Int?) -> Query] = [
            { c, limit in
                var q = Query(
                    className: "Place",
                    predicate: .leaf(
                        Leaf(
                            .geo(.near("location", c, maxDistance: Distance(5000, .kilometers))), negated: false,
                            semantics: .document)))
                q.order = [.distance("location", from: c, .ascending)]
                q.limit = limit
                return q
            },
            { c, limit in
                var q = Query(className: "Place", predicate: compare("n", .gt, 3, .document))
                q.order = [.distance("location", from: c, .descending), .key("n", .ascending)]
                q.limit = limit
                return q
            },
        ]
        for shape in shapes {
            for limit in [nil, 7] as [Int?] {
                let before = engine.planCounts
                for c in centers + centers {
                    let q = shape(c, limit)
                    let expected = Self.outcome { () throws(Diagnostic) in try reference.run(q) }
                    #expect(
                        Self.outcome { () throws(Diagnostic) in try engine.run(q) } == expected, "\(c) \(limit ?? -1)")
                }
                let counts = engine.planCounts
                #expect(counts.built == before.built + 1, "\(counts)")
                #expect(counts.rebound == before.rebound, "\(counts)")
                #expect(counts.bound >= before.bound + centers.count, "\(counts)")
            }
        }
    }

    /// An ordered index walked in the order's first key sorts the rows of one key by the rest of
    /// the order: a plan that walks it keeps a distance's center there, and another center is
    /// planned again (it had sorted the ties from the first center: the soak's seed 2013).
    @Test func anIndexWalkKeepsTheRestOfItsOrder() throws {
        func p(_ lat: Double, _ lon: Double) -> GeoPoint { GeoPoint(latitude: lat, longitude: lon) }
        let rows = (0..<60).map { (i: Int) -> Record in
            let location = p(Double(i * 3 - 90), Double(i * 6 - 180))
            return record("r\(i)", ["k": .int(Int64(i % 4)), "location": .geoPoint(location)])
        }
        let db = database(("T", rows))
        let engine = Engine(database: db)
        try engine.createIndex(IndexKind.ordered, on: "k", in: "T")
        let reference = ReferenceEvaluator(database: db)
        for c in [p(10, 20), p(-60, 100), p(80, -170), p(10, 20)] {
            var q = Query(className: "T", predicate: .constant(true))
            q.order = [.key("k", .ascending), .distance("location", from: c, .ascending)]
            q.limit = 9
            #expect(try engine.run(q).objectIds == reference.run(q).objectIds, "\(c)")
            #expect(try engine.explain(q).description.contains("from the index walk"), "\(c)")
        }
    }

    /// Geo conditions of every kind, each with several centers, corners, rings and distances
    /// (docs/ARCHITECTURE.md#plan-parameters): one plan for each kind, negation and semantics;
    /// without an index it is bound to the others' values without planning again, with one the
    /// plans that look the index up are planned again; every answer is the reference's.
    @Test(arguments: [false, true]) func geoConditionsAreParameters(indexed: Bool) throws {
        let engine = Engine(database: Self.places)
        if indexed { try engine.createIndex(.geo, on: "location", in: "Place") }
        let reference = ReferenceEvaluator(database: Self.places)
        func p(_ lat: Double, _ lon: Double) -> GeoPoint { GeoPoint(latitude: lat, longitude: lon) }
        func ring(_ lat: Double, _ lon: Double, _ size: Double) -> [GeoPoint] {
            [p(lat, lon), p(lat, lon + size), p(lat + size, lon + size), p(lat, lon)]
        }
        let groups: [[GeoCondition]] = [
            [
                .near("location", p(10, 20), maxDistance: Distance(3000, .kilometers)),
                .near("location", p(-30, 100), maxDistance: Distance(800, .kilometers)),
                .near("location", p(80, -170), maxDistance: Distance(0, .kilometers)),
            ],
            [
                .near("location", p(-30, 100), maxDistance: Distance(0.4, .radians)),
                .near("location", p(60, -10), maxDistance: Distance(1.2, .radians)),
            ],
            [.near("location", p(10, 20), maxDistance: nil), .near("location", p(-45, 5), maxDistance: nil)],
            [
                .withinBox("location", southwest: p(-20, -40), northeast: p(30, 60)),
                .withinBox("location", southwest: p(0, 100), northeast: p(70, 170)),
                .withinBox("location", southwest: p(30, 60), northeast: p(-20, -40)),
            ],
            [
                .withinPolygon("location", ring(-40, -100, 60)), .withinPolygon("location", ring(10, 10, 35)),
                .withinPolygon("location", [p(0, 0), p(50, 50), p(0, 0)]),
            ],
            [
                .withinCircle("location", center: p(0, 0), radius: Distance(2500, .miles)),
                .withinCircle("location", center: p(45, -120), radius: Distance(900, .miles)),
            ],
            [
                .distance("location", from: p(5, 5), .lt, Distance(4000, .kilometers)),
                .distance("location", from: p(-60, 140), .lt, Distance(1500.5, .kilometers)),
                .distance("location", from: p(20, -60), .lt, Distance(-1, .kilometers)),
            ],
            [
                .distance("location", from: p(5, 5), .ge, Distance(3000, .miles)),
                .distance("location", from: p(33.3, 44.4), .ge, Distance(7000, .miles)),
            ],
        ]
        var runs = 0
        for group in groups {
            let before = engine.planCounts.built
            for negated in [false, true] {
                for semantics in LeafSemantics.allCases {
                    for g in group + group.reversed() {
                        let leaf = Leaf(.geo(g), negated: negated, semantics: semantics)
                        let q = Query(className: "Place", predicate: .leaf(leaf))
                        let expected = Self.outcome { () throws(Diagnostic) in try reference.run(q) }
                        let actual = Self.outcome { () throws(Diagnostic) in try engine.run(q) }
                        #expect(actual == expected, "\(leaf), indexed: \(indexed)")
                        runs += 1
                    }
                }
            }
            #expect(engine.planCounts.built - before == 2 * LeafSemantics.allCases.count, "\(group)")
        }
        // With the index, a plan whose source is an index lookup is planned again for new values.
        let counts = engine.planCounts
        if indexed {
            #expect(counts.rebound > 0, "\(counts)")
        } else {
            #expect(counts.bound > runs / 2, "\(counts)")
        }
    }

    /// `$all` and `$containedBy` read their list's members from each execution: lists of one
    /// length are one plan, bound anew, answering as the reference does; a member of another
    /// kind (a pointer) plans again.
    @Test func arrayListsAreParameters() throws {
        let data = SyntheticData(rows: 300, seed: 5).database()
        let engine = Engine(database: data)
        let reference = ReferenceEvaluator(database: data)
        // Lists of two strings are one shape; the others are shapes of their own.
        let strings: [[Value]] = [
            [.string("a1"), .string("b2")], [.string("a2"), .string("a1")], [.string(""), .string("é")],
            [.string("a1"), .string("a1")], [.string("b2"), .string("zz")], [.string("c1"), .string("a1")],
        ]
        let others: [[Value]] = [
            [.string("a2"), .null], [.int(3), .string("a1")], [.string("b2"), .date(0)], [.null, .null],
            [.pointer(Pointer(className: "City", objectId: "c1")), .string("a1")],
            [.pointer(Pointer(className: "City", objectId: "c2")), .string("a1")],
        ]
        var runs = 0
        for semantics in LeafSemantics.allCases {
            for negated in [false, true] {
                for containsAll in [true, false] {
                    for list in strings + others + strings.reversed() + others.reversed() {
                        let members = Expr.list(list.map(Expr.literal))
                        let condition: Condition =
                            containsAll ? .containsAll(.key("tags"), members) : .containedBy(.key("tags"), members)
                        let q = Query(
                            className: "Person",
                            predicate: .leaf(Leaf(condition, negated: negated, semantics: semantics)))
                        let expected = Self.outcome { () throws(Diagnostic) in try reference.run(q) }
                        let actual = Self.outcome { () throws(Diagnostic) in try engine.run(q) }
                        #expect(actual == expected, "\(q.predicate)")
                        runs += 1
                    }
                }
            }
        }
        // Per leaf kind: the string lists but the first and the one run twice in a row are
        // bound (10 of 12); each other shape is planned once, and the second pointer list again.
        let counts = engine.planCounts, groups = LeafSemantics.allCases.count * 4
        #expect(runs == groups * 24)
        #expect(counts.bound == groups * 10, "\(counts)")
        #expect(counts.built + counts.rebound == groups * 8, "\(counts)")
    }

    // MARK: - Literals that change what the normalizer or the planner does

    static let people: Database = {
        var persons: [Record] = []
        for i in 0..<30 {
            let name: Value = i % 10 == 9 ? .null : .string(["Jane", "Joe", "Ann", "Bob", "J_e"][i % 5] + "\(i)")
            let code: Value = i % 3 == 0 ? .string("\(i)") : .int(Int64(i))
            persons.append(
                record(
                    "p\(i)",
                    [
                        "name": name, "age": .int(Int64(i % 12)), "score": .double(Double(i) / 2),
                        "born": .date(Int64(i) * 86_400_000 * 400), "code": code,
                    ]))
        }
        return database(("Person", persons))
    }()

    /// Pairs of queries of one shape whose literals flip a rewrite or an access path: a
    /// contradiction and a satisfiable range, ranges that merge one way and the other, OR of
    /// equalities whose IN set has repeats or not, LIKE patterns with and without inner
    /// wildcards, date strings that parse or not, equality with a value and with a type the
    /// column does not hold.
    static func pairs(_ s: LeafSemantics) -> [(Filter, Filter)] {
        func c(_ k: FieldPath, _ op: ComparisonOperator, _ v: Value) -> Filter { compare(k, op, v, s) }
        func like(_ p: String) -> Filter {
            .leaf(.string(.key("name"), .like(.sql(escape: nil)), .literal(.string(p)), []), s)
        }
        return [
            (.and([c("age", .gt, 5), c("age", .lt, 3)]), .and([c("age", .gt, 2), c("age", .lt, 9)])),
            (.and([c("age", .gt, 5), c("age", .gt, 8)]), .and([c("age", .gt, 8), c("age", .gt, 5)])),
            (.and([c("age", .eq, 4), c("age", .ne, 4)]), .and([c("age", .eq, 4), c("age", .ne, 5)])),
            (.and([c("age", .ge, 4), c("age", .le, 4)]), .and([c("age", .ge, 5), c("age", .le, 4)])),
            (.or([c("age", .eq, 3), c("age", .eq, 3)]), .or([c("age", .eq, 3), c("age", .eq, 7)])),
            (
                .or([c("name", .eq, "Joe1"), c("name", .eq, "Ann2")]),
                .or([c("name", .eq, "Joe1"), c("name", .eq, "Joe1")])
            ),
            (like("J%"), like("J_e%")),
            (like("%e%"), like("Jo%6")),
            (like("Bob%"), like("%")),
            (c("born", .gt, "1971-01-01"), c("born", .gt, "not a date")),
            (c("born", .lt, .date(400 * 86_400_000 * 10)), c("born", .lt, .date(0))),
            (c("code", .eq, "3"), c("code", .eq, "4")),
            (c("code", .eq, 4), c("code", .eq, 3)),
            (c("score", .ge, 14.5), c("score", .ge, 1e300)),
            (.and([c("score", .gt, 2), c("score", .lt, 2.5)]), .and([c("score", .gt, 2.5), c("score", .lt, 2)])),
            (
                .leaf(.between(.key("age"), lower: .literal(3), upper: .literal(6)), s),
                .leaf(.between(.key("age"), lower: .literal(6), upper: .literal(3)), s)
            ),
            (
                .leaf(.inCollection(.key("age"), .list([.literal(1), .literal(2)]), []), s),
                .leaf(.inCollection(.key("age"), .list([.literal(2), .literal(2)]), []), s)
            ),
        ]
    }

    @Test(arguments: LeafSemantics.allCases, [false, true])
    func literalsThatFlipRewrites(semantics: LeafSemantics, indexed: Bool) {
        let engine = Engine(database: Self.people)
        if indexed {
            for key: FieldPath in ["age", "name", "score", "born", "code"] {
                try? engine.createIndex(.ordered, on: key, in: "Person")
            }
        }
        let reference = ReferenceEvaluator(database: Self.people)
        for (a, b) in Self.pairs(semantics) {
            for p in [a, b, a] {
                let q = Query(className: "Person", predicate: p)
                let expected = Self.outcome { () throws(Diagnostic) in try reference.run(q) }
                let actual = Self.outcome { () throws(Diagnostic) in try engine.run(q) }
                #expect(actual == expected, "\(PredicateText.render(p)) after \(PredicateText.render(a))")
            }
        }
        #expect(engine.planCounts.rebound + engine.planCounts.bound >= Self.pairs(semantics).count)
    }

    // MARK: - When the cache is used

    /// A leaf's slots are counted without building its shape: as many as the shape takes out.
    @Test(arguments: [21, 22] as [UInt64]) func literalCountIsTheShapesLiterals(seed: UInt64) {
        // Literals the shape takes out (numbers, strings, dates, bools) and ones it keeps (null,
        // arrays, geo points, objects).
        let constants: [Value] = [
            .int(1), .double(2.5), .string("a"), .date(5), .bool(true), .null, .array([.int(1), .string("b")]),
            .geoPoint(GeoPoint(latitude: 1, longitude: 2)), .object(["k": .int(1)]),
        ]
        var generator = RandomIR(
            seed: seed,
            subset: .anySemantics(keys: ["a", "b.c"], constants: constants, semantics: LeafSemantics.allCases))
        var counted = 0
        for _ in 0..<300 {
            generator.filter().forEachLeaf { l in
                var builder = PlanShape.Builder()
                _ = builder.leaf(l)
                #expect(PlanShape.literalCount(of: l) == builder.literals.count, "\(l)")
                counted += builder.literals.count
            }
        }
        #expect(counted > 200)
    }

    /// Each leaf's slots follow the literals of the leaves before it; a leaf written twice has
    /// none, whether the leaves are few (compared) or many (hashed).
    @Test(arguments: [3, 40]) func leafSlotsNumberTheLiteralsInOrder(count: Int) {
        let leaves = (0..<count).map { i -> Leaf in
            i % 2 == 0
                ? Leaf(.compare(.key("a"), .gt, .literal(.int(Int64(i))), []), semantics: .sql)
                : Leaf(
                    .between(.key("b"), lower: .literal(.double(Double(i))), upper: .literal(.int(99))), semantics: .sql
                )
        }
        let repeated = leaves[1]
        let slots = LeafSlots(LeafLiterals.of(.or(leaves.map { .leaf($0) } + [.leaf(repeated)])))
        var next = 0
        for (i, l) in leaves.enumerated() {
            let width = i % 2 == 0 ? 1 : 2
            #expect(slots.slots(of: l) == (i == 1 ? nil : next..<(next + width)), "leaf \(i)")
            next += width
        }
        #expect(slots.slots(of: Leaf(.compare(.key("c"), .eq, .literal(.int(0)), []), semantics: .sql)) == nil)
    }

    @Test func theSameQueryReusesItsPlan() throws {
        let engine = Engine(database: Self.people)
        let q = Query(className: "Person", predicate: compare("age", .gt, 5, .sql))
        _ = try engine.run(q)
        _ = try engine.run(q)
        _ = try engine.prepare(q).run()
        #expect(engine.planCounts == Engine.PlanCounts(built: 1, reused: 3, rebound: 0))
    }

    /// An int range's literal is read from the execution: the cached plan runs unchanged.
    @Test func newLiteralsOfACachedShapeAreBound() throws {
        let engine = Engine(database: Self.people)
        _ = try engine.run(Query(className: "Person", predicate: compare("age", .gt, 5, .sql)))
        let result = try engine.run(Query(className: "Person", predicate: compare("age", .gt, 9, .sql)))
        #expect(engine.planCounts == Engine.PlanCounts(built: 1, reused: 0, rebound: 0, bound: 1))
        #expect(result.objectIds == ["p10", "p11", "p22", "p23"])
    }

    /// A run that fails in an OR's later arm leaves none of the rows its earlier arms passed
    /// marked in the cached plan: the next run of the shape reads every row again (it had
    /// passed them unread: a wrong answer, or none of the error the reference gives).
    @Test func aFailedRunLeavesTheCachedPlanAsItWas() throws {
        let items = database(
            (
                "Item",
                [
                    record("r0", ["dt": .date(0), "tags": .array([.date(5)])]),
                    record("r1", ["dt": .date(100), "tags": .array([])]),
                ]
            ))
        let engine = Engine(database: items)
        let reference = ReferenceEvaluator(database: items)
        // `dt != date(L) OR ANY tags == 'É'`: comparing a date element with 'É' is an error.
        let query = { (l: Int64) in
            Query(
                className: "Item",
                predicate: .or([
                    .leaf(Leaf(.compare(.key("dt"), .ne, .literal(.date(l)), []), semantics: .sql)),
                    .leaf(
                        Leaf(
                            .quantified(
                                .any, .key("tags"), variable: "x",
                                .leaf(Leaf(.compare(.variable("x"), .eq, .literal(.string("É")), []), semantics: .sql))),
                            semantics: .predicate)),
                ]))
        }
        // r1 passes the first arm, and r0 fails the second (the first error in row order is
        // found again row by row, which reads the rows up to r0 only).
        #expect(throws: Diagnostic.self) { try engine.run(query(0)) }
        #expect(throws: Diagnostic.self) { try reference.run(query(0)) }
        // r0 passes the first arm; r1 fails both.
        #expect(try engine.run(query(100)).objectIds == ["r0"])
        #expect(try reference.run(query(100)).objectIds == ["r0"])
        #expect(engine.planCounts == Engine.PlanCounts(built: 1, reused: 0, rebound: 0, bound: 1))
    }

    /// NSPredicate's empty prefix is in no string (Foundation), where every entry of an ordered
    /// index has it: the index is not looked up for it, planned afresh or bound to the plan of
    /// another prefix (the lookup had answered every string).
    @Test func anEmptyPrefixFindsNothingThroughAnIndexUnderNSPredicate() throws {
        let engine = Engine(database: Self.people)
        try engine.createIndex(.ordered, on: "name", in: "Person")
        let reference = ReferenceEvaluator(database: Self.people)
        let prefix = { (p: String, negated: Bool, s: LeafSemantics) in
            Query(
                className: "Person",
                predicate: .leaf(
                    Leaf(.string(.key("name"), .beginsWith, .literal(.string(p)), []), negated: negated, semantics: s)))
        }
        for q in [
            prefix("Jo", false, .predicate), prefix("", false, .predicate), prefix("", true, .predicate),
            prefix("", false, .document),
        ] {
            #expect(try engine.run(q).objectIds == (try reference.run(q).objectIds))
        }
        #expect(try engine.run(prefix("", false, .predicate)).objectIds == [])
        #expect(try engine.run(prefix("", true, .predicate)).objectIds.count == 30)
        #expect(try engine.run(prefix("", false, .document)).objectIds.count == 27)
    }

    @Test func anotherTypeOrKeyOrLimitIsAnotherShape() throws {
        let engine = Engine(database: Self.people)
        _ = try engine.run(Query(className: "Person", predicate: compare("age", .gt, 5, .sql)))
        _ = try engine.run(Query(className: "Person", predicate: compare("age", .gt, 5.5, .sql)))
        _ = try engine.run(Query(className: "Person", predicate: compare("score", .gt, 5, .sql)))
        _ = try engine.run(Query(className: "Person", predicate: compare("age", .gt, 5, .sql), limit: 3))
        _ = try engine.run(Query(className: "Person", predicate: compare("age", .gt, .null, .sql)))
        #expect(engine.planCounts == Engine.PlanCounts(built: 5, reused: 0, rebound: 0))
    }

    /// Points only (a box needs every row to reach at most one), some null or missing.
    static let points: Database = {
        var r = SplitMix64(seed: 43)
        let rows = (0..<2_000).map { i -> Record in
            let point = Value.geoPoint(
                GeoPoint(
                    latitude: Double(r.int(-8_000...8_000)) / 100, longitude: Double(r.int(-17_000...17_000)) / 100))
            return i % 50 == 1
                ? record("p\(i)", ["n": .int(Int64(i))])
                : record("p\(i)", ["n": .int(Int64(i)), "location": i % 50 == 0 ? .null : point])
        }
        return database(("Place", rows))
    }()

    /// Ranges of a geo-indexed key's latitude and longitude make one box of the grid, which
    /// reads their literals from each execution (docs/ARCHITECTURE.md#plan-parameters): new
    /// bounds (wider, narrower, empty, inverted, ints, an int no double holds) run the cached
    /// plan with a box of their own, and answer as the reference; ranges the normalizer merges,
    /// and a range written twice (no slots), keep their literals and are planned again.
    @Test func aCoordinateBoxReadsItsRanges() throws {
        let data = Self.points
        let engine = Engine(database: data)
        try engine.createIndex(.geo, on: "location", in: "Place")
        let reference = ReferenceEvaluator(database: data)
        func box(_ s: Value, _ n: Value, _ w: Value, _ e: Value, more: [Filter] = []) -> Filter {
            .and(
                [
                    .leaf(.between(.key("location.latitude"), lower: .literal(s), upper: .literal(n)), .sql),
                    compare("location.longitude", .ge, w, .sql), compare("location.longitude", .lt, e, .sql),
                ] + more)
        }
        let groups: [[Filter]] = [
            [
                box(3.5, 30.5, -20.5, 40.5), box(-70.25, 10.5, 100.5, 170.5), box(10.5, 10.5, -180.5, 180.5),
                box(40.5, -40.5, 0.5, 50.5), box(-90.5, 90.5, -1e300, 1e300), box(5.5, 6.5, 7.5, 8.5),
            ],
            [box(3, 30, -20, 40), box(-90, 90, 9_007_199_254_740_993, 180), box(-5, 5, -9_007_199_254_740_993, 0)],
            [
                box(3.5, 30.5, -20.5, 40.5, more: [compare("n", .gt, 100, .sql)]),
                box(-60.5, 0.5, -170.5, 170.5, more: [compare("n", .gt, 7, .sql)]),
            ],
        ]
        // Two ranges on one coordinate merge in the normalizer, by their values: planned again.
        let merged = [
            box(3.5, 30.5, -20.5, 40.5, more: [compare("location.latitude", .le, 20.5, .sql)]),
            box(-80.5, 80.5, -100.5, 10.5, more: [compare("location.latitude", .le, -5.5, .sql)]),
        ]
        for group in groups + [merged] {
            let before = engine.planCounts
            for p in group + group.reversed() {
                let q = Query(className: "Place", predicate: p)
                let expected = Self.outcome { () throws(Diagnostic) in try reference.run(q) }
                let actual = Self.outcome { () throws(Diagnostic) in try engine.run(q) }
                #expect(actual == expected, "\(PredicateText.render(p))")
            }
            // The last is run twice in a row: its plan is reused.
            let counts = engine.planCounts
            #expect(counts.built - before.built == 1 && counts.reused - before.reused == 1, "\(counts)")
            let planned = group == merged ? counts.rebound - before.rebound : counts.bound - before.bound
            #expect(planned == 2 * group.count - 2, "\(counts)")
        }
        let plan = try engine.explain(Query(className: "Place", predicate: box(1.5, 2.5, 3.5, 4.5))).description
        #expect(plan.contains("box latitude [1.5, 2.5] longitude [3.5, 4.5]"), "\(plan)")
        // The same range twice has no slots: new literals there plan again.
        let twice = { (lo: Value) -> Filter in
            let range = compare("location.latitude", .ge, lo, .sql)
            return .and([range, compare("location.longitude", .le, 50.5, .sql), range])
        }
        let before = engine.planCounts
        for lo in [10.5, 20.5] as [Value] {
            let q = Query(className: "Place", predicate: twice(lo))
            #expect(
                Self.outcome { () throws(Diagnostic) in try engine.run(q) }
                    == Self.outcome { () throws(Diagnostic) in try reference.run(q) })
        }
        #expect(engine.planCounts.bound == before.bound, "\(engine.planCounts)")
    }

    /// A box intersected with another lookup reads its ranges' planned literals, so their
    /// slots stay unbound there (the planner's costs choose such an intersection only for
    /// candidates far costlier to test than the test data's, so the rule is checked on its own).
    @Test func aBoxInAnIntersectionHoldsItsRanges() {
        let grid = GeoIndex(path: "location", className: "Place")
        let box = Probe.box(grid, LatLonBox())
        let other = Probe.geo(grid, [], "near")
        #expect(Planner.intersectsABox(ProbeSource([other, box], estimatedRows: 0)))
        #expect(Planner.intersectsABox(ProbeSource([box, other], estimatedRows: 0)))
        #expect(!Planner.intersectsABox(ProbeSource([box], estimatedRows: 0)))
        #expect(!Planner.intersectsABox(ProbeSource([other, other], estimatedRows: 0)))
        #expect(!Planner.intersectsABox(FullScan(rows: 3)))
    }

    /// A geo condition's values are parameters; its kind, unit, operator and key are its shape.
    @Test func aGeoConditionsValuesAreParametersItsUnitIsShape() throws {
        func shape(_ g: GeoCondition) -> PlanShape? {
            PlanShape.of(Query(className: "Place", predicate: .leaf(Leaf(.geo(g), semantics: .sql))))?.0
        }
        let here = GeoPoint(latitude: 1, longitude: 2), there = GeoPoint(latitude: -3, longitude: 4)
        let km = shape(.distance("location", from: here, .lt, Distance(5, .kilometers)))
        #expect(km != nil)
        #expect(km == shape(.distance("location", from: there, .lt, Distance(7.5, .kilometers))))
        #expect(km != shape(.distance("location", from: here, .lt, Distance(5, .miles))))
        #expect(km != shape(.distance("location", from: here, .le, Distance(5, .kilometers))))
        #expect(km != shape(.distance("other", from: here, .lt, Distance(5, .kilometers))))
        #expect(
            shape(.near("location", here, maxDistance: nil))
                != shape(.near("location", here, maxDistance: Distance(1, .radians))))
        #expect(
            shape(.withinPolygon("location", [here, there, here]))
                == shape(.withinPolygon("location", [there, here, there, here])))
        let (_, literals) = try #require(
            PlanShape.of(
                Query(
                    className: "Place",
                    predicate: .leaf(
                        Leaf(
                            .geo(.withinCircle("location", center: there, radius: Distance(9, .feet))), semantics: .sql)
                    ))))
        #expect(literals == [.double(-3), .double(4), .double(9)])
    }

    /// The cache holds 256 plans; the plan that would be one more empties it first.
    @Test func aFullCacheStartsAgain() throws {
        let engine = Engine(database: Self.people)
        func run(limit: Int) throws {
            _ = try engine.run(Query(className: "Person", predicate: compare("age", .gt, 5, .sql), limit: limit))
        }
        for limit in 1...256 { try run(limit: limit) }
        try run(limit: 1)
        try run(limit: 256)
        #expect(engine.planCounts == Engine.PlanCounts(built: 256, reused: 2, rebound: 0))
        try run(limit: 257)
        try run(limit: 257)
        try run(limit: 1)
        #expect(engine.planCounts == Engine.PlanCounts(built: 258, reused: 3, rebound: 0))
    }

    @Test func changesDropThePlans() throws {
        let engine = Engine(database: Self.people)
        let q = Query(className: "Person", predicate: compare("age", .gt, 10, .sql))
        #expect(try engine.run(q).objectIds == ["p11", "p23"])
        engine.insert(record("p99", ["age": 50]), into: "Person")
        #expect(try engine.run(q).objectIds == ["p11", "p23", "p99"])
        try engine.createIndex(.ordered, on: "age", in: "Person")
        #expect(try engine.run(q).objectIds == ["p11", "p23", "p99"])
        #expect(engine.planCounts == Engine.PlanCounts(built: 3, reused: 0, rebound: 0))
    }

    /// Keys that Swift's `String` equality confuses (canonically equivalent, different bytes)
    /// are never cached; literals are compared byte by byte.
    @Test func canonicalEquivalentsAreNotConfused() throws {
        let db = database(
            ("T", [record("a", ["caf\u{e9}": "x", "s": "caf\u{e9}"]), record("b", ["k": "y", "s": "cafe\u{301}"])]))
        let engine = Engine(database: db)
        let reference = ReferenceEvaluator(database: db)
        for key in ["caf\u{e9}", "cafe\u{301}"] {
            let q = Query(className: "T", predicate: compare(FieldPath([key]), .eq, "x", .sql))
            #expect(try engine.run(q) == reference.run(q))
        }
        #expect(engine.planCounts == Engine.PlanCounts())
        let first = Query(className: "T", predicate: compare("s", .eq, "caf\u{e9}", .sql))
        let second = Query(className: "T", predicate: compare("s", .eq, "cafe\u{301}", .sql))
        #expect(try engine.run(first).objectIds == ["a"])
        #expect(try engine.run(second).objectIds == ["b"])
        // The second literal differs by its bytes: the plan reads it from the execution.
        #expect(engine.planCounts == Engine.PlanCounts(built: 1, reused: 0, rebound: 0, bound: 1))
    }

    /// A cached shape is checked again for another set of variable names.
    @Test func variablesAreCheckedOnEveryShapeHit() throws {
        let engine = Engine(database: Self.people)
        let q = Query(
            className: "Person", predicate: .leaf(.compare(.key("age"), .gt, .variable("min"), []), .predicate))
        #expect(try engine.run(q, variables: ["min": 10]).objectIds == ["p11", "p23"])
        #expect(throws: Diagnostic.self) { try engine.run(q) }
        #expect(try engine.run(q, variables: ["min": 10]).objectIds == ["p11", "p23"])
    }
}

extension RandomData {
    /// The predicate with every scalar literal drawn again: nine times in ten of the same type
    /// (patterns of string tests from patterns), else of any type.
    mutating func redrawLiterals(_ p: Filter) -> Filter {
        switch p {
        case .constant: return p
        case .and(let ps): return .and(ps.map { redrawLiterals($0) })
        case .or(let ps): return .or(ps.map { redrawLiterals($0) })
        case .not(let q): return .not(redrawLiterals(q))
        case .leaf(var l):
            switch l.condition {
            case .compare(let a, let op, let b, let o): l.condition = .compare(redraw(a), op, redraw(b), o)
            case .between(let e, let lo, let hi):
                l.condition = .between(redraw(e), lower: redraw(lo), upper: redraw(hi))
            case .inCollection(let e, let coll, let o): l.condition = .inCollection(redraw(e), redraw(coll), o)
            case .string(let e, let op, .literal(.string), let o):
                let pattern = pick([
                    "a", "J", "jo", "", "%", "a%", "%b", "%e%", "J_e", "j*", "^[aA]", "é", "K%", "Jo%e", "[", "%%",
                ])
                l.condition = .string(e, op, .literal(.string(pattern)), o)
            default: break
            }
            return .leaf(l)
        }
    }

    private mutating func redraw(_ e: Expr) -> Expr {
        switch e {
        case .literal(let v): return .literal(redraw(v))
        case .list(let items): return .list(items.map { redraw($0) })
        default: return e
        }
    }

    private mutating func redraw(_ v: Value) -> Value {
        if chance(10) { return literal() }
        switch v {
        case .int: return .int(pick(Self.ints))
        case .double: return .double(pick(Self.doubles))
        case .string: return .string(pick(Self.strings))
        case .date: return .date(pick(Self.dates))
        case .bool: return .bool(chance(50))
        case .pointer: return .pointer(Pointer(className: "Other", objectId: "o\(int(8))"))
        default: return v
        }
    }
}
