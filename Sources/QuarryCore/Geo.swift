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

    static func onSegment(_ p: GeoPoint, _ a: GeoPoint, _ b: GeoPoint) -> Bool {
        let cross =
            (b.longitude - a.longitude) * (p.latitude - a.latitude)
            - (b.latitude - a.latitude) * (p.longitude - a.longitude)
        guard abs(cross) <= 1e-12 else { return false }
        return p.latitude >= min(a.latitude, b.latitude) && p.latitude <= max(a.latitude, b.latitude)
            && p.longitude >= min(a.longitude, b.longitude) && p.longitude <= max(a.longitude, b.longitude)
    }
}
