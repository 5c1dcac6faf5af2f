import Testing
import QuarryTestSupport
@testable import QuarryParseREST
import Quarry

/// Other front-ends' IR printed as REST JSON: what translates, what is refused, and that a
/// translation returns the same objects as the original.
@Suite struct TranslationTests {
    let data = ReferenceData.gameScores

    func json(_ format: String, schema: (any Schema)?) throws -> String {
        let p = try PredicateFormat.parse(format, className: "GameScore", schema: schema)
        return try ParseWhere.print(Query(className: "GameScore", predicate: p), schema: schema)
    }

    @Test func predicatesOnSingleValuedFieldsTranslateWithASchema() throws {
        #expect(
            try json("playerName == 'Dan Stemkoski' AND wins > 50", schema: data)
                == #"{"playerName":"Dan Stemkoski","wins":{"$gt":50}}"#)
        #expect(try json("playerEmail != nil", schema: data) == #"{"playerEmail":{"$ne":null}}"#)
        #expect(
            try json("playerName BEGINSWITH 'Mich' OR NOT (wins IN {4, 5})", schema: data)
                == #"{"$or":[{"playerName":{"$regex":"^\\QMich\\E"}},{"wins":{"$nin":[4,5]}}]}"#)
    }

    @Test func withoutASchemaCollectionsMightDiffer() {
        let d = diagnostics { () throws(Diagnostics) in
            let p = try PredicateFormat.parse("playerName == 'x'")
            return try ParseWhere.print(Query(className: "GameScore", predicate: p))
        }
        #expect(d.map(\.code) == ["translate.inexpressible"])
        #expect(d.first?.notes.first?.contains("schema") == true)
    }

    @Test func quantifiersAndKeyComparisonsAreRefused() {
        for format in ["ANY tags == 'a'", "wins > score", "wins + 1 > 5", "SUBQUERY(tags, $t, $t == 'a').@count > 0"] {
            let d = diagnostics { () throws(Diagnostics) in
                let p = try PredicateFormat.parse(format)
                return try ParseWhere.print(Query(className: "GameScore", predicate: p), schema: data)
            }
            #expect(d.map(\.code).contains("translate.inexpressible"), "\(format)")
            // A schema would not help, so no note suggests one.
            #expect(d.allSatisfy { $0.notes.isEmpty }, "\(format)")
        }
    }

    static let formats = [
        "playerName == 'Dan Stemkoski'", "playerName != 'Michael Yabuti'", "wins < 50 AND playerAge >= 18",
        "score == nil", "score != nil", "NOT (wins BETWEEN {10, 60})", "playerName BEGINSWITH 'Mich'",
        "playerName ENDSWITH[c] 'SIMON'", "playerName CONTAINS 'ich' OR cheatMode == YES",
        "playerName LIKE 'D*n S?emkoski'", "playerName MATCHES 'M.*'", "wins IN {4, 5, 10}",
        "NOT (playerName IN {'Sean Plott', 'Big Michael'})", "playerEmail == nil OR wins > 100",
    ]

    /// Differential: the NSPredicate query and its JSON translation return the same objects.
    @Test(arguments: formats)
    func translationKeepsTheAnswer(_ format: String) throws {
        let p = try PredicateFormat.parse(format, className: "GameScore", schema: data)
        let original = Query(className: "GameScore", predicate: p)
        let text = try ParseWhere.print(original, schema: data)
        let translated = try ParseWhere.parse(text, className: "GameScore")
        let evaluator = ReferenceEvaluator(database: data)
        #expect(Set(try evaluator.run(translated).objectIds) == Set(try evaluator.run(original).objectIds), "\(text)")
    }

    @Test func positiveSQLTranslatesWithoutASchema() throws {
        let p = try SQLWhere.parse("wins > 50 AND playerName LIKE 'Mich%' AND wins IN (51, 150)")
        // SQL's LIKE is case-insensitive; it becomes an anchored regex.
        #expect(
            try ParseWhere.print(Query(className: "GameScore", predicate: p))
                == #"{"wins":{"$gt":50},"playerName":{"$regex":"\\A\\QMich\\E.*\\z","$options":"is"},"$and":[{"wins":{"$in":[51,150]}}]}"#
        )
        let sqlNe = diagnostics { () throws(Diagnostics) in
            try ParseWhere.print(Query(className: "GameScore", predicate: try SQLWhere.parse("playerName != 'x'")))
        }
        #expect(sqlNe.map(\.code) == ["translate.inexpressible"])
    }

    static let clauses = [
        "playerName = 'Dan Stemkoski'", "playerName != 'Michael Yabuti'", "wins < 50 AND playerAge >= 18",
        "score IS NULL", "score IS NOT NULL", "NOT (wins BETWEEN 10 AND 60)", "playerName LIKE 'Mich%'",
        "playerName LIKE '%a_e%'", "wins IN (4, 5, 10)", "wins NOT IN (4, 5, 10)", "playerEmail IS NULL OR wins > 100",
        "NOT (playerName = 'Sean Plott' OR cheatMode = true)",
    ]

    /// Differential: the SQL query and its JSON translation return the same objects.
    @Test(arguments: clauses)
    func sqlTranslationKeepsTheAnswer(_ clause: String) throws {
        let p = try SQLWhere.parse(clause, className: "GameScore", schema: data)
        let original = Query(className: "GameScore", predicate: p)
        let text = try ParseWhere.print(original, schema: data)
        let translated = try ParseWhere.parse(text, className: "GameScore")
        let evaluator = ReferenceEvaluator(database: data)
        #expect(Set(try evaluator.run(translated).objectIds) == Set(try evaluator.run(original).objectIds), "\(text)")
    }
}
