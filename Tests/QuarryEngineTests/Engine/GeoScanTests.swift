import QuarryCore
import Testing

@testable import QuarryEngine

/// Boxes and polygons on a geo-point column, tested by the typed scan (a latitude band first,
/// then the exact test: GeoLeaf.Band) against the reference, on points placed exactly on the
/// edges and corners, just inside and outside them, and at non-finite coordinates.
@Suite struct GeoScanTests {
    static let latitudes: [Double] = [-90, -2, 2.999999999, 3, 3.000000001, 3.2, 3.5, 3.5000000001, 4, 89.9, .nan]
    static let longitudes: [Double] = [-180, -97.2000000001, -97.2, -97, -96.7, -96.6999999999, 0, 179.9, .infinity]

    static let db: Database = {
        var records: [Record] = []
        for (i, lat) in latitudes.enumerated() {
            for (j, lon) in longitudes.enumerated() {
                records.append(record("p\(i)-\(j)", ["at": .geoPoint(GeoPoint(latitude: lat, longitude: lon))]))
            }
        }
        records.append(record("none", ["name": "x"]))
        records.append(record("null", ["at": .null]))
        return database(("P", records))
    }()

    static func point(_ lat: Double, _ lon: Double) -> GeoPoint { GeoPoint(latitude: lat, longitude: lon) }

    static let conditions: [GeoCondition] = [
        .withinBox("at", southwest: point(3, -97.2), northeast: point(3.5, -96.7)),
        .withinBox("at", southwest: point(3.2, -97), northeast: point(3.2, -97)),
        .withinBox("at", southwest: point(3.5, -97.2), northeast: point(3, -96.7)),
        .withinBox("at", southwest: point(-1e300, -1e300), northeast: point(1e300, 1e300)),
        .withinBox("at", southwest: point(-.infinity, -97.2), northeast: point(.infinity, -96.7)),
        .withinPolygon("at", [point(3, -97.2), point(3, -96.7), point(3.5, -96.7), point(3.5, -97.2)]),
        .withinPolygon("at", [point(3, -97.2), point(3.5, -96.7), point(4, -97.2)]),
        .withinPolygon("at", [point(-90, -180), point(89.9, -180), point(89.9, 179.9), point(-90, 179.9)]),
        .withinPolygon("at", [point(3, -97.2), point(.nan, -96.7), point(3.5, -96.7)]),
    ]

    @Test(arguments: conditions)
    func boxesAndPolygonsAnswerAsTheReference(_ condition: GeoCondition) throws {
        let engine = Engine(database: Self.db)
        let reference = ReferenceEvaluator(database: Self.db)
        for semantics in [LeafSemantics.sql, .document, .predicate] {
            for negated in [false, true] {
                let query = Query(className: "P", predicate: .leaf(.geo(condition), negated: negated, semantics))
                let expected = try reference.run(query).objectIds
                #expect(try engine.run(query).objectIds == expected, "\(condition) negated \(negated) \(semantics)")
                var count = query
                count.count = true
                #expect(try engine.run(count) == .count(expected.count))
            }
        }
    }

    /// The leaf is the typed geo scan, not the reference's row-by-row evaluation.
    @Test func theScanIsTyped() throws {
        let engine = Engine(database: Self.db)
        let query = Query(className: "P", predicate: .leaf(.geo(Self.conditions[0]), negated: false, .sql))
        let text = try engine.explain(query).description
        #expect(text.contains("WITHIN") && !text.contains("reference evaluator"), "\(text)")
    }
}
