import QuarryCore
import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// Latitude/longitude ranges on a geo-indexed key answered as one box of the grid: the plan
/// (golden EXPLAIN), when the box is not used, and results equal to the reference for ranges
/// of every shape, also while the data changes.
@Suite struct CoordinateBoxTests {
    static func between(_ key: FieldPath, _ lo: Value, _ hi: Value, _ s: LeafSemantics = .sql) -> Filter {
        .leaf(.between(.key(key), lower: .literal(lo), upper: .literal(hi)), s)
    }

    static let latLon = Filter.and([
        between("home.latitude", 30.5, 31), between("home.longitude", -97.5, -96.5),
    ])

    /// 400 people on a 20 × 20 grid: latitudes 30.0…31.9, longitudes -97.0…-98.9.
    static let grid: Database = database(
        (
            "Person",
            (0..<400).map { i in
                record(
                    "p\(i)",
                    [
                        "home": .geoPoint(
                            GeoPoint(latitude: 30 + Double(i % 20) / 10, longitude: -97 - Double(i / 20) / 10))
                    ])
            }
        ))

    @Test func explainShowsTheBox() throws {
        let engine = Engine(database: Self.grid)
        try engine.createIndex(.geo, on: "home", in: "Person")
        let q = Query(className: "Person", predicate: Self.latLon)
        // The filter's lines belong to the leaf compiler; the box is the access path.
        let lines = try engine.explain(q).description.split(separator: "\n").map(String.init)
        #expect(
            lines.dropFirst().first
                == "├─ access: geo index on home box latitude [30.5, 31.0] longitude [-97.5, -96.5]  (est. 48 rows)")
        #expect(lines.filter { $0.hasPrefix("│  ") }.count == 2)
        #expect(lines.last == "└─ page: skip 0, no limit")
        #expect(try engine.run(q).objectIds == ReferenceEvaluator(database: Self.grid).run(q).objectIds)
        #expect(try engine.run(q).objectIds.count == 36)
        // A single coordinate, one side open.
        let band = try engine.explain(
            Query(className: "Person", predicate: .leaf(.compare(.key("home.latitude"), .gt, .literal(31.7), []), .sql))
        )
        #expect(
            band.description.split(separator: "\n").dropFirst().first
                == "├─ access: geo index on home box latitude [31.7, …]  (est. 100 rows)")
    }

    /// Without a geo index on the key, or when some row holds more than one point there, the
    /// box is not a candidate.
    @Test func noBoxWithoutASinglePointPerRow() throws {
        let q = Query(className: "Person", predicate: Self.latLon)
        #expect(try !Engine(database: Self.grid).explain(q).description.contains("box"))
        var records = Self.grid["Person"]!.records
        records[3] = Record(
            objectId: "p3",
            fields: [
                (
                    "home",
                    .array([
                        .geoPoint(GeoPoint(latitude: 30.6, longitude: -98.5)),
                        .geoPoint(GeoPoint(latitude: 30, longitude: -97.2)),
                    ])
                )
            ])
        let engine = Engine(database: database(("Person", records)))
        try engine.createIndex(.geo, on: "home", in: "Person")
        #expect(try !engine.explain(q).description.contains("box"))
        // One point meets the latitude range, the other the longitude range.
        #expect(try engine.run(q).objectIds.contains("p3"))
        // Once the row holds one point again, the box is back.
        engine.insert(record("p3", ["home": .geoPoint(GeoPoint(latitude: 30, longitude: -97.1))]), into: "Person")
        #expect(try engine.explain(q).description.contains("box"))
    }

    /// Coordinate ranges of every form, with other conjuncts, on data with missing, null,
    /// non-point and out-of-range values, under each leaf semantics.
    @Test(arguments: [31, 32, 33] as [UInt64])
    func rangesAgreeWithTheReference(seed: UInt64) throws {
        var random = RandomData(seed: seed)
        var db = Self.places(&random, 300)
        let engine = Engine(database: db)
        try engine.createIndex(.geo, on: "at", in: "Place")
        for step in 0..<60 {
            if step % 3 == 2 { Self.change(&random, &db, engine) }
            // Now and then one row holds two points (no box while it does), then one again.
            if step % 10 == 5 || step % 10 == 8 {
                let two: Value = .array([
                    .geoPoint(GeoPoint(latitude: 1, longitude: 20)), .geoPoint(GeoPoint(latitude: 20, longitude: 1)),
                ])
                let r = Record(
                    objectId: "p0",
                    fields: [("at", step % 10 == 5 ? two : .geoPoint(GeoPoint(latitude: 2, longitude: 2)))])
                db.insert(r, into: "Place")
                engine.insert(r, into: "Place")
            }
            let reference = ReferenceEvaluator(database: db)
            for _ in 0..<10 {
                let q = Query(className: "Place", predicate: .and(Self.coordinateConjuncts(&random)))
                // Object ids: records holding a NaN coordinate never compare equal.
                #expect(
                    try engine.run(q).objectIds == reference.run(q).objectIds,
                    "step \(step): \(PredicateText.render(q.predicate))")
            }
        }
    }

    static func coordinateConjuncts(_ random: inout RandomData) -> [Filter] {
        let s = random.pick(LeafSemantics.allCases)
        func bound() -> Value {
            random.chance(20) ? .int(Int64(random.int(60) - 30)) : .double(Double(random.int(600) - 300) / 10)
        }
        var out: [Filter] = []
        for _ in 0..<(1 + random.int(3)) {
            let key: FieldPath = random.pick(["at.latitude", "at.longitude"])
            switch random.int(4) {
            case 0:
                let a = bound(), b = bound()
                out.append(between(key, a, b, s))
            case 1:
                out.append(
                    .leaf(.compare(.key(key), random.pick([.lt, .le, .gt, .ge, .eq]), .literal(bound()), []), s))
            case 2:
                out.append(.leaf(.compare(.literal(bound()), random.pick([.lt, .le, .gt, .ge]), .key(key), []), s))
            default:
                out.append(.leaf(.compare(.key("n"), .gt, .literal(.int(Int64(random.int(10)))), []), s))
            }
        }
        if random.chance(10) { out.append(.leaf(.compare(.key("at.latitude"), .ge, .literal(.double(.nan)), []), s)) }
        return out
    }

    static func place(_ random: inout RandomData) -> [(String, Value)] {
        var fields: [(String, Value)] = [("n", .int(Int64(random.int(10))))]
        switch random.int(20) {
        case 0: break
        case 1: fields.append(("at", .null))
        case 2: fields.append(("at", .geoPoint(GeoPoint(latitude: 95, longitude: -200))))
        case 3: fields.append(("at", .geoPoint(GeoPoint(latitude: .nan, longitude: 1))))
        default:
            fields.append(
                (
                    "at",
                    .geoPoint(
                        GeoPoint(
                            latitude: Double(random.int(600) - 300) / 10,
                            longitude: Double(random.int(600) - 300) / 10))
                ))
        }
        return fields
    }

    static func places(_ random: inout RandomData, _ n: Int) -> Database {
        database(("Place", (0..<n).map { Record(objectId: "p\($0)", fields: place(&random)) }))
    }

    /// An insert, a replacement or a delete, in both the engine and the model.
    static func change(_ random: inout RandomData, _ db: inout Database, _ engine: Engine) {
        let id = "p\(random.int(400))"
        if random.chance(30) {
            _ = db.remove(id, from: "Place")
            engine.delete(id, from: "Place")
        } else {
            let r = Record(objectId: id, fields: place(&random))
            db.insert(r, into: "Place")
            engine.insert(r, into: "Place")
        }
    }
}
