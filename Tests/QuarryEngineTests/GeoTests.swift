import QuarryCore
import Testing
import QuarryTestSupport

@testable import QuarryEngine

private let austin = GeoPoint(latitude: 30.26715, longitude: -97.74306)
private let beaumont = GeoPoint(latitude: 30.084, longitude: -94.145)

private func distance(
    from: GeoPoint, _ op: ComparisonOperator, _ value: Double, _ unit: DistanceUnit,
    negated: Bool = false, _ semantics: LeafSemantics = .sql
) -> Filter {
    .leaf(.geo(.distance("coordinates", from: from, op, Distance(value, unit))), negated: negated, semantics)
}

@Suite struct GeoTests {
    let friends = ReferenceData.friends

    // §7 tests 61–71 of the Backendless reference (DS-F).
    @Test(
        arguments: [
            (61, distance(from: austin, .lt, 200, .miles), ["bob", "jane", "fred"]),
            (62, distance(from: austin, .lt, 100, .miles), ["bob", "fred"]),
            (63, distance(from: austin, .lt, 200, .kilometers), ["bob", "fred"]),
            (64, distance(from: austin, .lt, 200_000, .yards), ["bob", "fred"]),
            (64, distance(from: austin, .lt, 500_000, .feet), ["bob", "fred"]),
            (65, distance(from: austin, .gt, 100, .miles), ["jane"]),
            (66, distance(from: beaumont, .lt, 300, .miles), ["bob", "jane", "fred"]),
            (67, distance(from: beaumont, .lt, 200, .miles), ["jane"]),
            (67, distance(from: beaumont, .ge, 250, .miles), ["fred"]),
            (69, .and([compare("name", .eq, "Jane", .sql), distance(from: austin, .lt, 200, .miles)]), ["jane"]),
            (71, distance(from: austin, .le, 1, .feet), ["bob"]),
            (71, distance(from: austin, .eq, 0, .meters), ["bob"]),
        ] as [(Int, Filter, [String])])
    func backendlessDistance(test: Int, predicate: Filter, expected: [String]) throws {
        #expect(try ids(friends, "Friend", predicate) == expected, "§7 test \(test)")
    }

    @Test func aRecordWithoutAGeoPointNeverMatchesUnderSQL() throws {
        #expect(try ids(friends, "Friend", distance(from: austin, .lt, 100, .miles, negated: true)) == ["jane"])
        #expect(
            try ids(friends, "Friend", distance(from: austin, .lt, 100, .miles, negated: true, .document)) == [
                "jane", "zed",
            ])
    }

    // Parse's GEO dataset: the user at (37.7749, −122.4194); P1 ≈ 0.3 mi, P2 ≈ 8.3 mi, P3 ≈ 42 mi.
    let user = GeoPoint(latitude: 37.7749, longitude: -122.4194)
    let places = database(
        (
            "PlaceObject",
            [
                record("P3", ["location": .geoPoint(GeoPoint(latitude: 37.3382, longitude: -121.8863))]),
                record("P1", ["location": .geoPoint(GeoPoint(latitude: 37.7793, longitude: -122.4193))]),
                record("P2", ["location": .geoPoint(GeoPoint(latitude: 37.8044, longitude: -122.2712))]),
                record("P0", ["location": "not a point"]),
            ]
        ))

    private func placeIds(_ condition: GeoCondition, order: [SortKey] = []) throws -> [String] {
        try ids(places, Query(className: "PlaceObject", predicate: .leaf(.geo(condition), .document), order: order))
    }

    @Test func near() throws {
        let nearest: [SortKey] = [.distance("location", from: user, .ascending)]
        #expect(try placeIds(.near("location", user, maxDistance: nil), order: nearest) == ["P1", "P2", "P3"])
        #expect(
            try placeIds(.near("location", user, maxDistance: Distance(10, .miles)), order: nearest) == ["P1", "P2"])
        #expect(try placeIds(.near("location", user, maxDistance: Distance(1, .kilometers))) == ["P1"])
        // 0.001 rad ≈ 6.4 km on a 6371 km sphere.
        #expect(try placeIds(.near("location", user, maxDistance: Distance(0.001, .radians))) == ["P1"])
    }

    @Test func withinShapes() throws {
        let sw = GeoPoint(latitude: 37.7, longitude: -122.5), ne = GeoPoint(latitude: 37.8, longitude: -122.3)
        #expect(try placeIds(.withinBox("location", southwest: sw, northeast: ne)) == ["P1"])
        let triangle = [
            GeoPoint(latitude: 37.7, longitude: -122.5), GeoPoint(latitude: 37.9, longitude: -122.5),
            GeoPoint(latitude: 37.8, longitude: -122.2),
        ]
        #expect(try placeIds(.withinPolygon("location", triangle)) == ["P1", "P2"])
        #expect(try placeIds(.withinCircle("location", center: user, radius: Distance(10, .miles))) == ["P1", "P2"])
    }

    @Test func polygonContainsPoint() throws {
        let square = [
            GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 0, longitude: 10),
            GeoPoint(latitude: 10, longitude: 10), GeoPoint(latitude: 10, longitude: 0),
        ]
        let db = database(
            (
                "Area",
                [
                    record("in", ["shape": .polygon(square)]),
                    record("point", ["shape": .geoPoint(GeoPoint(latitude: 5, longitude: 5))]),
                ]
            ))
        let p = Filter.leaf(.geo(.polygonContains("shape", GeoPoint(latitude: 5, longitude: 5))), .document)
        #expect(try ids(db, "Area", p) == ["in"])
        let outside = Filter.leaf(.geo(.polygonContains("shape", GeoPoint(latitude: 11, longitude: 5))), .document)
        #expect(try ids(db, "Area", outside) == [])
    }

    @Test func severalPointsAtTheKeyAreExistential() throws {
        let db = database(
            (
                "Route",
                [
                    record(
                        "r",
                        [
                            "stops": [
                                .geoPoint(GeoPoint(latitude: 0, longitude: 0)),
                                .geoPoint(GeoPoint(latitude: 37.78, longitude: -122.42)),
                            ]
                        ])
                ]
            ))
        let near = GeoCondition.near("stops", user, maxDistance: Distance(1, .miles))
        #expect(try ids(db, "Route", .leaf(.geo(near), .document)) == ["r"])
        #expect(try ids(db, "Route", .leaf(.geo(near), .sql)) == ["r"])
        #expect(try ids(db, "Route", .leaf(.geo(near), .predicate)) == [])
    }

    @Test func distanceSortPutsRecordsWithoutAPointLast() throws {
        let asc = Query(className: "Friend", order: [.distance("coordinates", from: austin, .ascending)])
        let desc = Query(className: "Friend", order: [.distance("coordinates", from: austin, .descending)])
        #expect(try ids(friends, asc) == ["bob", "fred", "jane", "zed"])
        #expect(try ids(friends, desc) == ["zed", "jane", "fred", "bob"])
    }
}
