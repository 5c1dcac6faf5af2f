// A backend's use of Quarry: store what clients send, answer queries in each dialect and from
// the builder, decode results into its own types, and serve readers from a task group while a
// writer keeps changing the data. Exits non-zero if any answer disagrees.
//
// `Engine` is not `Sendable` on this branch, so the tasks share it through an actor that owns
// it (each call is one whole query or one whole insert); with a `Sendable` engine the tasks
// call the engine directly.

import Foundation
import Quarry

struct Contact: Codable, Sendable, StoredClass {
    static let className = "Contact"
    var objectId: String?
    var name: String
    var age: Int
    var city: String
    var tags: [String]
    var joined: Date
    var home: GeoPoint?
}

enum Check: Error { case failed(String) }

func expect(_ ok: Bool, _ what: String) throws {
    guard ok else { throw Check.failed(what) }
    print("ok: \(what)")
}

/// The service request handlers call: the engine and the queries they ask.
actor Contacts {
    private let engine = Engine(database: Database())
    static let cities = ["Tokyo", "Dallas", "Austin", "Metropolis"]

    /// What clients sent: Encodable values and Parse REST JSON, one call each.
    func load(_ n: Int) throws -> String {
        for i in 0..<n {
            let contact = Contact(
                objectId: "c\(i)", name: "Person \(i)", age: i % 90, city: Self.cities[i % Self.cities.count],
                tags: i % 3 == 0 ? ["vip"] : [],
                joined: Date(millisecondsSince1970: 1_700_000_000_000 + Int64(i) * 86_400_000),
                home: GeoPoint(latitude: Double(i % 180) - 89.5, longitude: Double(i % 360) - 179.5))
            try engine.insert(contact)
        }
        let zoe = try engine.insert(
            json:
                #"{"name":"Zoe","age":31,"city":"Tokyo","tags":["new"],"joined":{"__type":"Date","iso":"2024-05-01T12:00:00.000Z"}}"#,
            into: "Contact")
        try engine.createIndex(.ordered, on: "age", in: "Contact")
        return zoe.objectId
    }

    /// The three dialects and the builder ask the same question.
    func adultsInTokyoEachWay() throws -> [Int] {
        [
            try engine.count("Contact", where: "age >= 30 AND city = 'Tokyo'"),
            try engine.count(
                "Contact", where: "age >= %d AND city == %@", dialect: .predicate, arguments: [30, "Tokyo"]),
            try engine.count("Contact", where: #"{"age":{"$gte":30},"city":"Tokyo"}"#, dialect: .json),
            try QueryBuilder("Contact").where("age" >= 30, "city" == "Tokyo").count(in: engine),
        ]
    }

    func adults(in city: String) throws -> [Contact] {
        try engine.find(
            Contact.self, where: "age >= 30 AND city == %@", dialect: .predicate, arguments: [.value(.string(city))])
    }

    func first(named name: String) throws -> Contact? {
        try engine.first(Contact.self, where: "name = '\(name)'")
    }

    func youngVIPs() throws -> [Contact] {
        try engine.find(Contact.self, where: #"{"tags":"vip","age":{"$lt":10}}"#, dialect: .json)
    }

    func add(_ contact: Contact) throws { try engine.insert(contact) }

    /// A misspelt field, reported by the one error type.
    func misspelt() -> String? {
        do {
            _ = try engine.find(Contact.self, where: "agee > 3")
            return nil
        } catch {
            return error.code
        }
    }
}

let service = Contacts()
let zoeId = try await service.load(2_000)

let counts = try await service.adultsInTokyoEachWay()
try expect(Set(counts).count == 1, "sql, predicate, json and the builder agree: \(counts[0])")

let zoe = try await service.first(named: "Zoe")
try expect(zoe?.objectId == zoeId && zoe?.tags == ["new"], "Zoe decodes with her new objectId")
let vips = try await service.youngVIPs()
try expect(!vips.isEmpty && vips.allSatisfy { $0.tags == ["vip"] && $0.age < 10 }, "\(vips.count) young VIPs decode")

// Readers in a task group while a writer adds Tokyo adults: a reader's count never goes down
// and stays between the counts before and after.
let before = counts[0]
let readings = try await withThrowingTaskGroup(of: [Int].self) { group in
    group.addTask {
        for i in 0..<200 {
            try await service.add(Contact(name: "New \(i)", age: 40, city: "Tokyo", tags: [], joined: Date()))
        }
        return []
    }
    for _ in 0..<4 {
        group.addTask {
            var seen: [Int] = []
            for _ in 0..<25 { seen.append(try await service.adults(in: "Tokyo").count) }
            return seen
        }
    }
    var all: [[Int]] = []
    for try await seen in group where !seen.isEmpty { all.append(seen) }
    return all
}
let after = try await service.adults(in: "Tokyo").count
try expect(after == before + 200, "the writer's 200 contacts are all there: \(after)")
try expect(
    readings.count == 4
        && readings.allSatisfy { seen in
            zip(seen, seen.dropFirst()).allSatisfy { $0 <= $1 } && seen.allSatisfy { (before...after).contains($0) }
        },
    "4 readers × 25 reads saw counts between \(before) and \(after), never going down")

try expect(await service.misspelt() == "query.unknown-column", "a misspelt field is query.unknown-column")
