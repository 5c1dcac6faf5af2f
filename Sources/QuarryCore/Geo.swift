import Foundation

/// Great-circle geometry on a sphere. One Earth radius everywhere: 6371 km, the value Parse
/// uses for kilometres (its 3958.8 mi is the same radius in miles) and within 0.0002% of the
/// IUGG mean radius that the Backendless guide's figures assume.
public enum Geo {
    public static let earthRadiusMeters = 6_371_000.0

    /// Central angle between two points, in radians (haversine; stable for small distances).
    @inlinable public static func radians(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let toRad = Double.pi / 180
        let lat1 = a.latitude * toRad, lat2 = b.latitude * toRad
        let dLat = lat2 - lat1
        let dLon = (b.longitude - a.longitude) * toRad
        let s1 = sin(dLat / 2), s2 = sin(dLon / 2)
        let h = s1 * s1 + cos(lat1) * cos(lat2) * s2 * s2
        return 2 * asin(min(1, sqrt(h)))
    }

    /// Great-circle distance in metres.
    @inlinable public static func meters(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        radians(a, b) * earthRadiusMeters
    }

    /// Inside the box, edges included. A box whose south-west corner lies east of its north-east
    /// corner would cross the antimeridian; front-ends reject it, and here it contains nothing.
    @inlinable public static func box(_ p: GeoPoint, southwest sw: GeoPoint, northeast ne: GeoPoint) -> Bool {
        p.latitude >= sw.latitude && p.latitude <= ne.latitude
            && p.longitude >= sw.longitude && p.longitude <= ne.longitude
    }

    /// Point in polygon (ray casting over latitude/longitude as plane coordinates, as Parse
    /// does). Points on an edge count as inside.
    public static func polygon(_ vertices: [GeoPoint], contains p: GeoPoint) -> Bool {
        guard vertices.count >= 3 else { return false }
        var inside = false
        var j = vertices.count - 1
        for i in 0..<vertices.count {
            let a = vertices[i], b = vertices[j]
            if onSegment(p, a, b) { return true }
            if (a.latitude > p.latitude) != (b.latitude > p.latitude) {
                let x =
                    (b.longitude - a.longitude) * (p.latitude - a.latitude)
                    / (b.latitude - a.latitude) + a.longitude
                if p.longitude < x { inside.toggle() }
            }
            j = i
        }
        return inside
    }

    /// The vertices' bounding box, a little wider than exact so that rounding in the crossing
    /// test never matters: `polygon(_:contains:)` finds no point outside it, so a scan or a
    /// store may test the box first. Nil when a coordinate is not finite.
    package static func polygonBox(_ vertices: [GeoPoint]) -> (
        south: Double, north: Double, west: Double, east: Double
    )? {
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

    static func onSegment(_ p: GeoPoint, _ a: GeoPoint, _ b: GeoPoint) -> Bool {
        let cross =
            (b.longitude - a.longitude) * (p.latitude - a.latitude)
            - (b.latitude - a.latitude) * (p.longitude - a.longitude)
        guard abs(cross) <= 1e-12 else { return false }
        return p.latitude >= min(a.latitude, b.latitude) && p.latitude <= max(a.latitude, b.latitude)
            && p.longitude >= min(a.longitude, b.longitude) && p.longitude <= max(a.longitude, b.longitude)
    }
}
