import Quarry
import Testing

/// `quarry translate`, and translations that keep their results (DESIGN §3 round trips).
@Suite struct TranslateTests {
    let data: DataFixture
    init() throws { data = try DataFixture(DataFixture.contacts) }

    @Test func sqlToJSON() {
        let on = ["--data", data.path, "--class", "Contact"]
        let r = quarry(["translate", "--to", "json"] + on + ["score >= 8 AND name IN ('bob', 'Dee')"])
        #expect(r.status == 0)
        #expect(r.out == #"{"score":{"$gte":8},"name":{"$in":["bob","Dee"]}}"# + "\n")
    }

    /// Without data nothing is assumed: SQL also compares a date field with a number (as
    /// milliseconds), so the translation states that case too.
    @Test func withoutDataNothingIsAssumed() {
        let r = quarry(["translate", "--to", "json", "score >= 8"])
        #expect(r.status == 0)
        #expect(r.out == #"{"$or":[{"score":{"$gte":8}},{"score":{"$gte":{"__type":"Date","iso":"1970-01-01T00:00:00.008Z"}}}]}"# + "\n")
    }

    @Test func dialectIsASynonymOfFrom() {
        let a = quarry(["translate", "--from", "json", "--to", "json", #"{"age": {"$lt": 3}}"#])
        let b = quarry(["translate", "--dialect", "json", "--to", "json", #"{"age": {"$lt": 3}}"#])
        #expect(a.status == 0)
        #expect(a.out == #"{"age":{"$lt":3}}"# + "\n")
        #expect(b.out == a.out)
    }

    @Test func inexpressibleWithoutASchemaIsAClearError() {
        let r = quarry(["translate", "--to", "json", "name != 'x'"])
        #expect(r.status == 1)
        #expect(r.out.isEmpty)
        #expect(r.err == """
            error[translate.inexpressible]: the sql test `name != "x"` has no exact Parse `where` JSON equivalent: on an array it asks for an element that differs, which Parse can only ask with $containedBy, whose equality ignores string options and matches pointers with their objectId
              = note: a schema (the CLI's --data) showing what the field holds may let it translate

            """)
    }

    @Test func theDataSchemaLetsSingleValuedFieldsTranslate() {
        let r = quarry(["translate", "--to", "json", "--data", data.path, "--class", "Contact", "name != 'x'"])
        #expect(r.status == 0)
        #expect(r.out == #"{"name":{"$ne":"x","$exists":true}}"# + "\n")
    }

    @Test func requestParametersHaveNoPlaceInAWhereClause() {
        let r = quarry(["translate", "--from", "json", "--to", "sql", "--data", data.path, "--class", "Contact",
                        #"{"where": {"age": {"$gt": 1}}, "order": "-age", "limit": 5}"#])
        #expect(r.status == 1)
        #expect(r.err == "error[translate.inexpressible]: a sql where-clause cannot hold the query's order and limit; only the json dialect writes them\n")
    }

    @Test func translateErrorsAsJSON() {
        let r = quarry(["translate", "--json", "--from", "json", "--to", "sql", #"{"where": {}, "skip": 1}"#])
        #expect(r.status == 1)
        #expect(r.out == #"{"ok":false,"errors":[{"code":"translate.inexpressible","message":"a sql where-clause cannot hold the query's skip; only the json dialect writes them"}]}"# + "\n")
    }

    /// Running the translation gives the same objects as running the original.
    @Test(arguments: [
        (Dialect.sql, "score >= 8 OR name LIKE 'a%'"),
        (.sql, "age BETWEEN 25 AND 35 AND name != 'bob'"),
        (.sql, "address.city = 'Dallas' OR age IS NULL"),
        (.sql, "NOT (score = 7) AND age > 1"),
        (.predicate, "name BEGINSWITH[c] 'c' OR score IN {8, 9}"),
        (.predicate, "age != nil AND score <= 8"),
    ])
    func translationPreservesResults(_ from: Dialect, _ query: String) throws {
        let on = ["--data", data.path, "--class", "Contact"]
        let translated = quarry(["translate", "--from", from.rawValue, "--to", "json"] + on + [query])
        try #require(translated.status == 0, "\(translated.err)")
        let original = quarry(["run", "--ids", "--dialect", from.rawValue] + on + [query])
        let again = quarry(["run", "--ids", "--dialect", "json"] + on + [String(translated.out.dropLast())])
        #expect(original.status == 0)
        #expect(again.status == 0)
        #expect(again.out == original.out)
    }

    @Test func jsonCheckPrintsTheCanonicalBody() {
        let r = quarry(["check", "--dialect", "json", #"{"limit": 2, "where": {"age": {"$gt": 20}}, "order": "-age"}"#])
        #expect(r.status == 0)
        #expect(r.out == #"{"where":{"age":{"$gt":20}},"order":"-age","limit":2}"# + "\n")
    }

    @Test func jsonBodyParametersApplyAndTheCommandLineWins() {
        let on = ["run", "--data", data.path, "--class", "Contact", "--dialect", "json", "--ids"]
        let body = #"{"where": {"score": {"$gte": 7}}, "order": "-age", "limit": 2}"#
        #expect(quarry(on + [body]).outLines == ["c3", "c1"])
        #expect(quarry(on + ["--order", "name", "--limit", "3", body]).outLines == ["c1", "c3", "c4"])
    }

    @Test func jsonDiagnosticsCarryThePathAndParseCode() {
        let r = quarry(["check", "--dialect", "json", #"{"age":{"$foo":1}}"#])
        #expect(r.status == 1)
        #expect(r.err.hasPrefix("error[json.unknown-operator](107): unknown operator '$foo'; expected one of $eq"))
        #expect(r.err.contains("\n --> where.age.$foo at 1:9\n"))
    }
}
