import Quarry
import QuarryStoreSupport

extension SQLiteTranslator {
    /// Geo tests over the two coordinate columns, with distances from `quarry_distance` (the
    /// same haversine, R = 6371 km) and polygons from `quarry_in_polygon`.
    mutating func geo(_ condition: GeoCondition, _ rule: LeafRule, _ row: Row) throws(SQLiteNotComparable) -> String {
        guard case .geo(let lat, let lon) = try operand(condition.key, row) else {
            // No geo point here: the test does not apply.
            return rule.withoutOperand ? "1" : "0"
        }
        let outcome: SQLiteOutcome
        switch condition {
        case .near(_, let center, let maxDistance):
            guard let maxDistance else { outcome = .always(true); break }
            outcome = distance(center, lat, lon, .le, maxDistance.meters)
        case .withinBox(_, let sw, let ne):
            let s = parameter(.double(sw.latitude)), n = parameter(.double(ne.latitude))
            let w = parameter(.double(sw.longitude)), e = parameter(.double(ne.longitude))
            outcome = .sql("(\(lat) BETWEEN \(s) AND \(n) AND \(lon) BETWEEN \(w) AND \(e))", fails: nil)
        case .withinPolygon(_, let vertices):
            // A point outside `Geo.polygonBox` is never inside: the box lets SQLite skip the
            // function call on nearly every row, and the answer stays the function's.
            var test = "quarry_in_polygon(\(lat), \(lon), \(parameter(.text(SQLitePolygonText.format(vertices)))))"
            if let box = Geo.polygonBox(vertices) {
                let s = parameter(.double(box.south)), n = parameter(.double(box.north))
                let w = parameter(.double(box.west)), e = parameter(.double(box.east))
                test = "(\(lat) BETWEEN \(s) AND \(n) AND \(lon) BETWEEN \(w) AND \(e) AND \(test))"
            }
            outcome = .sql(test, fails: nil)
        case .withinCircle(_, let center, let radius):
            outcome = distance(center, lat, lon, .le, radius.meters)
        case .distance(_, let from, let op, let d):
            outcome = distance(from, lat, lon, op, d.meters)
        case .polygonContains:
            throw SQLiteNotComparable("polygon fields are not loaded into SQLite")
        }
        return scalarLeaf(lat, outcome, nullPasses: false, rule)
    }

    private mutating func distance(
        _ from: GeoPoint, _ lat: String, _ lon: String, _ op: ComparisonOperator,
        _ meters: Double
    ) -> SQLiteOutcome {
        let d =
            "quarry_distance(\(parameter(.double(from.latitude))), \(parameter(.double(from.longitude))), \(lat), \(lon))"
        let m = parameter(.double(meters))
        return .sql("\(d) \(op.sql) \(m)", fails: "\(d) \(op.complement.sql) \(m)")
    }
}
