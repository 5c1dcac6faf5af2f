import QuarryCore
import QuarryTestSupport

@testable import QuarryEngine

/// Seeded random data covering what the engine stores typed and what it does not: ints,
/// doubles (NaN, -0.0, infinities), strings (case, diacritics, non-ASCII), dates, bools, geo
/// points, arrays, pointers (also dangling and into the wrong class), nulls, missing fields,
/// and fields that mix types.
struct RandomData {
    var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func int(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
    mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
    mutating func pick<T>(_ xs: [T]) -> T { xs[int(xs.count)] }

    static let ints: [Int64] = [-1, 0, 1, 2, 5, 10, 42, 100, 9_007_199_254_740_993]
    static let doubles: [Double] = [0.5, 1.5, -0.0, 2.0, 10.0, 42.5, .nan, .infinity, -2.25]
    static let strings = ["", "a", "A", "ab", "Ab", "abc", "b", "é", "É", "e\u{301}", "ß", "SS", "J", "Jo", "joe",
                          "Joe", "Zed", "j%", "10", "2015-03-23", "K", "\u{212A}"]
    static let dates: [Int64] = [0, 86_400_000, 1_427_068_800_000, 1_700_000_000_000]
    static let points = [GeoPoint(latitude: 30.27, longitude: -97.74), GeoPoint(latitude: 29.76, longitude: -95.36),
                         GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: -33.9, longitude: 151.2)]

    mutating func scalar() -> Value {
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
    mutating func value(_ kind: Int) -> Value? {
        if chance(10) { return nil }
        if chance(8) { return .null }
        if chance(7) { return scalar() }
        switch kind {
        case 0: return chance(85) ? .int(pick(Self.ints)) : .double(pick(Self.doubles))
        case 1: return chance(80) ? .double(pick(Self.doubles)) : .int(pick(Self.ints.dropLast()))
        case 2: return .string(pick(Self.strings))
        case 3: return .date(pick(Self.dates))
        case 4: return .bool(chance(50))
        case 5: return .geoPoint(pick(Self.points))
        case 6: return .array((0..<int(4)).map { _ in chance(70) ? .string(pick(Self.strings)) : scalar() })
        default: return scalar()
        }
    }

    static let itemFields = ["i", "d", "s", "dt", "b", "g", "tags", "m"]

    mutating func database(items: Int, others: Int) -> Database {
        var itemRecords: [Record] = []
        for n in 0..<items {
            var fields: [(String, Value)] = []
            for (k, name) in Self.itemFields.enumerated() {
                if let v = value(k) { fields.append((name, v)) }
            }
            if !chance(15) {
                let target = int(others + 2)  // sometimes dangling
                fields.append(("ptr", chance(5) ? pointerValue("Item", "i\(int(items))") : pointerValue("Other", "o\(target)")))
            }
            if !chance(15) {
                // Mostly clean typed arrays (typed element columns), now and then an odd element.
                let labels: [Value] = (0..<int(4)).map { _ in chance(3) ? .null : .string(pick(Self.strings)) }
                fields.append(("labels", chance(4) ? scalar() : .array(labels)))
                fields.append(("nums", .array((0..<int(4)).map { _ in .int(pick(Self.ints)) })))
            }
            if chance(60) {
                fields.append(("rel", .array((0..<int(3)).map { _ in pointerValue("Other", "o\(int(others + 1))") })))
            }
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
        return Database([ClassData(name: "Item", records: itemRecords), ClassData(name: "Other", records: otherRecords)])
    }

    private func pointerValue(_ c: String, _ id: String) -> Value { .pointer(Pointer(className: c, objectId: id)) }
}
