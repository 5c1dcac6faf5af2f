// A backend's use of Quarry: store what clients send, answer queries in each dialect and from
// the builder, decode results into its own types, and serve readers from a task group while a
// writer keeps changing the data. Exits non-zero if any answer disagrees.
//
// `Engine` is `Sendable`: the tasks call it directly, readers run at once, each query on the
// version of the data published when it starts, and `engine.read` runs several queries on one
// version (docs/ARCHITECTURE.md#concurrency).

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
struct Contacts: Sendable {
    let engine = Engine(database: Database())
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

    func adults(in city: String) async throws -> [Contact] {
        try await engine.find(
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
    /// The rows and the count of one question, both from one version of the data.
    func adultsAndTheirCount(in city: String) throws -> (rows: Int, count: Int) {
        var query = try engine.compile(
            "age >= 30 AND city == %@", on: "Contact", dialect: .predicate, arguments: [.value(.string(city))])
        query.limit = 1_000_000
        var counting = query
        counting.count = true
        return try engine.read { snapshot in
            let rows = try snapshot.run(query).records.count
            guard case .count(let n) = try snapshot.run(counting) else { return (rows, -1) }
            return (rows, n)
        }
    }

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
let zoeId = try service.load(2_000)

let counts = try service.adultsInTokyoEachWay()
try expect(Set(counts).count == 1, "sql, predicate, json and the builder agree: \(counts[0])")

let zoe = try service.first(named: "Zoe")
try expect(zoe?.objectId == zoeId && zoe?.tags == ["new"], "Zoe decodes with her new objectId")
let vips = try service.youngVIPs()
try expect(!vips.isEmpty && vips.allSatisfy { $0.tags == ["vip"] && $0.age < 10 }, "\(vips.count) young VIPs decode")

// Readers in a task group while a writer adds Tokyo adults: a reader's count never goes down
// and stays between the counts before and after, and the rows and the count read in one
// snapshot agree.
let before = counts[0]
let readings = try await withThrowingTaskGroup(of: [Int].self) { group in
    group.addTask {
        for i in 0..<200 {
            try service.add(Contact(name: "New \(i)", age: 40, city: "Tokyo", tags: [], joined: Date()))
        }
        return []
    }
    for _ in 0..<4 {
        group.addTask {
            var seen: [Int] = []
            for _ in 0..<25 {
                seen.append(try await service.adults(in: "Tokyo").count)
                let (rows, count) = try service.adultsAndTheirCount(in: "Tokyo")
                guard rows == count else { throw Check.failed("one snapshot: \(rows) rows but a count of \(count)") }
            }
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

try expect(service.misspelt() == "query.unknown-column", "a misspelt field is query.unknown-column")
