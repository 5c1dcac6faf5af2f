import QuarryCore

/// Int64 values: the `int` kind, or epoch milliseconds for the `date` kind.
final class Int64Column: Column {
    override var defersValuesWell: Bool { true }
    @exclusivity(unchecked) var values: [Int64] = []

    override func copy(targets: (String) -> PointerTargets) -> Column {
        let c = Int64Column(kind: kind)
        c.values = values
        copyBase(to: c)
        return c
    }

    override func storeTyped(_ v: Value, at row: Int) -> Bool {
        switch (kind, v) {
        case (.int, .int(let i)), (.date, .date(let i)):
            values[row] = i
            return true
        default:
            return false
        }
    }
    override func typedValue(at row: Int) -> Value { kind == .date ? .date(values[row]) : .int(values[row]) }

    /// Each row's number hashed where it is, as its `Value` would be; only the two bounds
    /// become `Value`s (the same statistics as noting every row, a third of the time).
    override func noteTypedValues() {
        let date = kind == .date
        var bounds = BoundRows()
        for row in slots.indices where slots[row] == Slot.value.rawValue {
            statistics.distinct.add(values[row], date: date)
            bounds.see(row) { a, b in values[a] < values[b] ? -1 : (values[a] == values[b] ? 0 : 1) }
        }
        for row in bounds.rows { statistics.note(typedValue(at: row)) }
    }

    override func trimTyped() { values.trimCapacity() }
    override func reserveTyped(_ n: Int) { values.reserveCapacity(values.count + n) }
    override func appendPlaceholder() { values.append(0) }
    override var typedBytes: Int { values.capacity * 8 }
}

/// Numbers stored as doubles: doubles, and ints that a double holds exactly (marked, so that
/// they read back as ints).
final class DoubleColumn: Column {
    override var defersValuesWell: Bool { true }
    @exclusivity(unchecked) var values: [Double] = []
    private var storedInts = RowBits()

    override func copy(targets: (String) -> PointerTargets) -> Column {
        let c = DoubleColumn(kind: kind)
        c.values = values
        c.storedInts = storedInts
        copyBase(to: c)
        return c
    }

    /// Whether `Double(i)` is exactly `i` (so comparisons stay exact).
    static func holdsExactly(_ i: Int64) -> Bool {
        i >= -(1 << 53) && i <= (1 << 53)
    }

    override func storeTyped(_ v: Value, at row: Int) -> Bool {
        switch v {
        case .double(let d):
            values[row] = d
            storedInts[row] = false
            return true
        case .int(let i) where Self.holdsExactly(i):
            values[row] = Double(i)
            storedInts[row] = true
            return true
        default:
            return false
        }
    }
    override func typedValue(at row: Int) -> Value {
        storedInts[row] ? .int(Int64(values[row])) : .double(values[row])
    }

    /// As `Int64Column`'s: ints and doubles hash and order by value alike. A NaN, which has
    /// no place in that order, sends the column the `Value` way.
    override func noteTypedValues() {
        var bounds = BoundRows()
        for row in slots.indices where slots[row] == Slot.value.rawValue {
            guard !values[row].isNaN else { return super.noteTypedValues() }
            bounds.see(row) { a, b in values[a] < values[b] ? -1 : (values[a] == values[b] ? 0 : 1) }
        }
        for row in slots.indices where slots[row] == Slot.value.rawValue { statistics.distinct.add(values[row]) }
        for row in bounds.rows { statistics.note(typedValue(at: row)) }
    }
    override func trimTyped() { values.trimCapacity() }
    override func reserveTyped(_ n: Int) { values.reserveCapacity(values.count + n) }
    override func appendPlaceholder() { values.append(0) }
    override var typedBytes: Int { values.capacity * 8 + storedInts.bytes }
}

final class BoolColumn: Column {
    override var defersValuesWell: Bool { true }
    @exclusivity(unchecked) var values: [Bool] = []

    override func copy(targets: (String) -> PointerTargets) -> Column {
        let c = BoolColumn(kind: kind)
        c.values = values
        copyBase(to: c)
        return c
    }

    override func storeTyped(_ v: Value, at row: Int) -> Bool {
        guard case .bool(let b) = v else { return false }
        values[row] = b
        return true
    }
    override func typedValue(at row: Int) -> Value { .bool(values[row]) }
    override func trimTyped() { values.trimCapacity() }
    override func reserveTyped(_ n: Int) { values.reserveCapacity(values.count + n) }
    override func appendPlaceholder() { values.append(false) }
    override var typedBytes: Int { values.capacity }
}

/// Geo points as two arrays of degrees.
final class GeoColumn: Column {
    override var defersValuesWell: Bool { true }
    @exclusivity(unchecked) var latitudes: [Double] = []
    @exclusivity(unchecked) var longitudes: [Double] = []

    override func copy(targets: (String) -> PointerTargets) -> Column {
        let c = GeoColumn(kind: kind)
        c.latitudes = latitudes
        c.longitudes = longitudes
        copyBase(to: c)
        return c
    }

    override func storeTyped(_ v: Value, at row: Int) -> Bool {
        guard case .geoPoint(let p) = v else { return false }
        latitudes[row] = p.latitude
        longitudes[row] = p.longitude
        return true
    }
    override func typedValue(at row: Int) -> Value { .geoPoint(point(row)) }

    /// As `Int64Column`'s, in `Value.sortOrder`'s order of points (latitude, then longitude).
    override func noteTypedValues() {
        func order(_ a: Int, _ b: Int) -> Int {
            if latitudes[a] != latitudes[b] { return latitudes[a] < latitudes[b] ? -1 : 1 }
            if longitudes[a] != longitudes[b] { return longitudes[a] < longitudes[b] ? -1 : 1 }
            return 0
        }
        var bounds = BoundRows()
        for row in slots.indices where slots[row] == Slot.value.rawValue {
            statistics.distinct.add(point(row))
            bounds.see(row, order)
        }
        for row in bounds.rows { statistics.note(typedValue(at: row)) }
    }

    override func trimTyped() {
        latitudes.trimCapacity()
        longitudes.trimCapacity()
    }
    override func reserveTyped(_ n: Int) {
        latitudes.reserveCapacity(latitudes.count + n)
        longitudes.reserveCapacity(longitudes.count + n)
    }
    override func appendPlaceholder() {
        latitudes.append(0)
        longitudes.append(0)
    }
    override var typedBytes: Int { (latitudes.capacity + longitudes.capacity) * 8 }
    func point(_ row: Int) -> GeoPoint { GeoPoint(latitude: latitudes[row], longitude: longitudes[row]) }
}
