import Foundation
import Quarry
import Testing

/// The embedder API of the `Quarry` module: compile, print, translate, find, count, matches.
@Suite struct UmbrellaAPITests {
    let db: Database
    init() throws {
        let data = try DataFixture(DataFixture.contacts)
        db = try Database(contentsOfFile: data.path)
    }

    @Test func compileGivesTheSameQueryFromEachDialect() throws {
        let sql = try Dialect.sql.compile("score = 7", className: "Contact")
        let predicate = try Dialect.predicate.compile("score == 7", className: "Contact")
        let json = try Dialect.json.compile(#"{"score": 7}"#, className: "Contact")
        #expect(sql.className == "Contact")
        #expect(json.className == "Contact")
        for q in [sql, predicate, json] {
            #expect(try db.run(q).objectIds == ["c1", "c3"])
        }
    }

    @Test func compileWithoutAClassLeavesItEmpty() throws {
        #expect(try Dialect.json.compile(#"{"a": 1}"#, className: "").className == "")
        #expect(try Dialect.sql.compile("a = 1", className: "").className == "")
    }

    @Test func predicateArgumentsAndVariables() throws {
        let options = CompileOptions(arguments: ["name", "A"], variables: ["min": 30])
        let q = try Dialect.predicate.compile("%K BEGINSWITH %@ AND age > $min", className: "Contact", options: options)
        #expect(try db.run(q).objectIds == ["c1"])
    }

    @Test func findCountAndMatches() throws {
        #expect(try db.find("Contact", where: "age > 30").map(\.objectId) == ["c1", "c3"])
        #expect(try db.find("Contact", where: "address.city = 'Austin'").map(\.objectId) == ["c3"])
        #expect(try db.count("Contact", where: "score >= 8") == 2)
        let ann = try #require(db["Contact"]?.record("c1"))
        #expect(try db.matches(ann, className: "Contact", where: "address.city = 'Dallas'"))
        #expect(try !db.matches(ann, className: "Contact", where: "age < 30"))
    }

    @Test func findChecksNamesAgainstTheDatabase() {
        #expect(throws: Diagnostics.self) { try db.find("Contact", where: "agee > 30") }
        do {
            _ = try db.find("Contact", where: "agee > 30")
        } catch {
            #expect(error.all.map(\.code) == ["query.unknown-column"])
        }
    }

    @Test func printAndTranslate() throws {
        let q = try Dialect.sql.compile("age >= 21 AND name IN ('a', 'b')", className: "Contact")
        #expect(try Dialect.sql.print(q) == "age >= 21 AND name IN ('a', 'b')")
        #expect(try Dialect.json.print(q) == #"{"age":{"$gte":21},"name":{"$in":["a","b"]}}"#)
        // By default `age` holds a number, as compared; exactly, it might hold dates, which SQL
        // compares with 21 as milliseconds.
        #expect(try Dialect.sql.translate("age >= 21", to: .json) == #"{"age":{"$gte":21}}"#)
        #expect(
            try Dialect.sql.translate("age >= 21", to: .json, exact: true)
                == #"{"$or":[{"age":{"$gte":21}},{"age":{"$gte":{"__type":"Date","iso":"1970-01-01T00:00:00.021Z"}}}]}"#
        )
    }

    @Test func whereClausesCannotHoldRequestParameters() throws {
        var q = try Dialect.sql.compile("age >= 21", className: "Contact")
        q.order = [.key("age", .descending)]
        q.limit = 3
        #expect(try Dialect.json.print(q) == #"{"where":{"age":{"$gte":21}},"order":"-age","limit":3}"#)
        do {
            _ = try Dialect.predicate.print(q)
            Issue.record("expected translate.inexpressible")
        } catch {
            #expect(
                error.all.map(\.message) == [
                    "a predicate where-clause cannot hold the query's order and limit; only the json dialect writes them"
                ])
        }
    }
}

/// The README's library example, over the bundled sample database.
@Suite struct ReadmeExampleTests {
    /// Tests/QuarryCLITests/UmbrellaAPITests.swift → the package root.
    static let sample =
        "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/") + "/Samples/sample.json"

    @Test func libraryExample() async throws {
        let engine = Engine(database: try Database(contentsOfFile: Self.sample))
        let tokyo = try await engine.find("Contact", where: "age > 20 AND address.city = 'Tokyo'")
        #expect(tokyo.map(\.objectId) == ["k3"])
        let ks = try await engine.find("Contact", where: "name BEGINSWITH[c] %@", dialect: .predicate, arguments: ["k"])
        #expect(ks.map(\.objectId) == ["k3"])
        #expect(try await engine.count("Order", where: #"{"orderAmount":{"$gt":100}}"#, dialect: .json) == 2)
        let top = try await QueryBuilder("Order").where("orderAmount" >= 100)
            .order(.descending("orderAmount")).limit(2).find(in: engine)
        #expect(top.map(\.objectId) == ["o4", "o3"])

        struct Contact: Codable {
            var objectId: String?
            var name: String
            var age: Int?
            var createdAt: Date?
        }
        let adults = try await engine.find(Contact.self, where: "age >= 21")
        #expect(
            adults.map { Value.string($0.name) }
                == (try await engine.find("Contact", where: "age >= 21")).map { $0["name"] })
        #expect(adults.first?.createdAt == Date(timeIntervalSince1970: 1_422_784_800))
        let zoe = try engine.insert(Contact(name: "Zoe", age: 31))
        #expect(zoe.objectId.count == 10)
        try engine.insert(json: #"{"name":"Yan","age":40}"#, into: "Contact")
        #expect(try await engine.count("Contact", where: "name IN ('Zoe', 'Yan')") == 2)

        let text = try Dialect.sql.translate(
            "name LIKE 'J%' AND age > 20", to: .predicate, className: "Contact",
            options: CompileOptions(schema: engine.schema))
        #expect(text == #"name LIKE[c] "J*" AND age > 20"#)
        let query = try engine.compile("name LIKE 'J%' AND age > 20", on: "Contact")
        #expect(try engine.database.matches(tokyo[0], className: "Contact", predicate: query.predicate) == false)
    }

    @Test func predicateExample() throws {
        let db = try Database(contentsOfFile: Self.sample)
        let p = try PredicateFormat.parse(
            "name BEGINSWITH[cd] %@ AND ANY tags IN %@ AND age > $min",
            arguments: ["cl", ["hero", "texas"]]
        ).substituting(["min": 18])
        #expect(try db.run(Query(className: "Contact", predicate: p)).objectIds == ["k1"])
    }

    @Test func builderExample() throws {
        let db = try Database(contentsOfFile: Self.sample)
        let top = try QueryBuilder("Order").where("orderAmount" >= 100)
            .order(.descending("orderAmount")).limit(2).find(in: Engine(database: db))
        #expect(top.map(\.objectId) == ["o4", "o3"])
    }
}
