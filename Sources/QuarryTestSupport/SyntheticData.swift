import Foundation
import Quarry

/// The benchmark data set: `Person` objects (names, ages, scores, dates, geo points, tags and a
/// pointer to a `City`) and the `City` objects they point to.
///
/// Deterministic: every object depends only on the seed and its position, so the same
/// parameters give the same data on every machine, and an object can be made without making
/// the ones before it.
///
/// ```swift
/// let db = SyntheticData(rows: 10_000).database()
/// ```
public struct SyntheticData: Sendable {
    public static let personClass = "Person"
    public static let cityClass = "City"

    /// Number of `Person` objects.
    public let rows: Int
    /// Number of `City` objects.
    public let cities: Int
    public let seed: UInt64
    private let cityLocations: [GeoPoint]

    /// - Parameter cities: by default one city per 1,000 people, between 10 and 1,000.
    public init(rows: Int = 1_000_000, cities: Int? = nil, seed: UInt64 = 42) {
        self.rows = max(0, rows)
        self.cities = max(1, cities ?? min(1_000, max(10, rows / 1_000)))
        self.seed = seed
        var locations: [GeoPoint] = []
        for i in 0..<self.cities {
            var g = Self.cityGenerator(seed, i)
            locations.append(
                GeoPoint(
                    latitude: round6(g.double(in: -55, 65)),
                    longitude: round6(g.double(in: -170, 170))))
        }
        cityLocations = locations
    }

    /// Both classes, cities first.
    public func database() -> Database {
        var people = ClassData(name: Self.personClass)
        for i in 0..<rows { people.insert(person(i)) }
        return Database([ClassData(name: Self.cityClass, records: (0..<cities).map(city)), people])
    }

    /// The `i`th city: `name` (`Paris12`), `country` (`FR`…), `population`, `location`.
    public func city(_ i: Int) -> Record {
        var g = Self.cityGenerator(seed, i)
        _ = (g.next(), g.next())  // the location's two draws, kept in `cityLocations`
        return Record(
            objectId: Self.cityId(i),
            fields: [
                ("name", .string(Self.cityNames[g.below(Self.cityNames.count)] + String(i))),
                ("country", .string(Self.countries[g.below(Self.countries.count)])),
                // Log-uniform between 1,000 and 10 million, as city sizes roughly are.
                ("population", .int(Int64(pow10(g.double(in: 3, 7))))),
                ("location", .geoPoint(cityLocations[i])),
            ])
    }

    /// The `i`th person. About 2% have no `score`, 1% a null `score`, 10% no `tags` and 5% no
    /// `city`, so null and missing values are exercised.
    public func person(_ i: Int) -> Record {
        var g = SplitMix64(seed: seed, stream: UInt64(i))
        let cityIndex = g.below(cities)
        let home = cityLocations[cityIndex]
        var fields: [(String, Value)] = [
            ("name", .string(Self.firstNames[g.below(Self.firstNames.count)] + String(g.below(1_000)))),
            ("age", .int(Int64(g.below(100)))),
        ]
        let scoreRoll = g.below(100)
        let score = Double(g.below(10_001)) / 100  // 0.00 ... 100.00, exact in decimal
        if scoreRoll >= 3 {
            fields.append(("score", .double(score)))
        } else if scoreRoll == 2 {
            fields.append(("score", .null))
        }
        fields.append(("created", .date(Self.epoch2020 + Int64(g.below(Self.fiveYearsMillis)))))
        // Within about 50 km of the home city.
        fields.append(
            (
                "location",
                .geoPoint(
                    GeoPoint(
                        latitude: round6(clamp(home.latitude + g.double(in: -0.45, 0.45), -89.9, 89.9)),
                        longitude: round6(clamp(home.longitude + g.double(in: -0.45, 0.45), -179.9, 179.9))))
            ))
        if g.below(10) != 0 {
            var tags: [Value] = []
            for _ in 0..<g.below(5) {
                let tag = Value.string(Self.tagLetters[g.below(Self.tagLetters.count)] + String(1 + g.below(5)))
                if !tags.contains(tag) { tags.append(tag) }
            }
            fields.append(("tags", .array(tags)))
        }
        if g.below(20) != 0 {
            fields.append(("city", .pointer(Pointer(className: Self.cityClass, objectId: Self.cityId(cityIndex)))))
        }
        return Record(objectId: Self.personId(i), fields: fields)
    }

    public static func personId(_ i: Int) -> String { "p" + String(i) }
    public static func cityId(_ i: Int) -> String { "c" + String(i) }

    private static func cityGenerator(_ seed: UInt64, _ i: Int) -> SplitMix64 {
        SplitMix64(seed: seed ^ 0xC17F_C17F_C17F_C17F, stream: UInt64(i))
    }

    /// 2020-01-01T00:00:00Z.
    static let epoch2020: Int64 = 1_577_836_800_000
    static let fiveYearsMillis = 1_827 * 86_400_000

    static let firstNames = [
        "Ada", "Alan", "Alice", "Amir", "Ann", "Anna", "Ben", "Bob", "Carl", "Cara", "Chen", "Dan",
        "Dana", "Eva", "Emil", "Finn", "Gus", "Hana", "Ian", "Ida", "Ivan", "Jack", "Jane", "Joe",
        "John", "Jose", "Juan", "Julia", "June", "Kai", "Kim", "Lars", "Lea", "Leo", "Liam", "Lily",
        "Luis", "Mara", "Mark", "Mia", "Nia", "Noah", "Nora", "Olga", "Omar", "Otto", "Paul", "Pia",
        "Raj", "Rosa", "Ruth", "Sam", "Sara", "Tara", "Tom", "Uma", "Vera", "Wei", "Will", "Xena",
        "Yara", "Yuki", "Zack", "Zoe",
    ]
    static let cityNames = [
        "Austin", "Berlin", "Cairo", "Delhi", "Essen", "Fukuoka", "Geneva", "Hanoi", "Izmir", "Jakarta",
        "Kyoto", "Lima", "Madrid", "Nairobi", "Oslo", "Paris", "Quito", "Rome", "Seoul", "Tunis",
    ]
    static let countries = [
        "AR", "AU", "BR", "CA", "CN", "DE", "EG", "ES", "FR", "GB", "ID", "IN", "IT", "JP", "KE", "MX",
        "NG", "NO", "PE", "US",
    ]
    static let tagLetters = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]
}

private func round6(_ x: Double) -> Double { (x * 1_000_000).rounded() / 1_000_000 }
private func clamp(_ x: Double, _ low: Double, _ high: Double) -> Double { min(max(x, low), high) }
private func pow10(_ x: Double) -> Double { pow(10, x) }

extension SyntheticData {
    /// Writes the data set as a data file `--data` reads: the database layout
    /// `{"City": [...], "Person": [...]}` in Parse REST JSON, one object a line. Objects are
    /// made and written one at a time, so memory stays flat however many rows there are.
    public func write(toFile path: String) throws(SyntheticDataError) {
        guard let file = fopen(path, "wb") else { throw SyntheticDataError(path: path, code: errno) }
        var out: [UInt8] = []
        out.reserveCapacity(1 << 20)
        func flush() throws(SyntheticDataError) {
            let written = out.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
            guard written == out.count else { throw SyntheticDataError(path: path, code: ferror(file)) }
            out.removeAll(keepingCapacity: true)
        }
        func section(_ name: String, _ count: Int, first: Bool, _ record: (Int) -> Record) throws(SyntheticDataError) {
            let opening = (first ? "{" : ",\n") + "\"\(name)\": [\n"
            out += Array(opening.utf8)
            for i in 0..<count {
                if i > 0 { out += Array(",\n".utf8) }
                ParseJSON.write(record(i), to: &out)
                if out.count >= 1 << 20 { try flush() }
            }
            out += Array("\n]".utf8)
        }
        do {
            try section(Self.cityClass, cities, first: true, city)
            try section(Self.personClass, rows, first: false, person)
            out += Array("}\n".utf8)
            try flush()
        } catch {
            fclose(file)
            throw error
        }
        guard fclose(file) == 0 else { throw SyntheticDataError(path: path, code: errno) }
    }
}

extension SyntheticData {
    /// Writes one class of the data set as NDJSON, one object a line (what DuckDB's `read_json`
    /// reads in `make bench`, and what Quarry loads for the loading comparison).
    public func writeNDJSON(className: String, toFile path: String) throws(SyntheticDataError) {
        guard let file = fopen(path, "wb") else { throw SyntheticDataError(path: path, code: errno) }
        let (count, record) = className == Self.cityClass ? (cities, city) : (rows, person)
        var out: [UInt8] = []
        out.reserveCapacity(1 << 20)
        for i in 0..<count {
            ParseJSON.write(record(i), to: &out)
            out.append(0x0A)
            if out.count >= 1 << 20 || i == count - 1 {
                let written = out.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
                guard written == out.count else {
                    fclose(file)
                    throw SyntheticDataError(path: path, code: ferror(file))
                }
                out.removeAll(keepingCapacity: true)
            }
        }
        guard fclose(file) == 0 else { throw SyntheticDataError(path: path, code: errno) }
    }
}

/// The data file could not be written.
public struct SyntheticDataError: Error, CustomStringConvertible {
    public var path: String
    public var code: Int32
    public var description: String { "cannot write \(path): \(String(cString: strerror(code)))" }
}
