import QuarryCore

import QuarryEngine

/// Seeded random data covering what the engine stores typed and what it does not: ints,
/// doubles (NaN, -0.0, infinities), strings (case, diacritics, non-ASCII), dates, bools, geo
/// points, arrays, pointers (also dangling and into the wrong class), nulls, missing fields,
/// fields that mix types, and arrays of objects (some lacking the field, some nested in arrays)
/// for MongoDB's reading of paths through arrays.
public struct RandomData {
    public var rng: SplitMix64

    /// Whether fields mix types and hold NaN, infinities and integers beyond 2^53. Without
    /// it each field keeps to its kind (or null), as the typed data a SQL store pushes down.
    public var mixesTypes: Bool

    public init(seed: UInt64, mixesTypes: Bool = true) {
        rng = SplitMix64(seed: seed)
        self.mixesTypes = mixesTypes
    }

    public mutating func int(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
    public mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
    public mutating func pick<T>(_ xs: [T]) -> T { xs[int(xs.count)] }

    public static let ints: [Int64] = [-1, 0, 1, 2, 5, 10, 42, 100, 9_007_199_254_740_993]
    public static let doubles: [Double] = [0.5, 1.5, -0.0, 2.0, 10.0, 42.5, .nan, .infinity, -2.25]
    public static let strings = [
        "", "a", "A", "ab", "Ab", "abc", "b", "é", "É", "e\u{301}", "ß", "SS", "J", "Jo", "joe",
        "Joe", "Zed", "j%", "10", "2015-03-23", "K", "\u{212A}",
    ]
    public static let dates: [Int64] = [0, 86_400_000, 1_427_068_800_000, 1_700_000_000_000]
    public static let points = [
        GeoPoint(latitude: 30.27, longitude: -97.74), GeoPoint(latitude: 29.76, longitude: -95.36),
        GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: -33.9, longitude: 151.2),
    ]

    public mutating func scalar() -> Value {
        switch int(7) {
        case 0: return .int(pick(Self.ints))
        case 1: return .double(pick(Self.doubles))
        case 2: return .string(pick(Self.strings))
        case 3: return .date(pick(Self.dates))
        case 4: return .bool(chance(50))
        case 5: return .geoPoint(pick(Self.points))
        default: return .null
        }
    }

    /// A value for a field that is mostly of `kind`, sometimes null, sometimes another type.
    public mutating func value(_ kind: Int) -> Value? {
        if chance(10) { return nil }
        if chance(8) { return .null }
        if mixesTypes, chance(7) { return scalar() }
        let doubles = mixesTypes ? Self.doubles : Self.doubles.filter(\.isFinite)
        switch kind {
        case 0:
            return chance(85)
                ? .int(pick(mixesTypes ? Self.ints : Array(Self.ints.dropLast()))) : .double(pick(doubles))
        case 1: return chance(80) ? .double(pick(doubles)) : .int(pick(Self.ints.dropLast()))
        case 2: return .string(pick(Self.strings))
        case 3: return .date(pick(Self.dates))
        case 4: return .bool(chance(50))
        case 5: return .geoPoint(pick(Self.points))
        case 6:
            return .array((0..<int(4)).map { _ in chance(70) || !mixesTypes ? .string(pick(Self.strings)) : scalar() })
        default: return scalar()
        }
    }

    public static let itemFields = ["i", "d", "s", "dt", "b", "g", "tags", "m"]

    public mutating func database(items: Int, others: Int) -> Database {
        var itemRecords: [Record] = []
        for n in 0..<items {
            var fields: [(String, Value)] = []
            for (k, name) in Self.itemFields.enumerated() {
                if let v = value(k) { fields.append((name, v)) }
            }
            if !chance(15) {
                let target = int(others + 2)  // sometimes dangling
                fields.append(
                    ("ptr", chance(5) ? pointerValue("Item", "i\(int(items))") : pointerValue("Other", "o\(target)")))
            }
            if !chance(15) {
                // Mostly clean typed arrays (typed element columns), now and then an odd element.
                let labels: [Value] = (0..<int(4)).map { _ in chance(3) ? .null : .string(pick(Self.strings)) }
                fields.append(("labels", chance(4) && mixesTypes ? scalar() : .array(labels)))
                fields.append(("nums", .array((0..<int(4)).map { _ in .int(pick(Self.ints)) })))
            }
            if chance(60) {
                // Now and then a null among the pointers (`NOT IN` over a list with a null).
                var pointers: [Value] = []
                for _ in 0..<int(3) {
                    pointers.append(chance(8) ? .null : pointerValue("Other", "o\(int(others + 1))"))
                }
                fields.append(("rel", .array(pointers)))
            }
            if chance(50) { fields.append(("docs", documents())) }
            itemRecords.append(Record(objectId: "i\(n)", fields: fields))
        }
        var otherRecords: [Record] = []
        for n in 0..<others {
            var fields: [(String, Value)] = []
            if let v = value(2) { fields.append(("name", v)) }
            if let v = value(0) { fields.append(("n", v)) }
            if chance(70) { fields.append(("owner", pointerValue("Item", "i\(int(items))"))) }
            otherRecords.append(Record(objectId: "o\(n)", fields: fields))
        }
        return Database([
            ClassData(name: "Item", records: itemRecords), ClassData(name: "Other", records: otherRecords),
        ])
    }

    /// An array of small objects `{b: …}` (some without `b`, some with a nested array), now
    /// and then an array nested in the array, an empty array, a lone object or a scalar.
    public mutating func documents() -> Value {
        func object() -> Value {
            switch int(4) {
            case 0: return .object([:])
            case 1: return .object(["b": .array([.string(pick(Self.strings))])])
            default: return .object(["b": chance(15) ? .null : scalar()])
            }
        }
        switch int(10) {
        case 0: return .array([])
        case 1: return .array([.array([object()]), object()])
        case 2: return object()
        case 3: return scalar()
        default: return .array((0..<(1 + int(3))).map { _ in chance(15) ? scalar() : object() })
        }
    }

    private func pointerValue(_ c: String, _ id: String) -> Value { .pointer(Pointer(className: c, objectId: id)) }
}
