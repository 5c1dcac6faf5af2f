import Foundation
import QuarryCore

/// A latitude/longitude grid over the geo points a key path reaches: each point is an entry
/// sorted by its cell (then its coordinates; the cell is computed, not stored), entries are kept sorted (`SortedEntries`), and a
/// box's rows are found by walking, for each row of cells it touches, the run of its cells,
/// keeping the points inside the box. Inserts, replacements and deletes update the entries in
/// place (also for paths through pointers: the rows that reached a changed object); the cell
/// size is chosen again (a rebuild from the entries) only when the number of points has
/// changed several-fold since it was chosen.
final class GeoIndex {
    let path: FieldPath
    let className: String
    /// The cells, sized for a few points each.
    private(set) var grid = GeoGrid(cellDegrees: 1)
    private(set) var entries = SortedEntries<GeoEntry>(order: GeoGrid(cellDegrees: 1).order)
    var cellDegrees: Double { grid.cellDegrees }
    /// Points when the cell size was chosen.
    private var pointsAtLayout = 0
    /// Rows whose key reaches something other than nothing, null or one geo point (arrays,
    /// objects, numbers…): while there are any, coordinate ranges cannot use the grid.
    private(set) var irregularRows = 0
    /// Rows by the objects their points depend on (paths through pointers).
    private(set) var dependents = DependentRows()

    init(path: FieldPath, className: String) {
        self.path = path
        self.className = className
    }

    /// The same index for a copy of the store (`ColumnStore.copy`): its arrays are shared with
    /// this one's until either changes them.
    func copy() -> GeoIndex {
        let c = GeoIndex(path: path, className: className)
        c.grid = grid
        c.entries = entries
        c.pointsAtLayout = pointsAtLayout
        c.irregularRows = irregularRows
        c.dependents = dependents
        return c
    }

    /// Every row's key reaches nothing, null or a single geo point.
    var onlySinglePoints: Bool { irregularRows == 0 }

    /// The geo points of a row (elements of an array one by one), all of them: a NaN or
    /// infinite coordinate is in no geo region, but it still meets coordinate ranges (NaN
    /// sorts before every number).
    private static func points(_ e: IndexEntries) -> [GeoPoint] {
        e.values.compactMap { if case .geoPoint(let p) = $0 { return p } else { return nil } }
    }

    private static func isIrregular(_ e: IndexEntries) -> Bool {
        guard !e.isNil else { return false }
        guard !e.multiValued, e.values.count == 1, case .geoPoint = e.values[0] else { return true }
        return false
    }

    /// Builds from the entries of the rows holding objects (`entries(row)`); `fieldValue` as
    /// for `ValueIndex.rebuild`.
    func rebuild(
        rows: some Sequence<Int>, fieldValue: ((Int) -> Value?)? = nil, _ entriesOf: (Int) -> IndexEntries
    ) {
        var found: [(GeoPoint, Int32)] = []
        irregularRows = 0
        dependents = DependentRows()
        for row in rows {
            switch fieldValue.map({ IndexEntries.plain($0(row)) }) {
            case .none?: break
            case .scalar(.geoPoint(let p))?: found.append((p, Int32(row)))
            case .scalar?: irregularRows += 1
            case .needsRecord?, nil:
                let e = entriesOf(row)
                if Self.isIrregular(e) { irregularRows += 1 }
                if !e.reached.isEmpty { dependents.add(Int32(row), e.reached) }
                for p in Self.points(e) { found.append((p, Int32(row))) }
            }
        }
        layOut(found)
    }

    /// Chooses the cell size for the points and files them: about 8 points per cell over the
    /// area the valid ones cover, between 0.01° and 10°.
    private func layOut(_ found: [(GeoPoint, Int32)]) {
        var minLat = 90.0, maxLat = -90.0, minLon = 180.0, maxLon = -180.0
        for (p, _) in found where abs(p.latitude) <= 90 && abs(p.longitude) <= 180 {
            minLat = Swift.min(minLat, p.latitude); maxLat = Swift.max(maxLat, p.latitude)
            minLon = Swift.min(minLon, p.longitude); maxLon = Swift.max(maxLon, p.longitude)
        }
        let area = minLat <= maxLat ? Swift.max(1e-4, (maxLat - minLat) * (maxLon - minLon)) : 1e-4
        let grid = GeoGrid(
            cellDegrees: Swift.min(10, Swift.max(0.01, (area * 8 / Double(Swift.max(1, found.count))).squareRoot())))
        // Each entry's cell computed once, not at every comparison: `grid.order`, then row.
        var filed = found.map { p, row in
            let e = GeoEntry(p)
            return (grid.cell(e), e, row)
        }
        filed.sort { a, b in
            if a.0 != b.0 { return a.0 < b.0 }
            var c = LatLonBox.order(a.1.latitude, b.1.latitude)
            if c == 0 { c = LatLonBox.order(a.1.longitude, b.1.longitude) }
            return c != 0 ? c < 0 : a.2 < b.2
        }
        self.grid = grid
        entries = SortedEntries(sorted: filed.map(\.1), filed.map(\.2), order: grid.order)
        pointsAtLayout = found.count
    }

    /// Every point filed, with its row.
    private func allPoints() -> [(GeoPoint, Int32)] {
        var out: [(GeoPoint, Int32)] = []
        out.reserveCapacity(entries.count)
        entries.forEach(in: 0..<entries.count) { e, row in
            out.append((GeoPoint(latitude: e.latitude, longitude: e.longitude), row))
        }
        return out
    }

    // MARK: - Changes (rows of its own class; rows never move: docs/STORAGE.md#deletes)

    func add(_ row: Int, _ e: IndexEntries) {
        if Self.isIrregular(e) { irregularRows += 1 }
        if !e.reached.isEmpty { dependents.add(Int32(row), e.reached) }
        for p in Self.points(e) { entries.insert(GeoEntry(p), Int32(row)) }
        // Cells sized for far fewer points than there are now would hold too many each.
        if entries.count > 4 * pointsAtLayout + 64 { layOut(allPoints()) }
    }

    func remove(_ row: Int, _ e: IndexEntries) {
        if Self.isIrregular(e) { irregularRows -= 1 }
        if !e.reached.isEmpty { dependents.remove(Int32(row), e.reached) }
        for p in Self.points(e) { entries.remove(GeoEntry(p), Int32(row)) }
        if pointsAtLayout > 64, entries.count * 4 < pointsAtLayout { layOut(allPoints()) }
    }

    // MARK: - Lookups

    /// Rows with a point inside a geo box (edges included, as `Geo.box`), ascending, no
    /// repeats; nil when the box is no region (a NaN corner: comparisons with NaN are false).
    func rows(inBox south: Double, _ west: Double, _ north: Double, _ east: Double) -> [Int32]? {
        guard !south.isNaN, !west.isNaN, !north.isNaN, !east.isNaN else { return nil }
        return rows(in: LatLonBox(south: south, west: west, north: north, east: east))
    }

    /// Rows with a point whose coordinates lie in the box's ranges, ascending, no repeats.
    func rows(in box: LatLonBox) -> [Int32] {
        var out: [Int32] = []
        walk(box) { range in
            entries.forEach(in: range) { e, row in
                if box.contains(latitude: e.latitude, longitude: e.longitude) { out.append(row) }
            }
        }
        out.sort()
        return ValueIndex.dedupeSorted(out)
    }

    /// Points in the cells the box touches: an upper bound on the rows `rows(in:)` finds,
    /// counted without visiting them.
    func candidateCount(in box: LatLonBox) -> Int {
        var n = 0
        walk(box) { n += $0.count }
        return n
    }

    /// The entry ranges of the cells a box touches: one per row of cells, or a single one when
    /// the box spans every longitude (whole rows of cells are adjacent entries).
    private func walk(_ box: LatLonBox, _ body: (Range<Int>) -> Void) {
        guard !box.isEmpty, entries.count > 0 else { return }
        let grid = self.grid
        let (la0, lo0) = grid.cellCoordinates(box.south, box.west)
        let (la1, lo1) = grid.cellCoordinates(box.north, box.east)
        let lastColumn = grid.cellCoordinates(0, 180).1
        if lo0 == 0, lo1 == lastColumn {
            let start = entries.firstPosition { e, _ in grid.cell(e) >= la0 * 1_000_000 }
            let end = entries.firstPosition { e, _ in grid.cell(e) >= (la1 + 1) * 1_000_000 }
            if start < end { body(start..<end) }
            return
        }
        // Only the rows of cells that hold points.
        let low = Swift.max(la0, grid.cell(entries.key(at: 0)) / 1_000_000)
        let high = Swift.min(la1, grid.cell(entries.key(at: entries.count - 1)) / 1_000_000)
        guard low <= high else { return }
        for la in low...high {
            let from = la * 1_000_000 + lo0, to = la * 1_000_000 + lo1
            let start = entries.firstPosition { e, _ in grid.cell(e) >= from }
            let end = entries.firstPosition { e, _ in grid.cell(e) > to }
            if start < end { body(start..<end) }
        }
    }

    /// Rows that may lie within `meters` of `center` (a superset).
    func rows(near center: GeoPoint, meters: Double) -> [Int32]? {
        guard meters.isFinite, !center.latitude.isNaN, !center.longitude.isNaN else { return nil }
        // Small slack so that rounding in the haversine never excludes a point at the edge.
        let angle = Swift.max(0, meters) / Geo.earthRadiusMeters * 1.000001 + 1e-9
        let dLat = angle * 180 / .pi
        let south = center.latitude - dLat, north = center.latitude + dLat
        // Around a pole, or across the antimeridian: every longitude (and open towards the
        // pole, where out-of-range latitudes are filed).
        if south <= -90 || north >= 90 || angle >= .pi / 2 {
            return rows(
                inBox: south <= -90 ? -.infinity : south, -.infinity, north >= 90 ? .infinity : north, .infinity)
        }
        let maxLat = Swift.max(abs(south), abs(north)) * .pi / 180
        let dLon = asin(Swift.min(1, sin(angle) / cos(maxLat))) * 180 / .pi
        let west = center.longitude - dLon, east = center.longitude + dLon
        if west < -180 || east > 180 {
            return rows(inBox: south, -.infinity, north, .infinity)
        }
        return rows(inBox: south, west, north, east)
    }
}

/// Closed ranges of latitude and longitude in the order numbers sort in (`Value.sortOrder`:
/// NaN before every other number), so that NaN as a lower bound leaves that side open and
/// +infinity as an upper bound does.
struct LatLonBox: Hashable {
    enum Coordinate { case latitude, longitude }

    var south = Double.nan
    var west = Double.nan
    var north = Double.infinity
    var east = Double.infinity

    /// Keeps only `lo...hi` of a coordinate.
    mutating func narrow(_ coordinate: Coordinate, _ lo: Double, _ hi: Double) {
        switch coordinate {
        case .latitude:
            if Self.order(south, lo) < 0 { south = lo }
            if Self.order(hi, north) < 0 { north = hi }
        case .longitude:
            if Self.order(west, lo) < 0 { west = lo }
            if Self.order(hi, east) < 0 { east = hi }
        }
    }

    var isEmpty: Bool { Self.order(south, north) > 0 || Self.order(west, east) > 0 }

    func contains(latitude: Double, longitude: Double) -> Bool {
        Self.order(south, latitude) <= 0 && Self.order(latitude, north) <= 0
            && Self.order(west, longitude) <= 0 && Self.order(longitude, east) <= 0
    }

    /// Numbers as `Value.sortOrder` orders them: NaN first, equal only to NaN.
    static func order(_ x: Double, _ y: Double) -> Int {
        if x.isNaN || y.isNaN { return x.isNaN ? (y.isNaN ? 0 : -1) : 1 }
        return x < y ? -1 : (x == y ? 0 : 1)
    }
}

/// A filed point: its coordinates only (each point of a row is its own entry, found again
/// exactly when it is removed); its cell follows from them.
struct GeoEntry {
    let latitude: Double
    let longitude: Double

    init(_ p: GeoPoint) {
        latitude = p.latitude
        longitude = p.longitude
    }
}

/// Square cells of `cellDegrees`, numbered row of cells (latitude) first.
struct GeoGrid {
    let cellDegrees: Double

    /// The cell of a point; coordinates beyond ±90°/±180° go to the edge cells and NaN to the
    /// first (monotonic in `LatLonBox.order`, so a box still finds them).
    func cell(_ e: GeoEntry) -> Int64 {
        let (la, lo) = cellCoordinates(e.latitude, e.longitude)
        return la * 1_000_000 + lo
    }

    func cellCoordinates(_ lat: Double, _ lon: Double) -> (Int64, Int64) {
        func index(_ x: Double, _ limit: Double) -> Int64 {
            x.isNaN ? 0 : Int64(((Swift.min(limit, Swift.max(-limit, x)) + limit) / cellDegrees).rounded(.down))
        }
        return (index(lat, 90), index(lon, 180))
    }

    /// By cell, then latitude, then longitude.
    func order(_ a: GeoEntry, _ b: GeoEntry) -> Int {
        let ca = cell(a), cb = cell(b)
        if ca != cb { return ca < cb ? -1 : 1 }
        let c = LatLonBox.order(a.latitude, b.latitude)
        return c != 0 ? c : LatLonBox.order(a.longitude, b.longitude)
    }
}
