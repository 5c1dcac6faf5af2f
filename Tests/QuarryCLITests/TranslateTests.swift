import Quarry
import Testing

/// `quarry translate`, and translations that keep their results
/// (docs/ARCHITECTURE.md#translating-between-dialects).
@Suite struct TranslateTests {
    let data: DataFixture
    init() throws { data = try DataFixture(DataFixture.contacts) }

    var on: [String] { ["--data", data.path, "--class", "Contact"] }

    @Test func sqlToJSONWithTheDataTypingTheFields() {
        let r = quarry(["translate", "--to", "json"] + on + ["score >= 8 AND name IN ('bob', 'Dee')"])
        #expect(r.status == 0)
        #expect(r.out == #"{"score":{"$gte":8},"name":{"$in":["bob","Dee"]}}"# + "\n")
    }

    @Test func sqlAndPredicateBothWays() {
        let toPredicate = quarry(["translate", "--to", "predicate"] + on + ["name LIKE 'a%' AND score != 7"])
        #expect(toPredicate.out == #"name LIKE[c] "a*" AND (score != NULL AND score != 7)"# + "\n")
        let toSQL = quarry(
            ["translate", "--from", "predicate", "--to", "sql"] + on + ["name BEGINSWITH[c] 'A' AND score != 7"])
        #expect(toSQL.out == "name LIKE 'A%' AND (score IS NULL OR score != 7)\n")
        // SQL's LIKE ignores case: a case-sensitive BEGINSWITH has no SQL form.
        let caseSensitive = quarry(["translate", "--from", "predicate", "--to", "sql"] + on + ["name BEGINSWITH 'A'"])
        #expect(caseSensitive.status == 1)
        #expect(caseSensitive.err.hasPrefix("error[translate.inexpressible]"))
    }

    /// With --exact nothing is assumed: SQL also compares a date field with a number (as
    /// milliseconds), so the translation states that case too, and no note is written.
    @Test func exactAssumesNothing() {
        let r = quarry(["translate", "--exact", "--to", "json", "score >= 8"])
        #expect(r.status == 0)
        #expect(
            r.out
                == #"{"$or":[{"score":{"$gte":8}},{"score":{"$gte":{"__type":"Date","iso":"1970-01-01T00:00:00.008Z"}}}]}"#
                + "\n")
        #expect(r.err.isEmpty)
    }

    /// Without data a field holds one value of the type it is compared with, as a person
    /// means it, and one note on stderr says so.
    @Test func withoutDataTheFieldsHoldTheLiteralsTypes() {
        let r = quarry(["translate", "--to", "predicate", "age >= 21"])
        #expect(r.status == 0)
        #expect(r.out == "age >= 21\n")
        #expect(r.err == "note: assumed age: a number (--data reads the types from data; --exact assumes nothing)\n")
        let tags = quarry([
            "translate", "--from", "predicate", "--to", "sql", "ANY tags == 'hero' AND name BEGINSWITH[c] 'c'",
        ])
        #expect(tags.out == "tags = 'hero' AND name LIKE 'c%'\n")
        #expect(
            tags.err
                == "note: assumed tags: an array of strings; name: a string (--data reads the types from data; --exact assumes nothing)\n"
        )
    }

    /// The issue's example, both ways: each translation passes `check` in its dialect, with
    /// and without the data, and translating it back gives the text it came from.
    @Test(arguments: [
        (Dialect.sql, Dialect.predicate, "age >= 21"), (.predicate, .sql, "age >= 21"),
        (.sql, .json, "age >= 21 AND name = 'bob'"), (.json, .sql, #"{"age":{"$gte":21},"name":"bob"}"#),
        (.predicate, .json, #"age >= 21 AND name == "bob""#), (.json, .predicate, #"{"age":{"$gte":21},"name":"bob"}"#),
    ])
    func assumedTranslationsRoundTripThroughCheck(_ from: Dialect, _ to: Dialect, _ query: String) {
        let there = quarry(["translate", "--from", from.rawValue, "--to", to.rawValue, query])
        #expect(there.status == 0, "\(there.err)")
        let text = String(there.out.dropLast())
        for schema in [[], on] {
            let checked = quarry(["check", "--dialect", to.rawValue] + schema + [text])
            #expect(checked.status == 0, "\(text): \(checked.err)")
        }
        let back = quarry(["translate", "--from", to.rawValue, "--to", from.rawValue, text])
        #expect(back.out == query + "\n")
    }

    @Test func dialectIsASynonymOfFrom() {
        let a = quarry(["translate", "--from", "json", "--to", "json", #"{"age": {"$lt": 3}}"#])
        let b = quarry(["translate", "--dialect", "json", "--to", "json", #"{"age": {"$lt": 3}}"#])
        #expect(a.status == 0)
        #expect(a.out == #"{"age":{"$lt":3}}"# + "\n")
        #expect(b.out == a.out)
    }

    @Test func inexpressibleWithoutASchemaIsAClearError() {
        let r = quarry(["translate", "--exact", "--to", "json", "name != 'x'"])
        #expect(r.status == 1)
        #expect(r.out.isEmpty)
        #expect(
            r.err == """
                error[translate.inexpressible]: the sql test `name != "x"` has no exact Parse `where` JSON equivalent: on an array it asks for an element that differs, which Parse can only ask with $containedBy, whose equality ignores string options and matches pointers with their objectId
                  = note: a schema (the CLI's --data) showing what the field holds may let it translate

                """)
    }

    @Test func theDataSchemaLetsSingleValuedFieldsTranslate() {
        let r = quarry(["translate", "--to", "json"] + on + ["name != 'x'"])
        #expect(r.status == 0)
        #expect(r.out == #"{"name":{"$ne":"x","$exists":true}}"# + "\n")
    }

    @Test func requestParametersHaveNoPlaceInAWhereClause() {
        let r = quarry(
            ["translate", "--from", "json", "--to", "sql"] + on + [
                #"{"where": {"age": {"$gt": 1}}, "order": "-age", "limit": 5}"#
            ])
        #expect(r.status == 1)
        #expect(
            r.err
                == "error[translate.inexpressible]: a sql where-clause cannot hold the query's order and limit; only the json dialect writes them\n"
        )
    }

    @Test func translateErrorsAsJSON() {
        let r = quarry(["translate", "--json", "--from", "json", "--to", "sql", #"{"where": {}, "skip": 1}"#])
        #expect(r.status == 1)
        #expect(
            r.out
                == #"{"ok":false,"errors":[{"code":"translate.inexpressible","message":"a sql where-clause cannot hold the query's skip; only the json dialect writes them"}]}"#
                + "\n")
    }

    /// Running a translation gives the same objects as running the original. With the data's
    /// schema every one of these translates; without it a translation either holds for any
    /// data or is refused as inexpressible. (A schema-less translation is run without the
    /// schema too: it may quantify over fields the schema knows to be single values, which the
    /// predicate front-end rejects when it sees the schema.)
    @Test(arguments: [
        (Dialect.sql, "score >= 8 OR name LIKE 'a%'"),
        (.sql, "age BETWEEN 25 AND 35 AND name != 'bob'"),
        (.sql, "address.city = 'Dallas' OR age IS NULL"),
        (.sql, "NOT (score = 7) AND age > 1"),
        (.sql, "name NOT IN ('Ann', 'Cid')"),
        (.predicate, "name BEGINSWITH[c] 'c' OR score IN {8, 9}"),
        (.predicate, "age != nil AND score <= 8"),
        (.predicate, "NOT (name == 'bob') AND address.city != 'Austin'"),
        (.json, #"{"score": {"$ne": 7}}"#),
        (.json, #"{"$or": [{"age": {"$lt": 30}}, {"name": {"$in": ["Cid"]}}]}"#),
        (.json, #"{"age": {"$exists": false}}"#),
    ])
    func translationPreservesResults(_ from: Dialect, _ query: String) throws {
        let db = try Database(contentsOfFile: data.path)
        let expected = try db.find("Contact", where: query, dialect: from).map(\.objectId)
        for to in Dialect.allCases where to != from {
            for schema in [on, [], ["--exact"]] {
                let translated = quarry(["translate", "--from", from.rawValue, "--to", to.rawValue] + schema + [query])
                if translated.status != 0 {
                    #expect(schema == ["--exact"], "\(from) → \(to) with \(schema): \(translated.err)")
                    #expect(translated.err.hasPrefix("error[translate.inexpressible]"), "\(translated.err)")
                    continue
                }
                let text = String(translated.out.dropLast())
                let query = try to.compile(
                    text, className: "Contact",
                    options: CompileOptions(schema: schema == on ? db : nil))
                #expect(try db.run(query).objectIds == expected, "\(from) → \(to): \(text)")
            }
        }
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
