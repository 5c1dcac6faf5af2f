// A backend's use of Quarry: store what clients send, answer queries in each dialect and from
// the builder, decode results into its own types, and serve readers concurrently while a
// writer keeps changing the data. Exits non-zero if any answer disagrees.

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

let cities = ["Tokyo", "Dallas", "Austin", "Metropolis"]
let engine = Engine(database: Database())

// What clients sent: Encodable values and Parse REST JSON, one call each.
for i in 0..<2_000 {
    let contact = Contact(
        objectId: "c\(i)", name: "Person \(i)", age: i % 90, city: cities[i % cities.count],
        tags: i % 3 == 0 ? ["vip"] : [], joined: Date(millisecondsSince1970: 1_700_000_000_000 + Int64(i) * 86_400_000),
        home: GeoPoint(latitude: Double(i % 180) - 89.5, longitude: Double(i % 360) - 179.5))
    try engine.insert(contact)
}
let zoe = try engine.insert(
    json: #"{"name":"Zoe","age":31,"city":"Tokyo","tags":["new"],"joined":{"__type":"Date","iso":"2024-05-01T12:00:00.000Z"}}"#,
    into: "Contact")
try engine.createIndex(.ordered, on: "age", in: "Contact")

// The three dialects and the builder ask the same question.
let sql = try await engine.count("Contact", where: "age >= 30 AND city = 'Tokyo'")
let predicate = try await engine.count(
    "Contact", where: "age >= %d AND city == %@", dialect: .predicate, arguments: [30, "Tokyo"])
let json = try await engine.count("Contact", where: #"{"age":{"$gte":30},"city":"Tokyo"}"#, dialect: .json)
let built = try await QueryBuilder("Contact").where("age" >= 30, "city" == "Tokyo").count(in: engine)
try expect(sql == predicate && predicate == json && json == built, "sql, predicate, json and the builder agree: \(sql)")

// Results as the backend's own types.
let found = try await engine.first(Contact.self, where: "name = 'Zoe'")
try expect(found?.objectId == zoe.objectId && found?.tags == ["new"], "Zoe decodes with her new objectId")
let vips = try await engine.find(Contact.self, where: #"{"tags":"vip","age":{"$lt":10}}"#, dialect: .json)
try expect(vips.allSatisfy { $0.tags == ["vip"] && $0.age < 10 }, "\(vips.count) young VIPs decode")

// Readers in a task group while a writer adds Tokyo contacts: every read sees a whole version,
// so the count it reads never goes down and never exceeds the final one.
let before = sql
let readings = try await withThrowingTaskGroup(of: [Int].self) { group in
    group.addTask {
        for i in 0..<200 {
            try engine.insert(
                Contact(name: "New \(i)", age: 40, city: "Tokyo", tags: [], joined: Date(), home: nil))
        }
        return []
    }
    for _ in 0..<4 {
        group.addTask {
            var counts: [Int] = []
            for _ in 0..<25 {
                let adults = try await engine.find(Contact.self, where: "age >= 30 AND city = 'Tokyo'")
                counts.append(adults.count)
            }
            return counts
        }
    }
    var all: [[Int]] = []
    for try await counts in group where !counts.isEmpty { all.append(counts) }
    return all
}
let after = try engine.count("Contact", where: "age >= 30 AND city = 'Tokyo'")
try expect(after == before + 200, "the writer's 200 contacts are all there: \(after)")
try expect(
    readings.allSatisfy { counts in zip(counts, counts.dropFirst()).allSatisfy { $0 <= $1 } && counts.allSatisfy { (before...after).contains($0) } },
    "4 readers × 25 reads saw only whole versions")

// One error type from compile to decode.
do {
    _ = try engine.find(Contact.self, where: "agee > 3")
    throw Check.failed("a misspelt field must be reported")
} catch let error as Diagnostic {
    try expect(error.code == "query.unknown-column", "a misspelt field is \(error.code)")
}
