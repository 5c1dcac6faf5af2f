import Foundation
import QuarryCore

/// A geo condition on a geo-point column: the reference's own distance, box and polygon
/// functions over the typed latitudes and longitudes.
final class GeoLeaf: KeyLeaf {
    let points: GeoColumn
    let condition: GeoCondition
    let invert: Bool

    init(
        _ leaf: Leaf, access: KeyAccess, points: GeoColumn, condition: GeoCondition, invert: Bool,
        answers: SlotAnswers, selectivity: Double
    ) {
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

    /// The vertices' bounding box, a little wider than exact so that rounding in the crossing
    /// test never matters: the planar even-odd test finds no point outside it. Nil when a
    /// coordinate is not finite.
    static func boundingBox(_ vertices: [GeoPoint]) -> (south: Double, north: Double, west: Double, east: Double)? {
        guard let first = vertices.first,
            vertices.allSatisfy({ $0.latitude.isFinite && $0.longitude.isFinite })
        else { return nil }
        var box = (south: first.latitude, north: first.latitude, west: first.longitude, east: first.longitude)
        for v in vertices {
            box.south = Swift.min(box.south, v.latitude)
            box.north = Swift.max(box.north, v.latitude)
            box.west = Swift.min(box.west, v.longitude)
            box.east = Swift.max(box.east, v.longitude)
        }
        let slack = 1e-9
        return (
            box.south - slack * (1 + abs(box.south)), box.north + slack * (1 + abs(box.north)),
            box.west - slack * (1 + abs(box.west)), box.east + slack * (1 + abs(box.east))
        )
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
                    let box = Self.boundingBox(vertices)
                    try drive(&b, ctx) { t in
                        let y = lat[t], x = lon[t]
                        if let box, y < box.south || y > box.north || x < box.west || x > box.east { return invert }
                        return Geo.polygon(vertices, contains: GeoPoint(latitude: y, longitude: x)) != invert
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
