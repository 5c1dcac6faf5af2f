import Quarry
import QuarryPostgres
import QuarryTestSupport
import Testing

/// Geo conditions on the PostgreSQL store (docs/STORAGE.md#postgresql-geo): boxes are pushed
/// down exactly; distances are narrowed in SQL by the same haversine with a 1 m margin and
/// decided by Quarry, so points on and next to every boundary answer as the reference does.
@Suite struct PostgresGeoTests {
    static let center = GeoPoint(latitude: 30, longitude: -97)

    /// Points around the center at distances that straddle each bound: just under, on (as the
    /// reference computes it) and just over, plus a pole, the antimeridian and a missing point.
    static func database() -> Database {
        var db = Database()
        var n = 0
        func add(_ fields: [(String, Value)]) {
            db.insert(Record(objectId: "p\(n)", fields: fields), into: "Place")
            n += 1
        }
        for dLat in stride(from: -0.02, through: 0.02, by: 0.0025) {
            for dLon in [-0.01, 0, 0.0001, 0.01] {
                add([("at", .geoPoint(GeoPoint(latitude: 30 + dLat, longitude: -97 + dLon)))])
            }
        }
        add([("at", .geoPoint(GeoPoint(latitude: 90, longitude: 0)))])
        add([("at", .geoPoint(GeoPoint(latitude: -30, longitude: 83)))])  // the center's antipode
        add([("at", .geoPoint(GeoPoint(latitude: 0, longitude: 180)))])
        add([("other", .int(1))])
        return db
    }

    @Test func distancesAndBoxesAgreeWithTheReference() async throws {
        let store = try await PostgresServer.store()
        defer { store.close() }
        let db = Self.database()
        try await store.save(db)
        let reference = ReferenceEvaluator(database: db, now: { 1_700_000_000_000 }, random: { 0.5 })
        let onPoint = Geo.meters(Self.center, GeoPoint(latitude: 30.01, longitude: -97))
        var conditions: [GeoCondition] = [
            .near("at", Self.center, maxDistance: nil),
            .withinBox(
                "at", southwest: GeoPoint(latitude: 29.99, longitude: -97.01),
                northeast: GeoPoint(latitude: 30.01, longitude: -97)),
            .withinBox(
                "at", southwest: GeoPoint(latitude: 0, longitude: 10), northeast: GeoPoint(latitude: 1, longitude: 5)),
            .withinCircle("at", center: Self.center, radius: Distance(.pi * Geo.earthRadiusMeters, .meters)),
            // A triangle over the grid: points inside, on its edges and vertices, inside its
            // bounding box but outside it, and outside the box.
            .withinPolygon(
                "at",
                [
                    GeoPoint(latitude: 29.99, longitude: -97.01), GeoPoint(latitude: 30.01, longitude: -97.01),
                    GeoPoint(latitude: 30.01, longitude: -96.99),
                ]),
            .withinPolygon(
                "at",
                [
                    GeoPoint(latitude: 10, longitude: 10), GeoPoint(latitude: 11, longitude: 10),
                    GeoPoint(latitude: 11, longitude: 11),
                ]),
        ]
        for meters in [onPoint, onPoint.nextDown, onPoint.nextUp, 1_000, 0] {
            conditions.append(.near("at", Self.center, maxDistance: Distance(meters, .meters)))
            conditions.append(.withinCircle("at", center: Self.center, radius: Distance(meters / 1000, .kilometers)))
            for op in [ComparisonOperator.lt, .le, .gt, .ge, .eq, .ne] {
                conditions.append(.distance("at", from: Self.center, op, Distance(meters, .meters)))
            }
        }
        for condition in conditions {
            for negated in [false, true] {
                for semantics in [LeafSemantics.sql, .document] {
                    let leaf = Filter.leaf(Leaf(.geo(condition), negated: negated, semantics: semantics))
                    for predicate in [
                        leaf, .not(leaf), .and([leaf, .leaf(Leaf(.isNull(.key("other")), semantics: .sql))]),
                    ] {
                        let q = Query(className: "Place", predicate: predicate)
                        let expected = QueryOutcome { () throws(Diagnostic) in try reference.run(q) }
                        let actual = await QueryOutcome { () async throws(Diagnostic) in
                            try await store.run(q, variables: [:])
                        }
                        #expect(actual == expected, "\(q.predicate)")
                    }
                }
            }
        }
        // Pushed down: the box exactly, a distance as a narrowing filter re-checked by Quarry.
        let box = try await store.explain(
            Query(className: "Place", predicate: .leaf(Leaf(.geo(conditions[1]), semantics: .document))), variables: [:]
        )
        #expect(box.residual.isEmpty && box.statement?.contains("BETWEEN") == true)
        let near = try await store.explain(
            Query(className: "Place", predicate: .leaf(Leaf(.geo(conditions[6]), semantics: .document))), variables: [:]
        )
        #expect(near.statement?.contains("asin") == true && near.residual.count == 1)
        // A polygon: its bounding box as a narrowing filter, the polygon re-checked by Quarry.
        let polygon = try await store.explain(
            Query(className: "Place", predicate: .leaf(Leaf(.geo(conditions[4]), semantics: .document))), variables: [:]
        )
        #expect(polygon.statement?.contains("BETWEEN") == true && polygon.residual.count == 1)
    }
}
