import QuarryCore
import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// The index structures against plain models: sorted entries in chunks (splits, merges,
/// positions), hash and ordered value indexes after deletes, and the geo grid as
/// points move, come and go.
@Suite struct IndexStructureTests {
    struct IntKey: EntryKey, Equatable {
        let v: Int
        static func order(_ a: IntKey, _ b: IntKey) -> Int { a.v < b.v ? -1 : (a.v == b.v ? 0 : 1) }
    }

    /// The model: every entry, sorted by key then row.
    static func sorted(_ model: [(Int, Int32)]) -> [(Int, Int32)] {
        model.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
    }

    static func check(_ entries: SortedEntries<IntKey>, _ model: [(Int, Int32)]) {
        let expected = sorted(model)
        #expect(entries.count == expected.count)
        var seen: [(Int, Int32)] = []
        entries.forEach(in: 0..<entries.count) { k, r in seen.append((k.v, r)) }
        #expect(seen.map(\.0) == expected.map(\.0))
        #expect(seen.map(\.1) == expected.map(\.1))
        for p in Swift.stride(from: 0, to: expected.count, by: 7) {
            #expect(entries.key(at: p).v == expected[p].0)
            #expect(entries.row(at: p) == expected[p].1)
        }
        // Every chunk stays within bounds and non-empty.
        #expect(entries.chunks.allSatisfy { !$0.keys.isEmpty && $0.keys.count <= entries.maxChunk })
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func chunkedEntriesFollowAModel(seed: UInt64) {
        var random = RandomData(seed: seed)
        var entries = SortedEntries<IntKey>(maxChunk: 8)
        var model: [(Int, Int32)] = []
        for step in 0..<600 {
            switch random.int(10) {
            case 0..<6:
                let k = random.int(40), r = Int32(random.int(200))
                guard !model.contains(where: { $0 == (k, r) }) else { continue }
                entries.insert(IntKey(v: k), r)
                model.append((k, r))
            case 6..<9:
                guard !model.isEmpty else { continue }
                let (k, r) = model.remove(at: random.int(model.count))
                let removed = entries.remove(IntKey(v: k), r)
                #expect(removed)
            default:
                // A row's object is deleted: its entries go, no other row moves.
                let gone = Int32(random.int(200))
                for (k, r) in model where r == gone {
                    let removed = entries.remove(IntKey(v: k), r)
                    #expect(removed)
                }
                model = model.filter { $0.1 != gone }
            }
            let absent = entries.remove(IntKey(v: 99), 0)
            #expect(!absent, "step \(step)")
            Self.check(entries, model)
        }
        // Ranges by position: every key between 10 and 20.
        let expected = Self.sorted(model)
        let start = entries.firstPosition { k, _ in k.v >= 10 }
        let end = entries.firstPosition { k, _ in k.v > 20 }
        #expect(entries.rows(in: start..<end) == expected.filter { (10...20).contains($0.0) }.map(\.1))
    }

    @Test func buildFromSortedSplitsIntoChunks() {
        let keys = (0..<100).map { IntKey(v: $0 / 3) }, rows = (0..<100).map { Int32($0) }
        let entries = SortedEntries(sorted: keys, rows, maxChunk: 16)
        #expect(entries.chunks.count == 9)  // 12 entries each (three quarters full)
        Self.check(entries, (0..<100).map { ($0 / 3, Int32($0)) })
    }

    @Test(arguments: [IndexKind.hash, .ordered])
    func valueIndexKeepsRowsAfterADelete(kind: IndexKind) {
        let values: [Value] = [.int(1), .int(2), .int(1), .null, .string("a"), .int(2)]
        let index = ValueIndex(kind: kind, path: "x", className: "T")
        index.rebuild(rows: 0..<values.count) { Self.entries(values[$0]) }
        #expect(index.rows(equalTo: [.int(2)]) == [1, 5])
        // Row 2's object (a 1) is deleted: its entry goes, the other rows stay where they are.
        index.remove(2, Self.entries(values[2]))
        #expect(index.rows(equalTo: [.int(1)]) == [0])
        #expect(index.rows(equalTo: [.int(2)]) == [1, 5])
        #expect(index.rows(equalTo: [.string("a")]) == [4])
        #expect(index.nilRows == [3])
        // A new row and a replaced one.
        index.add(6, Self.entries(.int(1)))
        index.remove(1, Self.entries(.int(2)))
        index.add(1, Self.entries(.int(1)))
        #expect(index.rows(equalTo: [.int(1)]) == [0, 1, 6])
        #expect(index.count(equalTo: .int(2)) == 1)
        if kind == .ordered {
            #expect(Array(index.keys) == [.int(1), .int(1), .int(1), .int(2), .string("a")])
            #expect(index.rows(in: index.entries(from: (.int(1), false), to: nil)) == [5])
        }
    }

    static func entries(_ v: Value?) -> IndexEntries {
        IndexEntries(
            v.map { Record(objectId: "r", fields: [("x", $0)]) } ?? Record(objectId: "r", fields: []), "x",
            KeyPathResolver(source: Database()))
    }

    static func point(_ lat: Double, _ lon: Double) -> Value { .geoPoint(GeoPoint(latitude: lat, longitude: lon)) }

    /// Rows of `points` inside the box, by brute force.
    static func inBox(_ points: [Value?], _ s: Double, _ w: Double, _ n: Double, _ e: Double) -> [Int32] {
        points.indices.filter { i in
            guard case .geoPoint(let p)? = points[i] else { return false }
            return p.latitude >= s && p.latitude <= n && p.longitude >= w && p.longitude <= e
        }.map { Int32($0) }
    }

    @Test func geoGridMovesPointsInPlace() {
        var random = RandomData(seed: 11)
        var points: [Value?] = (0..<50).map { _ in Self.point(Double(random.int(60)) - 30, Double(random.int(80)) - 40)
        }
        let grid = GeoIndex(path: "x", className: "T")
        grid.rebuild(rows: 0..<points.count) { Self.entries(points[$0]) }
        let boxes: [(Double, Double, Double, Double)] = [
            (-10, -10, 10, 10), (0, -40, 0.5, 40), (-90, -180, 90, 180),
            (5, 5, 4, 6), (-.infinity, 0, .infinity, 1),
        ]
        for step in 0..<300 {
            switch random.int(3) {
            case 0:
                // Replace: a point moves (or goes, or comes).
                let row = random.int(points.count)
                let new: Value? =
                    random.chance(20) ? nil : Self.point(Double(random.int(60)) - 30, Double(random.int(80)) - 40)
                grid.remove(row, Self.entries(points[row]))
                grid.add(row, Self.entries(new))
                points[row] = new
            case 1:
                points.append(Self.point(Double(random.int(60)) - 30, Double(random.int(80)) - 40))
                grid.add(points.count - 1, Self.entries(points[points.count - 1]))
            default:
                // A deleted object: its row stays, empty.
                let row = random.int(points.count)
                grid.remove(row, Self.entries(points[row]))
                points[row] = nil
            }
            for (s, w, n, e) in boxes {
                #expect(
                    grid.rows(inBox: s, w, n, e) == Self.inBox(points, s, w, n, e),
                    "step \(step) box \(s) \(w) \(n) \(e)")
                #expect(
                    grid.candidateCount(in: LatLonBox(south: s, west: w, north: n, east: e))
                        >= Self.inBox(points, s, w, n, e).count)
            }
        }
    }

    @Test func geoGridLaysItselfOutAgainAsItGrows() {
        let grid = GeoIndex(path: "x", className: "T")
        grid.rebuild(rows: 0..<0) { _ in Self.entries(nil) }
        let before = grid.cellDegrees
        var points: [Value?] = []
        for i in 0..<2000 {
            points.append(Self.point(Double(i % 100) * 0.9 - 45, Double(i / 100) * 9 - 90))
            grid.add(i, Self.entries(points[i]))
        }
        #expect(grid.cellDegrees != before)
        #expect(grid.rows(inBox: -10, -50, 10, 50) == Self.inBox(points, -10, -50, 10, 50))
        // Out-of-range coordinates go to the edge cells and are still found.
        grid.add(2000, Self.entries(Self.point(95, 200)))
        points.append(Self.point(95, 200))
        #expect(grid.rows(inBox: 80, 100, 100, 300) == Self.inBox(points, 80, 100, 100, 300))
        #expect(grid.rows(inBox: .nan, 0, 1, 1) == nil)
    }

    @Test func irregularRowsAreCounted() {
        let grid = GeoIndex(path: "x", className: "T")
        let values: [Value?] = [Self.point(1, 1), nil, .null, .array([Self.point(1, 1)]), .int(3)]
        grid.rebuild(rows: 0..<values.count) { Self.entries(values[$0]) }
        #expect(grid.irregularRows == 2)
        grid.remove(3, Self.entries(values[3]))
        grid.add(3, Self.entries(Self.point(2, 2)))
        grid.remove(4, Self.entries(values[4]))
        #expect(grid.onlySinglePoints)
    }

    /// The objects a path reaches, dangling pointers included: the rows to index again when
    /// one of them changes.
    @Test func objectsReachedAlongAPath() {
        let db = database(
            (
                "A",
                [
                    record("a1", ["b": pointer("B", "b1")]),
                    record("a2", ["bs": .relation(className: "B", objectIds: ["b1", "b9"])]),
                ]
            ),
            ("B", [record("b1", ["c": pointer("C", "c1"), "name": "x"])]))
        let a = db["A"]!.records
        #expect(
            IndexEntries.objectsReached(a[0], "b.c.name", { db.field($1, of: $0) }) == [
                ObjectKey(className: "B", objectId: "b1"), ObjectKey(className: "C", objectId: "c1"),
            ])
        #expect(
            IndexEntries.objectsReached(a[1], "bs.name", { db.field($1, of: $0) }) == [
                ObjectKey(className: "B", objectId: "b1"), ObjectKey(className: "B", objectId: "b9"),
            ])
        #expect(IndexEntries.objectsReached(a[1], "bs", { db.field($1, of: $0) }).count == 2)
        #expect(IndexEntries.objectsReached(a[0], "nothing.name", { db.field($1, of: $0) }) == [])
        var rows = DependentRows()
        rows.add(3, [ObjectKey(className: "B", objectId: "b1")])
        rows.add(1, [ObjectKey(className: "B", objectId: "b1"), ObjectKey(className: "C", objectId: "c1")])
        #expect(rows.rows(reaching: ObjectKey(className: "B", objectId: "b1")) == [1, 3])
        rows.remove(1, [ObjectKey(className: "C", objectId: "c1")])
        #expect(rows.rows(reaching: ObjectKey(className: "C", objectId: "c1")) == [])
    }
}
