import Foundation
import QuarryCore

/// A geo condition on a geo-point column: the reference's own distance, box and polygon
/// functions over the typed latitudes and longitudes.
final class GeoLeaf: KeyLeaf {
    let points: GeoColumn
    let condition: GeoCondition
    let invert: Bool

    init(_ leaf: Leaf, access: KeyAccess, points: GeoColumn, condition: GeoCondition, invert: Bool,
         answers: SlotAnswers, selectivity: Double) {
        self.points = points
        self.condition = condition
        self.invert = invert
        super.init(leaf, access: access, answers: answers, cost: 20, selectivity: selectivity)
    }

    /// Degrees of latitude beyond which a point is surely farther than `meters`: the central
    /// angle between two points is at least their difference in latitude. A little slack
    /// leaves the borderline points to the exact formula.
    static func latitudeBand(_ meters: Double) -> Double {
        guard meters.isFinite, meters >= 0 else { return .infinity }
        return meters / Geo.earthRadiusMeters * 180 / .pi * (1 + 1e-6) + 1e-9
    }

    /// Whether the condition can be tested here (polygon containment needs a polygon column).
    static func supports(_ g: GeoCondition) -> Bool {
        if case .polygonContains = g { return false }
        return true
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let invert = self.invert
        try points.latitudes.withUnsafeBufferPointer { (lat) throws(Diagnostic) in
            try points.longitudes.withUnsafeBufferPointer { (lon) throws(Diagnostic) in
                switch condition {
                case .near(_, let center, let maxDistance):
                    guard let limit = maxDistance?.meters else {
                        try drive(&b, ctx) { _ in !invert }
                        return
                    }
                    let band = Self.latitudeBand(limit)
                    try drive(&b, ctx) { t in
                        if abs(lat[t] - center.latitude) > band { return invert }
                        return (Geo.meters(center, GeoPoint(latitude: lat[t], longitude: lon[t])) <= limit) != invert
                    }
                case .withinCircle(_, let center, let radius):
                    let limit = radius.meters
                    let band = Self.latitudeBand(limit)
                    try drive(&b, ctx) { t in
                        if abs(lat[t] - center.latitude) > band { return invert }
                        return (Geo.meters(center, GeoPoint(latitude: lat[t], longitude: lon[t])) <= limit) != invert
                    }
                case .withinBox(_, let sw, let ne):
                    try drive(&b, ctx) { t in
                        Geo.box(GeoPoint(latitude: lat[t], longitude: lon[t]), southwest: sw, northeast: ne) != invert
                    }
                case .withinPolygon(_, let vertices):
                    try drive(&b, ctx) { t in
                        Geo.polygon(vertices, contains: GeoPoint(latitude: lat[t], longitude: lon[t])) != invert
                    }
                case .distance(_, let from, let op, let d):
                    let limit = d.meters
                    let band = Self.latitudeBand(limit)
                    // Farther than the distance: the comparison's answer is that of "greater".
                    let far = op.accepts(1) != invert
                    try drive(&b, ctx) { t in
                        if abs(lat[t] - from.latitude) > band { return far }
                        let m = Geo.meters(from, GeoPoint(latitude: lat[t], longitude: lon[t]))
                        return op.accepts(m < limit ? -1 : (m == limit ? 0 : 1)) != invert
                    }
                case .polygonContains:
                    let p = fallback
                    try b.refineThrowing { (_, r) throws(Diagnostic) in try ctx.evaluate(p, row: r) }
                }
            }
        }
    }
}
