import Foundation
import Quarry
import Testing
import QuarryTestSupport

@testable import QuarryCLI

@Suite struct SyntheticDataTests {
    @Test func theSameSeedGivesTheSameObjectsEverywhere() {
        // Golden values: a change here changes every published benchmark figure.
        let data = SyntheticData(rows: 10)
        #expect(
            data.city(0)
                == Record(
                    objectId: "c0",
                    fields: [
                        ("name", "Lima0"), ("country", "CN"), ("population", 5066),
                        ("location", .geoPoint(GeoPoint(latitude: 3.228735, longitude: -96.967772))),
                    ]))
        let p0 = data.person(0)
        #expect(p0.objectId == "p0")
        #expect(p0.fields["name"] == "Ian764")
        #expect(p0.fields["age"] == 50)
        #expect(p0.fields["score"] == 58.29)
        #expect(p0.fields["tags"] == ["i1"])
    }

    @Test func anObjectDependsOnlyOnTheSeedAndItsPosition() {
        let small = SyntheticData(rows: 10, cities: 50), large = SyntheticData(rows: 100_000, cities: 50)
        for i in [0, 3, 9] { #expect(small.person(i) == large.person(i)) }
        #expect(SyntheticData(rows: 10, seed: 1).person(0) != small.person(0))
    }

    @Test func fieldsHaveTheirTypesAndSomeAreMissingOrNull() throws {
        let db = SyntheticData(rows: 2_000).database()
        let people = try #require(db["Person"])
        #expect(people.records.count == 2_000)
        #expect(db["City"]?.records.count == 10)
        #expect(people.fieldTypes["name"] == .string)
        #expect(people.fieldTypes["age"] == .number)
        #expect(people.fieldTypes["score"] == .number)
        #expect(people.fieldTypes["created"] == .date)
        #expect(people.fieldTypes["location"] == .geoPoint)
        #expect(people.fieldTypes["tags"] == .array(of: .string))
        #expect(people.fieldTypes["city"] == .pointer(to: "City"))
        let missingScore = people.records.filter { $0.fields["score"] == nil }.count
        let nullScore = people.records.filter { $0.fields["score"] == .null }.count
        let noCity = people.records.filter { $0.fields["city"] == nil }.count
        #expect((20...80).contains(missingScore))
        #expect((5...40).contains(nullScore))
        #expect((50...150).contains(noCity))
        // Every pointer leads to a stored city.
        for r in people.records {
            if case .pointer(let p)? = r.fields["city"] { #expect(db.resolve(p) != nil) }
        }
    }

    @Test func theWrittenFileLoadsBackAsTheSameDatabase() throws {
        let data = SyntheticData(rows: 300, seed: 9)
        let path = NSTemporaryDirectory() + "quarry-synthetic-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try data.write(toFile: path)
        let loaded = try DataFile.load(path: path)
        let made = data.database()
        #expect(loaded.classNames == made.classNames)
        for name in made.classNames {
            #expect(loaded[name]?.records == made[name]?.records, "class \(name)")
        }
    }

    @Test func anUnwritablePathIsAnError() {
        #expect(throws: SyntheticDataError.self) {
            try SyntheticData(rows: 1).write(toFile: "/nonexistent-directory/x.json")
        }
    }
}
