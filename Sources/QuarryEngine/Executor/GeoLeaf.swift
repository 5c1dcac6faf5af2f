import Foundation
import QuarryCore

/// A geo condition on a geo-point column: the reference's own distance, box and polygon
/// functions over the typed latitudes and longitudes.
final class GeoLeaf: KeyLeaf {
    let points: GeoColumn
    let condition: GeoCondition
    /// The condition for the execution's literals, when the leaf reads them (docs/ARCHITECTURE.md#plan-parameters).
    let conditionOf: Parameter<GeoCondition>?
    let invert: Bool

    init(
        _ leaf: Leaf, access: KeyAccess, points: GeoColumn, condition: GeoCondition, invert: Bool,
        answers: SlotAnswers, selectivity: Double, parameter: Parameter<GeoCondition>? = nil
    ) {
        self.points = points
        self.condition = condition
        self.conditionOf = parameter
        self.invert = invert
        super.init(
            leaf, access: access, answers: answers, cost: 20, selectivity: selectivity,
            parameterSlots: parameter?.slots)
    }

    /// Degrees of latitude beyond which a point is surely farther than `meters`: the central
    /// angle between two points is at least their difference in latitude. A little slack
    /// leaves the borderline points to the exact formula.
    static func latitudeBand(_ meters: Double) -> Double {
        guard meters.isFinite, meters >= 0 else { return .infinity }
        return meters / Geo.earthRadiusMeters * 180 / .pi * (1 + 1e-6) + 1e-9
    }

    /// A range of latitudes as its middle and half its width, a little wider than exact:
    /// `|v - middle| <= half` holds for every `v` in the range (and for some just outside,
    /// which the exact test after it turns away). One comparison and a branch that is rarely
    /// taken, where `lo <= v && v <= hi` costs a mispredicted branch every other row when the
    /// values fall below and above a narrow range at random (it doubled the time of a box test).
    struct Band {
        let middle: Double
        let half: Double

        /// Nil when a bound is not finite.
        init?(_ lo: Double, _ hi: Double) {
            guard lo.isFinite, hi.isFinite else { return nil }
            middle = lo / 2 + hi / 2
            // Far more slack than the rounding of the subtractions (a few units in the last
            // place of numbers below 10^308): no value of the range is ever left out.
            half = (hi / 2 - lo / 2) + 1e-9 * (1 + abs(lo) + abs(hi))
        }

        /// False only for values outside the range (NaN included).
        @inline(__always) func mayContain(_ v: Double) -> Bool { abs(v - middle) <= half }
    }

    /// Whether the condition can be tested here (polygon containment needs a polygon column).
    static func supports(_ g: GeoCondition) -> Bool {
        if case .polygonContains = g { return false }
        return true
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let invert = self.invert, condition = conditionOf?.madeValue(ctx, for: self) ?? self.condition
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
                    guard let band = Band(sw.latitude, ne.latitude) else {
                        try drive(&b, ctx) { t in
                            Geo.box(GeoPoint(latitude: lat[t], longitude: lon[t]), southwest: sw, northeast: ne)
                                != invert
                        }
                        return
                    }
                    try drive(&b, ctx) { t in
                        guard band.mayContain(lat[t]) else { return invert }
                        return Geo.box(GeoPoint(latitude: lat[t], longitude: lon[t]), southwest: sw, northeast: ne)
                            != invert
                    }
                case .withinPolygon(_, let vertices):
                    guard let box = Geo.polygonBox(vertices), let band = Band(box.south, box.north) else {
                        try drive(&b, ctx) { t in
                            Geo.polygon(vertices, contains: GeoPoint(latitude: lat[t], longitude: lon[t])) != invert
                        }
                        return
                    }
                    try drive(&b, ctx) { t in
                        let y = lat[t], x = lon[t]
                        guard band.mayContain(y), x >= box.west, x <= box.east else {
                            return invert
                        }
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
