import Quarry
import QuarryStoreSupport

extension PostgresTranslator {
    /// Metres the pushed distance filter adds to its bound: more than the haversine's rounding
    /// (under a millimetre, a few centimetres near antipodes) on any libm the server uses.
    static let distanceMargin = 1.0

    /// A geo condition over a `[lat, lon]` point (docs/STORAGE.md#postgresql-geo): a box is
    /// exact (double comparisons); a distance is Quarry's haversine with R = 6371 km in the same
    /// operation order, widened by `distanceMargin`, and a polygon its bounding box; both mark
    /// the translation `narrowing` so the pushdown keeps the conjunct residual and Quarry decides
    /// each row exactly. A narrowed filter is sound only where the leaf counts positively, so a
    /// negated one is refused.
    mutating func geo(_ condition: GeoCondition, _ rule: LeafRule, _ row: Row) throws(PostgresNotComparable) -> String {
        guard case .geo(let point) = try operand(condition.key, row) else {
            throw PostgresNotComparable("a geo test on a field that is not only geo points is evaluated by Quarry")
        }
        let lat = "(\(point)->>0)::float8", lon = "(\(point)->>1)::float8"
        let test: String
        switch condition {
        case .withinBox(_, let sw, let ne):
            let corners = [sw.latitude, ne.latitude, sw.longitude, ne.longitude]
            guard corners.allSatisfy(\.isFinite) else {
                throw PostgresNotComparable("a NaN or infinite literal has no jsonb form; Quarry compares it")
            }
            let p = corners.map { parameter(String($0), "float8") }
            test = "(\(lat) BETWEEN \(p[0]) AND \(p[1]) AND \(lon) BETWEEN \(p[2]) AND \(p[3]))"
        case .near(_, let center, let maxDistance):
            guard !rule.negated else { throw PostgresNotComparable("a negated distance test is evaluated by Quarry") }
            guard let maxDistance else { return "(\(point) IS NOT NULL)" }
            test = try distance(center, lat, lon, .le, maxDistance.meters)
        case .withinCircle(_, let center, let radius):
            guard !rule.negated else { throw PostgresNotComparable("a negated distance test is evaluated by Quarry") }
            test = try distance(center, lat, lon, .le, radius.meters)
        case .distance(_, let from, let op, let d):
            guard !rule.negated else { throw PostgresNotComparable("a negated distance test is evaluated by Quarry") }
            test = try distance(from, lat, lon, op, d.meters)
        case .withinPolygon(_, let vertices):
            // A point outside `Geo.polygonBox` is never inside: the box is a superset filter,
            // and Quarry decides each row it lets through.
            guard !rule.negated else { throw PostgresNotComparable("a negated polygon test is evaluated by Quarry") }
            guard let box = Geo.polygonBox(vertices) else {
                throw PostgresNotComparable("a NaN or infinite literal has no jsonb form; Quarry compares it")
            }
            narrowing = .polygon
            undecidedEverywhere = true
            let p = [box.south, box.north, box.west, box.east].map { parameter(String($0), "float8") }
            test = "(\(lat) BETWEEN \(p[0]) AND \(p[1]) AND \(lon) BETWEEN \(p[2]) AND \(p[3]))"
        case .polygonContains:
            throw PostgresNotComparable("polygon tests are evaluated by Quarry")
        }
        // A missing point (SQL NULL) leaves the test NULL, which holds nowhere (the translation
        // asks for TRUE exactly where the leaf holds), so no `IS NOT NULL` is needed: it made
        // PostgreSQL extract the point once more per row. The leaf's value without an operand
        // is FALSE unless negated under the non-sql semantics.
        if rule.negated { return rule.withoutOperand ? "(\(point) IS NULL OR NOT \(test))" : "(NOT \(test))" }
        return test
    }

    /// `distance op metres`, widened by the margin; marks the translation narrowing.
    private mutating func distance(
        _ from: GeoPoint, _ lat: String, _ lon: String, _ op: ComparisonOperator, _ meters: Double
    ) throws(PostgresNotComparable) -> String {
        guard from.latitude.isFinite, from.longitude.isFinite, meters.isFinite else {
            throw PostgresNotComparable("a NaN or infinite literal has no jsonb form; Quarry compares it")
        }
        narrowing = .distance
        undecidedEverywhere = true
        let a = parameter(String(from.latitude), "float8"), b = parameter(String(from.longitude), "float8")
        // Geo.radians(from, point), step for step.
        let lat1 = "(\(a) * (pi() / 180))", lat2 = "(\(lat) * (pi() / 180))"
        let s1 = "sin((\(lat2) - \(lat1)) / 2)", s2 = "sin(((\(lon) - \(b)) * (pi() / 180)) / 2)"
        let h = "(\(s1) * \(s1) + cos(\(lat1)) * cos(\(lat2)) * \(s2) * \(s2))"
        let d = "(2 * asin(least(1, sqrt(\(h)))) * \(Geo.earthRadiusMeters))"
        let low = parameter(String(Swift.max(0, meters - Self.distanceMargin)), "float8")
        let high = parameter(String(meters + Self.distanceMargin), "float8")
        switch op {
        case .lt, .le: return "(\(d) <= \(high))"
        case .gt, .ge: return "(\(d) >= \(low))"
        case .eq: return "(\(d) BETWEEN \(low) AND \(high))"
        // A distance other than `meters` holds nearly everywhere: the filter asks for a point.
        case .ne: return "(\(lat) IS NOT NULL)"
        }
    }
}
