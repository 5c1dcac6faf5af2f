import QuarryCore

/// Int64 values: the `int` kind, or epoch milliseconds for the `date` kind.
final class Int64Column: Column {
    @exclusivity(unchecked) var values: [Int64] = []

    override func storeTyped(_ v: Value, at row: Int) -> Bool {
        switch (kind, v) {
        case (.int, .int(let i)), (.date, .date(let i)):
            values[row] = i
            return true
        default:
            return false
        }
    }
    override func appendPlaceholder() { values.append(0) }
    override func removeTyped(at row: Int) { values.remove(at: row) }
}

/// Numbers stored as doubles: doubles, and ints that a double holds exactly.
final class DoubleColumn: Column {
    @exclusivity(unchecked) var values: [Double] = []

    /// Whether `Double(i)` is exactly `i` (so comparisons stay exact).
    static func holdsExactly(_ i: Int64) -> Bool {
        i >= -(1 << 53) && i <= (1 << 53)
    }

    override func storeTyped(_ v: Value, at row: Int) -> Bool {
        switch v {
        case .double(let d):
            values[row] = d
            return true
        case .int(let i) where Self.holdsExactly(i):
            values[row] = Double(i)
            return true
        default:
            return false
        }
    }
    override func appendPlaceholder() { values.append(0) }
    override func removeTyped(at row: Int) { values.remove(at: row) }
}

final class BoolColumn: Column {
    @exclusivity(unchecked) var values: [Bool] = []

    override func storeTyped(_ v: Value, at row: Int) -> Bool {
        guard case .bool(let b) = v else { return false }
        values[row] = b
        return true
    }
    override func appendPlaceholder() { values.append(false) }
    override func removeTyped(at row: Int) { values.remove(at: row) }
}

/// Geo points as two arrays of degrees.
final class GeoColumn: Column {
    @exclusivity(unchecked) var latitudes: [Double] = []
    @exclusivity(unchecked) var longitudes: [Double] = []

    override func storeTyped(_ v: Value, at row: Int) -> Bool {
        guard case .geoPoint(let p) = v else { return false }
        latitudes[row] = p.latitude
        longitudes[row] = p.longitude
        return true
    }
    override func appendPlaceholder() {
        latitudes.append(0)
        longitudes.append(0)
    }
    override func removeTyped(at row: Int) {
        latitudes.remove(at: row)
        longitudes.remove(at: row)
    }
    func point(_ row: Int) -> GeoPoint { GeoPoint(latitude: latitudes[row], longitude: longitudes[row]) }
}
