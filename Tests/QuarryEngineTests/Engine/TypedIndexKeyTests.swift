import QuarryCore
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

    /// Keys and rows in entry order, as the model orders them.
    static func modelEntries(_ model: [Value?]) -> [(Value, Int32)] {
        model.indices.flatMap { i -> [(Value, Int32)] in
            guard let v = model[i] else { return [] }
            guard case .array(let items) = v else { return [(v, Int32(i))] }
            var distinct: [Value] = []
            for item in items where !item.isNull && !distinct.contains(item) { distinct.append(item) }
            return distinct.map { ($0, Int32(i)) }
        }.sorted { a, b in
            let c = Value.sortOrder(a.0, b.0)
            return c != 0 ? c < 0 : a.1 < b.1
        }
    }

    static func check(_ index: ValueIndex, _ model: [Value?], probes: [Value], _ note: Comment) {
        let expected = modelEntries(model)
        #expect(index.keys.count == expected.count, note)
        // Same keys, bit for bit (a -0.0 or a NaN stays what it was), same rows.
        #expect(zip(index.keys, expected).allSatisfy { sameBits($0, $1.0) }, note)
        #expect(Array(index.rows) == expected.map(\.1), note)
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
    /// added) and one delete, checking against the model after each step.
    static func run(_ initial: [Value?], _ changes: [(Int, Value?)], probes: [Value]) -> ValueIndex {
        var model = initial
        let index = ValueIndex(kind: .ordered, path: "x", className: "T")
        index.rebuild(rows: 0..<model.count) { Self.entries(model[$0]) }
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
            check(index, model, probes: probes, "after deleting row 0")
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

    /// What the typed keys are for: an entry's key takes no more than its scalar.
    @Test func keysTakeNoMoreThanTheirScalar() {
        #expect(MemoryLayout<IntKey>.stride == 8)
        #expect(MemoryLayout<DoubleKey>.stride == 8)
        #expect(MemoryLayout<DateKey>.stride == 8)
        #expect(MemoryLayout<StringKey>.stride == MemoryLayout<String>.stride)
        #expect(MemoryLayout<GeoEntry>.stride == 16)
    }
}
