import Quarry
import Testing

/// Text in one dialect → IR → converted semantics → text in another → IR again: the two texts
/// select the same objects of `Samples/sample.json`.
@Suite struct TranslationEndToEndTests {
    enum Dialect: String, CaseIterable, Sendable {
        case sql, predicate, json

        var semantics: LeafSemantics {
            switch self {
            case .sql: return .sql
            case .predicate: return .predicate
            case .json: return .document
            }
        }

        func parse(_ text: String, className: String, schema: (any Schema)?) throws -> Filter {
            switch self {
            case .sql: return try SQLWhere.parse(text, className: className, schema: schema)
            case .predicate: return try PredicateFormat.parse(text, className: className, schema: schema)
            case .json: return try ParseWhere.parse(text, className: className).predicate
            }
        }

        func print(_ p: Filter, className: String, schema: (any Schema)?) throws -> String {
            switch self {
            case .sql: return try SQLWhere.print(p)
            case .predicate: return try PredicateFormat.print(p)
            case .json: return try ParseWhere.print(Query(className: className, predicate: p), schema: schema)
            }
        }
    }

    static let database: Database = {
        // Tests/QuarryEngineTests/<this file> → the package root.
        let root = String(#filePath).split(separator: "/", omittingEmptySubsequences: false).dropLast(3)
        let path = (root + ["Samples", "sample.json"]).joined(separator: "/")
        do {
            return try DataFile.load(path: path)
        } catch {
            fatalError("Samples/sample.json does not load: \(error)")
        }
    }()

    struct Example: Sendable, CustomTestStringConvertible {
        let from: Dialect
        let className: String
        let text: String
        var testDescription: String { "\(from.rawValue): \(text)" }
    }

    /// The examples of the conversion's documentation and the usual queries of each dialect.
    static let examples: [Example] = [
        Example(from: .sql, className: "Contact", text: "age != 25"),
        Example(from: .sql, className: "Contact", text: "age = 25 OR age > 34"),
        Example(from: .sql, className: "Contact", text: "tags = 'hero'"),
        Example(from: .sql, className: "Contact", text: "NOT (tags = 'hero') AND age < 40"),
        Example(from: .sql, className: "Contact", text: "name LIKE 'l%' OR title LIKE '%er'"),
        Example(from: .sql, className: "Contact", text: "title IS NULL"),
        Example(from: .sql, className: "Contact", text: "email IS NOT NULL AND age BETWEEN 20 AND 30"),
        Example(from: .sql, className: "Contact", text: "address.city = 'Tokyo'"),
        Example(from: .sql, className: "Contact", text: "name IN ('Clark', 'Ken') OR age NOT IN (19, 25)"),
        Example(from: .sql, className: "Order", text: "updated after '23-Mar-2015'"),
        Example(from: .sql, className: "Order", text: "orderAmount > 99.5 AND orderAmount != 250"),
        Example(from: .sql, className: "PhoneBook", text: "contacts.age > 30"),
        Example(from: .predicate, className: "Contact", text: "age != 25"),
        Example(from: .predicate, className: "Contact", text: "NOT (age < 25)"),
        Example(from: .predicate, className: "Contact", text: "ANY tags == 'hero'"),
        Example(from: .predicate, className: "Contact", text: "'Daily Planet' IN tags"),
        Example(from: .predicate, className: "Contact", text: "name BEGINSWITH[c] 'l' OR title ENDSWITH 'er'"),
        Example(from: .predicate, className: "Contact", text: "title == nil OR email != nil"),
        Example(from: .predicate, className: "Contact", text: "name ==[c] 'KEN' AND age BETWEEN {20, 40}"),
        Example(from: .predicate, className: "Contact", text: "name LIKE[c] 'c*k'"),
        Example(from: .predicate, className: "Order", text: "orderAmount IN {50, 100} OR NOT orderAmount > 99"),
        Example(from: .json, className: "Contact", text: #"{"tags": "hero"}"#),
        Example(from: .json, className: "Contact", text: #"{"age": {"$ne": 25}}"#),
        Example(from: .json, className: "Contact", text: #"{"title": {"$exists": false}}"#),
        Example(from: .json, className: "Contact", text: #"{"email": {"$ne": null}, "age": {"$gte": 20, "$lt": 35}}"#),
        Example(from: .json, className: "Contact", text: #"{"age": {"$in": [19, 25]}, "name": {"$nin": ["Clark"]}}"#),
        Example(from: .json, className: "Contact", text: #"{"$or": [{"name": "Ken"}, {"title": {"$regex": "^Ed"}}]}"#),
        Example(from: .json, className: "Contact", text: #"{"name": {"$regex": "^l", "$options": "i"}}"#),
    ]

    static let cases: [(Example, Dialect)] = examples.flatMap { e in
        Dialect.allCases.filter { $0 != e.from }.map { (e, $0) }
    }

    /// What SQL cannot say whatever the data: a case-sensitive string test (its LIKE ignores
    /// case; `^Ed` is a case-sensitive prefix).
    static let untranslatable: Set<String> = [
        "predicate: name BEGINSWITH[c] 'l' OR title ENDSWITH 'er' → sql",
        #"json: {"$or": [{"name": "Ken"}, {"title": {"$regex": "^Ed"}}]} → sql"#,
        // Parse cannot tell an array holding only "hero" from the single value (`$all` is an
        // AND of equalities, as in MongoDB), and tags holds arrays.
        "sql: NOT (tags = 'hero') AND age < 40 → json",
    ]

    /// With the sample database as schema, every example translates (but for the few that no
    /// schema can help), and the translation, parsed back, selects what the original does.
    @Test(arguments: cases)
    func translationKeepsResults(_ example: Example, _ target: Dialect) throws {
        let db = Self.database
        let original = try example.from.parse(example.text, className: example.className, schema: db)
        let text: String
        do {
            let converted = try SemanticsConversion.convert(
                original, to: target.semantics, className: example.className, schema: db)
            text = try target.print(converted, className: example.className, schema: db)
        } catch let error as Diagnostics {
            #expect(Self.untranslatable.contains("\(example.testDescription) → \(target.rawValue)"), "\(error)")
            #expect(error.all.allSatisfy { $0.code == "translate.inexpressible" }, "\(error)")
            return
        }
        #expect(!Self.untranslatable.contains("\(example.testDescription) → \(target.rawValue)"), "\(text)")
        let reparsed = try target.parse(text, className: example.className, schema: db)
        let expected = try ReferenceEvaluator(database: db).run(
            Query(className: example.className, predicate: original)
        ).objectIds
        let actual = try ReferenceEvaluator(database: db).run(Query(className: example.className, predicate: reparsed))
            .objectIds
        #expect(actual == expected, "\(text)")
    }

    /// Without a schema a translation assumes nothing about the fields; where one exists it is
    /// exact all the same (and otherwise the error says why).
    @Test(arguments: cases)
    func translationWithoutSchema(_ example: Example, _ target: Dialect) throws {
        let db = Self.database
        let original = try example.from.parse(example.text, className: example.className, schema: nil)
        let text: String
        do {
            let converted = try SemanticsConversion.convert(
                original, to: target.semantics, className: example.className, schema: nil)
            text = try target.print(converted, className: example.className, schema: nil)
        } catch let error as Diagnostics {
            #expect(
                error.all.allSatisfy { $0.code == "translate.inexpressible" || $0.code == "print.inexpressible" },
                "\(error)")
            return
        }
        let reparsed = try target.parse(text, className: example.className, schema: nil)
        let expected = try ReferenceEvaluator(database: db).run(
            Query(className: example.className, predicate: original)
        ).objectIds
        let actual = try ReferenceEvaluator(database: db).run(Query(className: example.className, predicate: reparsed))
            .objectIds
        #expect(actual == expected, "\(text)")
    }
}
