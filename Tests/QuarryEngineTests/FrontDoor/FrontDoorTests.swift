import Foundation
import Quarry
import Testing

/// The sample data set the README uses.
enum Sample {
    /// Tests/QuarryEngineTests/FrontDoor/… → the package root.
    static let path =
        "/" + #filePath.split(separator: "/").dropLast(4).joined(separator: "/") + "/Samples/sample.json"
    static func database() throws -> Database { try Database(contentsOfFile: path) }
    static func engine(limits: Limits = .default) throws -> Engine { Engine(database: try database(), limits: limits) }
}

/// `engine.find/first/count/explain` in each dialect, against the reference evaluator.
@Suite struct FrontDoorTests {
    @Test func eachDialectFindsWhatTheReferenceFinds() throws {
        let db = try Sample.database()
        let engine = Engine(database: db)
        let cases: [(Dialect, String)] = [
            (.sql, "age > 20 AND address.city = 'Tokyo'"),
            (.predicate, "age > 20 AND address.city == 'Tokyo'"),
            (.json, #"{"age":{"$gt":20},"address":{"$inQuery":{"where":{"city":"Tokyo"},"className":"Address"}}}"#),
        ]
        for (dialect, text) in cases {
            let query = try dialect.compile(text, className: "Contact", options: CompileOptions(schema: db))
            let expected = try db.run(query).objectIds
            #expect(expected == ["k3"])
            #expect(try engine.find("Contact", where: text, dialect: dialect).map(\.objectId) == expected)
            #expect(try engine.count("Contact", where: text, dialect: dialect) == expected.count)
            #expect(try engine.first("Contact", where: text, dialect: dialect)?.objectId == expected.first)
        }
    }

    @Test func argumentsVariablesAndRequestBodies() throws {
        let engine = try Sample.engine()
        let ks = try engine.find("Contact", where: "name BEGINSWITH[c] %@", dialect: .predicate, arguments: ["k"])
        #expect(ks.map(\.objectId) == ["k3"])
        let older = try engine.find("Contact", where: "age > $min", dialect: .predicate, variables: ["min": 30])
        #expect(older.map(\.objectId) == (try Sample.database().find("Contact", where: "age > 30")).map(\.objectId))
        let body = #"{"where":{"orderAmount":{"$gt":0}},"order":"-orderAmount","limit":2}"#
        #expect(try engine.find("Order", where: body, dialect: .json).map(\.objectId) == ["o4", "o3"])
        // count ignores the page; first keeps the order.
        #expect(
            try engine.count("Order", where: body, dialect: .json) == engine.count("Order", where: "orderAmount > 0"))
        #expect(try engine.first("Order", where: body, dialect: .json)?.objectId == "o4")
        #expect(try engine.first("Contact", where: "age > 1000") == nil)
    }

    @Test func explainShowsThePlanAndAnalyzeRunsIt() throws {
        let engine = try Sample.engine()
        let report = try engine.explain("Contact", where: "age > 20", analyze: true)
        #expect(report.analyzed)
        #expect(report.root.actualRows == (try engine.count("Contact", where: "age > 20")))
        #expect(try !engine.explain("Contact", where: "age > 20").analyzed)
    }

    @Test func theBuilderRunsOnTheEngine() throws {
        let engine = try Sample.engine()
        let builder = QueryBuilder("Order").where("orderAmount" >= 100).order(.descending("orderAmount")).limit(2)
        #expect(try builder.find(in: engine).map(\.objectId) == ["o4", "o3"])
        #expect(try builder.first(in: engine)?.objectId == "o4")
        #expect(try builder.count(in: engine) == (try builder.count(in: Sample.database())))
        #expect(try builder.find(in: Sample.database()).map(\.objectId) == ["o4", "o3"])
    }

    /// A field the first object of its kind brings is known to the next compile, without a
    /// copy of the data.
    @Test func anEngineIsTheSchemaAndLearnsFromInserts() throws {
        let engine = try Sample.engine()
        do {
            _ = try engine.find("Contact", where: "nickname = 'Smallville'")
            Issue.record("expected query.unknown-column")
        } catch {
            #expect(error.code == "query.unknown-column")
        }
        try engine.insert(json: #"{"objectId":"k9","name":"Kara","nickname":"Supergirl"}"#, into: "Contact")
        #expect(try engine.find("Contact", where: "nickname = 'Supergirl'").map(\.objectId) == ["k9"])
        #expect(engine.schema.fieldType("nickname", in: "Contact") == .string)
        #expect(engine.schema.fieldNames(in: "Contact") == engine.database.fieldNames(in: "Contact"))
        // A new class too, and deleting keeps the field known, as a Database does.
        try engine.insert(json: #"{"objectId":"p1","title":"Hi"}"#, into: "Post")
        #expect(engine.delete("p1", from: "Post"))
        #expect(try engine.count("Post", where: "title = 'Hi'") == 0)
        #expect(engine.schema.classNames == engine.database.classNames)
    }

    /// One `do/catch` on `Diagnostic` covers a syntax error, an unknown field, a run-time
    /// error and a decoding error.
    @Test func oneErrorTypeFromCompileToDecode() throws {
        let engine = try Sample.engine()
        struct Wrong: Decodable { var name: Int }
        let attempts: [(String, () throws(Diagnostic) -> Void)] = [
            (
                "syntax.unexpected-token",
                { () throws(Diagnostic) in _ = try engine.find("Contact", where: "age > AND") }
            ),
            ("query.unknown-column", { () throws(Diagnostic) in _ = try engine.count("Contact", where: "agee > 3") }),
            (
                "regex.invalid",
                { () throws(Diagnostic) in
                    _ = try engine.find("Contact", where: "name MATCHES '('", dialect: .predicate)
                }
            ),
            (
                "data.decode",
                { () throws(Diagnostic) in _ = try engine.find(Wrong.self, in: "Contact", where: "age > 20") }
            ),
        ]
        for (code, attempt) in attempts {
            do throws(Diagnostic) {
                try attempt()
                Issue.record("expected \(code)")
            } catch {
                #expect(error.code == code)
            }
        }
    }

    @Test func createIndexOnAFieldNoObjectHasIsRejected() throws {
        let engine = try Sample.engine()
        do {
            try engine.createIndex(.ordered, on: "agee", in: "Contact")
            Issue.record("expected index.unknown-field")
        } catch {
            #expect(error.code == "index.unknown-field")
            #expect(error.message == "no object of Contact has a field 'agee' to index")
            #expect(error.notes.first?.hasPrefix("fields of Contact: objectId, name, age") == true)
        }
        do {
            try engine.createIndex(.ordered, on: "Age", in: "Contact")
            Issue.record("expected index.unknown-field")
        } catch {
            #expect(error.message == "no object of Contact has a field 'Age' to index; did you mean 'age'?")
        }
        try engine.createIndex(.ordered, on: "age", in: "Contact")
        try engine.createIndex(.hash, on: "objectId", in: "Contact")
        try engine.createIndex(.hash, on: "address.city", in: "Contact")
        #expect(
            try engine.find("Contact", where: "age > 30").map(\.objectId)
                == (try Sample.database().find("Contact", where: "age > 30")).map(\.objectId))
    }

    @Test func theDatabaseConveniencesRunOnAnEngine() throws {
        let db = try Sample.database()
        let query = try Dialect.sql.compile("age >= 20", className: "Contact", options: CompileOptions(schema: db))
        #expect(try db.find("Contact", where: "age >= 20").map(\.objectId) == (try db.run(query)).objectIds)
        #expect(try db.count("Contact", where: "age >= 20") == (try db.run(query)).objectIds.count)
    }
}
