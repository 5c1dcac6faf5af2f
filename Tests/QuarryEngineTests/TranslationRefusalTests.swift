import Quarry
import Testing

/// Each translation Quarry refuses, with the reason it has no spelling in the target dialect.
/// A refusal is a claim about the target language, not about Quarry: where the language can
/// say it (the claim is wrong), the translation belongs in the converter instead.
@Suite struct TranslationRefusalTests {
    struct Refusal: Sendable, CustomTestStringConvertible {
        let from: Dialect
        let className: String
        let text: String
        let to: Dialect
        /// The translation assumes nothing (`exact`, no schema) instead of reading the sample data.
        var exact = false
        /// What the diagnostic says.
        let message: String
        /// Why the target has no spelling for it.
        let why: String
        var testDescription: String { "\(from) → \(to): \(text)" }
    }

    static let refusals: [Refusal] = [
        Refusal(
            from: .json, className: "Contact",
            text: #"{"address":{"$inQuery":{"className":"Address","where":{"city":"Tokyo"}}}}"#,
            to: .predicate, message: "a subquery (key IN query) is written `key IN %@`",
            why: "NSPredicate text cannot name another class: an inner query is only ever an argument (`address IN %@`)"
        ),
        Refusal(
            from: .json, className: "Contact",
            text: #"{"name":{"$select":{"query":{"className":"Address","where":{}},"key":"city"}}}"#,
            to: .predicate, message: "select (Parse $select) has no NSPredicate spelling",
            why:
                "the values of a field over another class's objects need a query on that class, which NSPredicate text cannot name"
        ),
        Refusal(
            from: .json, className: "Contact",
            text:
                #"{"$relatedTo":{"object":{"__type":"Pointer","className":"PhoneBook","objectId":"pb1"},"key":"contacts"}}"#,
            to: .predicate, message: "relatedTo (Parse $relatedTo) has no NSPredicate spelling",
            why: "NSPredicate has no literal for another stored object, so it cannot read that object's relation"),
        Refusal(
            from: .json, className: "Friend",
            text:
                #"{"coordinates":{"$geoWithin":{"$centerSphere":[{"__type":"GeoPoint","latitude":30,"longitude":-97},0.05]}}}"#,
            to: .predicate, message: "geo conditions have no NSPredicate spelling",
            why: "NSPredicate has no geo points, distances or polygons"),
        Refusal(
            from: .json, className: "Contact", text: #"{"name":{"$text":{"$search":{"$term":"bob"}}}}"#,
            to: .predicate, message: "text search (Parse $text) has no NSPredicate spelling",
            why: "a text search matches stemmed words, phrases and excluded terms; CONTAINS matches characters"),
        Refusal(
            from: .json, className: "Contact", text: #"{"name":{"$text":{"$search":{"$term":"bob"}}}}"#,
            to: .sql, message: "a full-text search cannot be written as an SQL where clause",
            why: "Backendless SQL has no text search; LIKE matches characters"),
        Refusal(
            from: .json, className: "Contact", text: #"{"name":{"$regex":"E.d","$options":"i"}}"#,
            to: .sql, message: "Backendless SQL has no regular expressions",
            why: "LIKE has only `%` and `_`; a regex that is literal text does translate (as LIKE), this one is not"),
        Refusal(
            from: .json, className: "Contact", text: #"{"name":{"$regex":"^Ed"}}"#,
            to: .sql, message: "SQL's only string test is LIKE, which ignores case",
            why: "a case-sensitive prefix needs a case-sensitive test, and SQL's LIKE is its only string test"),
        Refusal(
            from: .predicate, className: "Contact", text: #"name BEGINSWITH "A""#,
            to: .sql, message: "SQL's only string test is LIKE, which ignores case",
            why: "as above: without [c], BEGINSWITH tells `A` from `a`, and LIKE does not"),
        Refusal(
            from: .json, className: "Contact", text: #"{"tags":{"$size":2}}"#,
            to: .sql, message: "an array size test cannot be written as an SQL where clause",
            why: "Backendless SQL has no function or operator on an array's length"),
        Refusal(
            from: .json, className: "Contact", text: #"{"tags":{"$containedBy":["a","b"]}}"#,
            to: .sql, message: "containedBy (Parse $containedBy) cannot be written as an SQL where clause",
            why:
                "an SQL test on an array holds when some element passes; `every element is listed` is NOT of `some element is not`, and SQL's NOT only exists inside a leaf"
        ),
        Refusal(
            from: .json, className: "Contact",
            text: #"{"address":{"$inQuery":{"className":"Address","where":{"city":"Tokyo"}}}}"#,
            to: .sql, exact: true, message: "which says the same only when the field holds pointers to Address alone",
            why:
                "SQL compares objectIds only; with nothing known about `address`, a pointer to another class (or an embedded object) with the same id would match too"
        ),
        Refusal(
            from: .predicate, className: "Contact", text: "age < title",
            to: .json, message: "Parse compares a field with a value, not two fields",
            why: "every Parse operator takes a value on its right; no operator reads a second field"),
        Refusal(
            from: .predicate, className: "Contact", text: "tags.@count > 1",
            to: .json, message: "tags.@count is not a field",
            why: "Parse's only size test is `$size`, an equality; `more than one` would be an unbounded OR of sizes"),
        Refusal(
            from: .predicate, className: "Contact", text: "tags.@count == 2",
            to: .sql, message: "tags.@count is not a field",
            why: "Backendless SQL has no aggregate or array length"),
        Refusal(
            from: .json, className: "Contact", text: #"{"where":{"age":{"$gt":20}},"limit":2}"#,
            to: .sql, message: "a sql where-clause cannot hold the query's limit",
            why: "a where clause filters; paging and ordering are request parameters only the json dialect writes"),
        Refusal(
            from: .json, className: "Friend",
            text: #"{"coordinates":{"$nearSphere":{"__type":"GeoPoint","latitude":30,"longitude":-97}}}"#,
            to: .sql, message: "cannot hold the query's order",
            why: "$nearSphere also sorts by distance, and a where clause cannot order"),
    ]

    static let database: Database = TranslationEndToEndTests.database

    @Test(arguments: refusals)
    func refusedBecauseTheTargetHasNoSpelling(_ r: Refusal) throws {
        let options = CompileOptions(schema: r.exact ? nil : Self.database)
        do {
            let text = try r.from.translate(r.text, to: r.to, className: r.className, options: options, exact: r.exact)
            Issue.record("translated as \(text); the claim was: \(r.why)")
        } catch {
            #expect(error.all.map(\.code) == ["translate.inexpressible"], "\(error)")
            #expect(error.all.contains { $0.message.contains(r.message) }, "\(error)")
        }
    }

    /// Translations that used to be refusals, and the simplest exact form each now takes.
    @Test(arguments: [
        (
            Dialect.json, "Contact", #"{"tags":{"$all":["a","b"]}}"#, Dialect.predicate,
            #"ANY tags == "a" AND ANY tags == "b""#
        ),
        (.json, "Contact", #"{"tags":{"$all":["a","b"]}}"#, .sql, "tags = 'a' AND tags = 'b'"),
        (.json, "Contact", #"{"tags":{"$size":2}}"#, .predicate, "tags.@count == 2"),
        (.json, "Contact", #"{"tags":{"$size":0}}"#, .predicate, "tags[SIZE] == 0"),
        (.predicate, "Contact", "tags.@count == 2", .json, #"{"tags":{"$size":2}}"#),
        (
            .json, "Contact", #"{"address":{"$inQuery":{"className":"Address","where":{"city":"Tokyo"}}}}"#, .sql,
            "address.objectId IN (Address[city = 'Tokyo'].objectId)"
        ),
        (.json, "Contact", #"{"name":{"$regex":"^cl","$options":"i"}}"#, .predicate, #"name BEGINSWITH[c] "cl""#),
        (.json, "Contact", #"{"name":{"$regex":"^cl","$options":"i"}}"#, .sql, "name LIKE 'cl%'"),
        (
            .json, "Contact", #"{"name":{"$regex":"^c.l","$options":"i"}}"#, .predicate,
            #"name MATCHES[c] "(?:^c.l)(?s:.*)""#
        ),
        (
            .json, "Contact",
            #"{"$relatedTo":{"object":{"__type":"Pointer","className":"PhoneBook","objectId":"pb1"},"key":"contacts"}}"#,
            .sql, "objectId IN (PhoneBook[objectId = 'pb1'].contacts.objectId)"
        ),
        (
            .json, "Contact", #"{"address":{"__type":"Pointer","className":"Address","objectId":"a1"}}"#, .sql,
            "address.objectId = 'a1'"
        ),
        (
            .json, "Friend",
            #"{"coordinates":{"$geoWithin":{"$centerSphere":[{"__type":"GeoPoint","latitude":30,"longitude":-97},0.05]}}}"#,
            .sql, "distance(30, -97, coordinates.latitude, coordinates.longitude) <= m(318550)"
        ),
    ])
    func spelledInTheTarget(_ from: Dialect, _ className: String, _ text: String, _ to: Dialect, _ expected: String)
        throws
    {
        let options = CompileOptions(schema: Self.database)
        let out = try from.translate(text, to: to, className: className, options: options)
        #expect(out == expected)
        let source = try from.compile(text, className: className, options: options)
        let target = try to.compile(out, className: className, options: options)
        #expect(try Self.database.run(target).objectIds == Self.database.run(source).objectIds)
    }
}
