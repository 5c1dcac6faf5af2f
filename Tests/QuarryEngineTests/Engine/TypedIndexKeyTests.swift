import QuarryCore
import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// Ordered indexes hold keys unboxed while every value shares one scalar type. Each test runs
/// the index beside the plain model it must equal (entries keyed by `Value`, sorted by
/// `Value.sortOrder` then row) through builds, inserts, removals and renumbering, and checks
/// which representation it chose.
@Suite struct TypedIndexKeyTests {
    static func entries(_ v: Value?) -> IndexEntries {
        IndexEntries(
            v.map { Record(objectId: "r", fields: [("x", $0)]) } ?? Record(objectId: "r", fields: []), "x",
            KeyPathResolver(source: Database()))
    }

    /// Keys and rows in entry order, as the model orders them (a missing field or a null has
    /// no entry).
    static func modelEntries(_ model: [Value?]) -> [(Value, Int32)] {
        model.indices.flatMap { i -> [(Value, Int32)] in
            guard let v = model[i], !v.isNull else { return [] }
            guard case .array(let items) = v else { return [(v, Int32(i))] }
            var distinct: [Value] = []
            for item in items where !item.isNull && !distinct.contains(item) { distinct.append(item) }
            return distinct.map { ($0, Int32(i)) }
        }.sorted { a, b in
            let c = Value.sortOrder(a.0, b.0)
            return c != 0 ? c < 0 : a.1 < b.1
        }
    }

    /// `deleted`: rows whose object is gone (no entries, and not among the null rows).
    static func check(_ index: ValueIndex, _ model: [Value?], probes: [Value], _ note: Comment, deleted: Int? = nil) {
        let expected = modelEntries(model)
        #expect(index.keys.count == expected.count, note)
        // Same keys, bit for bit (a -0.0 or a NaN stays what it was), same rows.
        #expect(zip(index.keys, expected).allSatisfy { sameBits($0, $1.0) }, note)
        #expect(Array(index.rows) == expected.map(\.1), note)
        let nilRows = model.indices.filter { $0 != deleted && model[$0]?.isNull ?? true }.map(Int32.init)
        #expect(index.nilRows == nilRows, note)
        for v in probes {
            let matching = expected.filter { Value.sortOrder($0.0, v) == 0 }.map(\.1).sorted()
            #expect(index.rows(equalTo: [v]) == matching, "\(note) probe \(v)")
            #expect(index.count(equalTo: v) == matching.count, "\(note) probe \(v)")
            let below = Set(expected.filter { $0.0.typeRank == v.typeRank && Value.sortOrder($0.0, v) < 0 }.map(\.1))
                .sorted()
            #expect(index.rows(in: index.entries(from: nil, to: (v, false))) == below, "\(note) below \(v)")
        }
    }

    static func sameBits(_ a: Value, _ b: Value) -> Bool {
        if case .double(let x) = a, case .double(let y) = b { return x.bitPattern == y.bitPattern }
        return a == b
    }

    static func isTyped<K: OrderedKey>(_ index: ValueIndex, _: K.Type) -> Bool { index.entries is TypedEntries<K> }

    /// Builds over `initial`, then applies `changes` (row, new value; a row past the end is
    /// added) and one delete, checking against the model after each step. The build reads
    /// each row's entries, or, with `fieldValues`, the field's value (as a store's build of a
    /// one-field index does), and must come out the same either way.
    static func run(
        _ initial: [Value?], _ changes: [(Int, Value?)], probes: [Value], fieldValues: Bool = false
    ) -> ValueIndex {
        var model = initial
        let index = ValueIndex(kind: .ordered, path: "x", className: "T")
        if fieldValues {
            index.rebuild(rows: 0..<model.count, fieldValue: { model[$0] }) { Self.entries(model[$0]) }
        } else {
            index.rebuild(rows: 0..<model.count) { Self.entries(model[$0]) }
        }
        check(index, model, probes: probes, "built")
        for (step, (row, v)) in changes.enumerated() {
            if row < model.count {
                index.remove(row, entries(model[row]))
                model[row] = v
            } else {
                model.append(v)
            }
            index.add(row, entries(v))
            check(index, model, probes: probes, "change \(step)")
        }
        if !model.isEmpty {
            // The row stays, with no entries (docs/STORAGE.md#deletes).
            index.remove(0, entries(model[0]))
            model[0] = nil
            check(index, model, probes: probes, "after deleting row 0", deleted: 0)
        }
        return index
    }

    @Test func integersStayTypedAndMeetDoublesByValue() {
        let index = Self.run(
            [.int(3), .int(-7), nil, .int(3), .int(Int64.max), .int(Int64.min)],
            [(6, .int(0)), (1, .int(3))],
            probes: [.int(3), .double(3.0), .double(3.5), .int(Int64.max), .double(-0.0), .int(0)])
        #expect(Self.isTyped(index, IntKey.self))
    }

    @Test func doublesKeepNaNAndNegativeZero() {
        let index = Self.run(
            [.double(.nan), .double(-0.0), .double(0.0), .double(.infinity), .double(-1.5)],
            [(5, .double(.nan)), (2, .double(-.infinity)), (6, .double(-0.0))],
            probes: [.double(.nan), .double(0.0), .int(0), .double(-1.5), .double(.infinity)])
        #expect(Self.isTyped(index, DoubleKey.self))
    }

    @Test func datesStayTyped() {
        let index = Self.run(
            [.date(1_700_000_000_000), .date(-5), .date(1_700_000_000_000)],
            [(3, .date(0)), (0, .date(-5))],
            probes: [.date(-5), .date(1_700_000_000_000), .int(-5), .date(1)])
        #expect(Self.isTyped(index, DateKey.self))
    }

    @Test func stringsWithNonASCIIStayTyped() {
        let index = Self.run(
            [
                .string("Zoë"), .string("zoe"), .string("日本"), .string(""), .string("e\u{301}"),
                .string("\u{E9}"),
            ],
            [(6, .string("Ωmega")), (1, .string("Zoë"))],
            probes: [.string("Zoë"), .string("\u{E9}"), .string("e\u{301}"), .string("日"), .string("")])
        #expect(Self.isTyped(index, StringKey.self))
    }

    @Test func aNewTypeAfterTheBuildWidensTheKeys() {
        // Integers, then a double equal to one of them, then a string: the double fits no
        // integer key, so the keys become values and both 2s are found together.
        let index = Self.run(
            [.int(2), .int(1), .int(5)],
            [(3, .double(2.0)), (4, .string("a")), (0, .int(9))],
            probes: [.int(2), .double(2.0), .string("a"), .int(9), .double(.nan)])
        #expect(Self.isTyped(index, Value.self))
    }

    @Test func mixedTypesAtBuildUseValues() {
        let index = Self.run(
            [.int(1), .double(1.0), .string("1"), .bool(true), .date(1)], [(5, .int(1))],
            probes: [.int(1), .double(1.0), .string("1"), .bool(true), .date(1)])
        #expect(Self.isTyped(index, Value.self))
    }

    @Test func anEmptiedIndexIsTypedAgainByTheNextValue() {
        let index = ValueIndex(kind: .ordered, path: "x", className: "T")
        index.rebuild(rows: 0..<2) { Self.entries([Value.string("a"), .int(1)][$0]) }
        #expect(Self.isTyped(index, Value.self))
        index.remove(0, Self.entries(.string("a")))
        index.remove(1, Self.entries(.int(1)))
        #expect(index.keys.isEmpty)
        index.add(0, Self.entries(.double(2.5)))
        index.add(1, Self.entries(.double(-1)))
        #expect(Self.isTyped(index, DoubleKey.self))
        #expect(Array(index.keys) == [.double(-1), .double(2.5)])
        #expect(Array(index.rows) == [1, 0])
    }

    @Test func arraysOfOneTypeStayTyped() {
        let index = Self.run(
            [.array([.int(4), .int(1)]), .int(4), .array([])], [(3, .array([.int(1), .int(7)]))],
            probes: [.int(4), .int(1), .int(7)])
        #expect(Self.isTyped(index, IntKey.self))
        #expect(index.multiValued)
    }

    /// Integers and doubles in one build sort by their nearest doubles; ties among equal
    /// doubles, and integers no double holds exactly, are decided exactly.
    @Test(arguments: [false, true])
    func numbersOfBothKindsAtBuildSortExactly(fieldValues: Bool) {
        let big = Int64(1) << 53
        let index = Self.run(
            [
                .int(Int64.max), .double(9.223372036854775807e18), .int(Int64.max - 1), .double(.nan), .int(3),
                .double(-.infinity), .double(-0.0), .int(0), .double(0.0), .int(big + 1), .double(Double(big)),
                .int(big), .double(3.0), .int(Int64.min), .double(-9.223372036854775808e18), .double(.nan), nil,
                .int(3), .null,
            ],
            [(19, .double(2.5)), (4, .int(big + 1))],
            probes: [.int(3), .double(.nan), .int(big + 1), .double(Double(big)), .int(Int64.max), .int(Int64.min)],
            fieldValues: fieldValues)
        #expect(Self.isTyped(index, Value.self))
    }

    /// A build of strings groups equal strings, sorts the distinct ones and lays the groups out
    /// in order; canonically equivalent strings with other bytes stay apart.
    @Test(arguments: [false, true])
    func repeatedStringsAtBuildSortByTheirBytes(fieldValues: Bool) {
        let names = ["b", "a", "", "Zoë", "b", "e\u{301}", "a", "\u{E9}", "e\u{301}", "日本", "\u{E9}", "a"]
        let index = Self.run(
            names.map { .string($0) } + [nil, .string("b")], [(14, .string("a")), (0, .string("\u{E9}"))],
            probes: [.string("a"), .string("b"), .string("\u{E9}"), .string("e\u{301}"), .string("")],
            fieldValues: fieldValues)
        #expect(Self.isTyped(index, StringKey.self))
        let plain = Self.run(
            ["m", "c", "m", "a", "c", "m"].map { .string($0) }, [], probes: [.string("m"), .string("c")],
            fieldValues: fieldValues)
        #expect(Self.isTyped(plain, StringKey.self))
    }

    /// Builds of random values (one type, numbers of both kinds, or any mix, with arrays,
    /// nulls and missing fields) equal the model, read as entries or as field values.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomBuildsEqualTheModel(seed: UInt64) {
        var random = RandomData(seed: seed)
        let pools: [[Value]] = [
            (0..<12).map { .int(Int64($0 % 5) - 2) } + [.int(Int64.max), .int(Int64.min)],
            [.double(.nan), .double(-0.0), .double(0.0), .double(1.5), .double(-.infinity), .int(1), .int(-3)],
            ["a", "b", "\u{E9}", "e\u{301}", "", "ab", "B"].map { .string($0) },
            [.date(5), .date(-5), .date(0)],
            [
                .int(1), .double(1.0), .string("1"), .bool(true), .date(1),
                .geoPoint(GeoPoint(latitude: 1, longitude: 2)),
            ],
        ]
        for round in 0..<6 {
            let pool = pools[random.int(pools.count)]
            let model: [Value?] = (0..<random.int(60)).map { _ in
                switch random.int(10) {
                case 0: return nil
                case 1: return .null
                case 2: return .array((0..<random.int(3)).map { _ in random.pick(pool) })
                default: return random.pick(pool)
                }
            }
            for fieldValues in [false, true] {
                let index = ValueIndex(kind: .ordered, path: "x", className: "T")
                if fieldValues {
                    index.rebuild(rows: model.indices, fieldValue: { model[$0] }) { Self.entries(model[$0]) }
                } else {
                    index.rebuild(rows: model.indices) { Self.entries(model[$0]) }
                }
                Self.check(index, model, probes: pool, "seed \(seed) round \(round) field values \(fieldValues)")
            }
        }
    }

    /// What the typed keys are for: an entry's key takes no more than its scalar.
    @Test func keysTakeNoMoreThanTheirScalar() {
        #expect(MemoryLayout<IntKey>.stride == 8)
        #expect(MemoryLayout<DoubleKey>.stride == 8)
        #expect(MemoryLayout<DateKey>.stride == 8)
        #expect(MemoryLayout<StringKey>.stride == MemoryLayout<String>.stride)
        #expect(MemoryLayout<GeoEntry>.stride == 16)
    }
}
