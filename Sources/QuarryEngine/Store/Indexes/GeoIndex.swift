import Foundation
import QuarryCore

/// A latitude/longitude grid over the geo points a key path reaches: each point is filed
/// under its cell, cells are kept sorted, and a region's candidate rows are those in the
/// cells its bounding box touches. Candidates are a superset: the geo condition still runs on
/// them.
final class GeoIndex {
    let path: KeyPath
    let className: String
    /// Cell size in degrees, chosen at build time for a few points per cell.
    private(set) var cellDegrees = 1.0
    private var cells: [Int64] = []
    private var rows: [Int32] = []
    private(set) var isStale = false
    let dependsOnOtherClasses: Bool

    init(path: KeyPath, className: String) {
        self.path = path
        self.className = className
        dependsOnOtherClasses = path.components.count > 1
    }

    func markStale() { isStale = true }

    /// The geo points of a row (elements of an array one by one).
    private func points(_ e: IndexEntries) -> [GeoPoint] {
        e.values.compactMap { if case .geoPoint(let p) = $0 { return p } else { return nil } }
    }

    func rebuild(_ records: some Sequence<Record>, _ resolver: KeyPathResolver) {
        var found: [(GeoPoint, Int32)] = []
        var minLat = 90.0, maxLat = -90.0, minLon = 180.0, maxLon = -180.0
        for (row, record) in records.enumerated() {
            let e = IndexEntries(record, path, resolver)
            for p in points(e) where p.latitude.isFinite && p.longitude.isFinite {
                found.append((p, Int32(row)))
                minLat = Swift.min(minLat, p.latitude); maxLat = Swift.max(maxLat, p.latitude)
                minLon = Swift.min(minLon, p.longitude); maxLon = Swift.max(maxLon, p.longitude)
            }
        }
        // About 8 points per cell over the area the data covers, between 0.01° and 10°.
        let area = Swift.max(1e-4, (maxLat - minLat) * (maxLon - minLon))
        cellDegrees = Swift.min(10, Swift.max(0.01, (area * 8 / Double(Swift.max(1, found.count))).squareRoot()))
        var entries = found.map { (cell(of: $0.0), $0.1) }
        entries.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        cells = entries.map(\.0)
        rows = entries.map(\.1)
        isStale = false
    }

    /// Points with non-finite coordinates are not filed; they are found by no region either
    /// (distances and boxes with NaN are false).
    private func cell(of p: GeoPoint) -> Int64 {
        let (la, lo) = cellCoordinates(p.latitude, p.longitude)
        return la * 1_000_000 + lo
    }

    private func cellCoordinates(_ lat: Double, _ lon: Double) -> (Int64, Int64) {
        (Int64(((lat + 90) / cellDegrees).rounded(.down)), Int64(((lon + 180) / cellDegrees).rounded(.down)))
    }

    /// Rows with a point inside the box (edges included), ascending; nil when the box is not a
    /// usable region (NaN corners).
    func rows(inBox south: Double, _ west: Double, _ north: Double, _ east: Double) -> [Int32]? {
        guard !south.isNaN, !west.isNaN, !north.isNaN, !east.isNaN else { return nil }
        let s = Swift.max(-90, south), n = Swift.min(90, north)
        let w = Swift.max(-180, west), e = Swift.min(180, east)
        guard s <= n, w <= e else { return [] }
        let (la0, lo0) = cellCoordinates(s, w)
        let (la1, lo1) = cellCoordinates(n, e)
        var out: [Int32] = []
        for la in la0...la1 {
            let from = la * 1_000_000 + lo0, to = la * 1_000_000 + lo1
            var i = lowerBound(from)
            while i < cells.count, cells[i] <= to { out.append(rows[i]); i += 1 }
        }
        out.sort()
        return ValueIndex.dedupeSorted(out)
    }

    /// Rows that may lie within `meters` of `center` (a superset).
    func rows(near center: GeoPoint, meters: Double) -> [Int32]? {
        guard meters.isFinite, !center.latitude.isNaN, !center.longitude.isNaN else { return nil }
        // Small slack so that rounding in the haversine never excludes a point at the edge.
        let angle = Swift.max(0, meters) / Geo.earthRadiusMeters * 1.000001 + 1e-9
        let dLat = angle * 180 / .pi
        let south = center.latitude - dLat, north = center.latitude + dLat
        if south <= -90 || north >= 90 || angle >= .pi / 2 {
            return rows(inBox: Swift.max(-90, south), -180, Swift.min(90, north), 180)
        }
        let maxLat = Swift.max(abs(south), abs(north)) * .pi / 180
        let dLon = asin(Swift.min(1, sin(angle) / cos(maxLat))) * 180 / .pi
        let west = center.longitude - dLon, east = center.longitude + dLon
        if west < -180 || east > 180 {
            return rows(inBox: south, -180, north, 180)
        }
        return rows(inBox: south, west, north, east)
    }

    private func lowerBound(_ c: Int64) -> Int {
        var lo = 0, hi = cells.count
        while lo < hi { let mid = (lo + hi) / 2; if cells[mid] < c { lo = mid + 1 } else { hi = mid } }
        return lo
    }
}
