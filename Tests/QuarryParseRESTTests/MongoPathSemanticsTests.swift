import Testing
@testable import QuarryParseREST
import Quarry

/// MongoDB's null, `$exists` and array-path rules (its `null_query_semantics.js` and
/// `exists5.js` documents, restated in Parse REST JSON; `undefined` has no Parse form), on which
/// hosted Parse ran: each where, its answer, from the reference evaluator and from the engine.
/// One deliberate difference is Parse's own: `$exists` means "holds a non-null value", as
/// parse-server on PostgreSQL reads it (docs/SEMANTICS.md), so a field holding null does not
/// exist here although it does in MongoDB.
@Suite struct MongoPathSemanticsTests {
    static let shapes: [(String, Value?)] = [
        ("a_empty_subobject", .object([:])),
        ("a_null", .null),
        ("a_number", 4),
        ("a_subobject_b_not_null", .object(["b": "hi"])),
        ("a_subobject_b_null", .object(["b": .null])),
        ("no_a", nil),
        ("a_double_array", [[]]),
        ("a_empty_array", []),
        ("a_object_array_all_b_nulls", [.object(["b": .null]), .object(["b": .null]), .object([:])]),
        ("a_object_array_no_b_nulls", [.object(["b": 1]), .object(["b": 3]), .object(["b": "string"])]),
        ("a_object_array_some_b_nulls", [.object(["b": .null]), .object(["b": 3]), .object(["b": .null])]),
        ("a_object_array_some_b_missing", [.object(["b": 3]), .object([:])]),
        ("a_value_array_all_nulls", [.null, .null]),
        ("a_value_array_no_nulls", [1, "string", 4]),
        ("a_value_array_with_null", [1, "string", .null, 4]),
    ]

    static let documents = db(["Doc": shapes.map { id, a in rec(id, a.map { ["a": $0] } ?? [:]) }])

    static let nullOrHoldingNull: Set<String> = [
        "a_null", "no_a", "a_value_array_all_nulls", "a_value_array_with_null",
    ]
    /// `a.b` is null or missing: a scalar (or nothing) at `a`, an object without `b`, or an
    /// array with an object element whose `b` is null or missing. Scalar elements and nested
    /// arrays count for nothing.
    static let dottedNull: Set<String> = [
        "a_empty_subobject", "a_null", "a_number", "a_subobject_b_null", "no_a", "a_object_array_all_b_nulls",
        "a_object_array_some_b_nulls", "a_object_array_some_b_missing",
    ]
    /// No value at `a.b` (MongoDB's `$exists: false`), plus `a_subobject_b_null`, whose `b` is
    /// null: Parse's `$exists` is non-null.
    static let dottedAbsent: Set<String> = [
        "no_a", "a_empty_subobject", "a_null", "a_number", "a_subobject_b_null", "a_double_array", "a_empty_array",
        "a_value_array_all_nulls", "a_value_array_no_nulls", "a_value_array_with_null",
    ]
    static var all: Set<String> { Set(shapes.map(\.0)) }

    static let cases: [(String, Set<String>)] = [
        (#"{"a":null}"#, nullOrHoldingNull),
        (#"{"a":{"$ne":null}}"#, all.subtracting(nullOrHoldingNull)),
        (#"{"a":{"$in":[null,75]}}"#, nullOrHoldingNull),
        (#"{"a":{"$nin":[null,75]}}"#, all.subtracting(nullOrHoldingNull)),
        (#"{"$or":[{"a":null},{"a":75}]}"#, nullOrHoldingNull),
        // MongoDB: only no_a; Parse's `$exists` is non-null, so a_null too.
        (#"{"a":{"$exists":false}}"#, ["no_a", "a_null"]),
        (#"{"a.b":null}"#, dottedNull),
        (#"{"a.b":{"$eq":null}}"#, dottedNull),
        (#"{"a.b":{"$ne":null}}"#, all.subtracting(dottedNull)),
        (#"{"a.b":{"$in":[null,75]}}"#, dottedNull),
        (#"{"a.b":{"$nin":[null,75]}}"#, all.subtracting(dottedNull)),
        (#"{"$or":[{"a.b":null},{"a.b":75}]}"#, dottedNull),
        (#"{"a.b":{"$exists":false}}"#, dottedAbsent),
        (#"{"a.b":{"$exists":true}}"#, all.subtracting(dottedAbsent)),
        (#"{"a.b":3}"#, ["a_object_array_no_b_nulls", "a_object_array_some_b_nulls", "a_object_array_some_b_missing"]),
        // A numeric component is an array index.
        (#"{"a.1.b":3}"#, ["a_object_array_no_b_nulls", "a_object_array_some_b_nulls"]),
        (#"{"a.3":4}"#, ["a_value_array_with_null"]),
        (#"{"a.2":4}"#, ["a_value_array_no_nulls"]),
        (
            #"{"a.0":{"$exists":true}}"#,
            [
                "a_object_array_all_b_nulls", "a_object_array_no_b_nulls",
                "a_object_array_some_b_nulls", "a_object_array_some_b_missing",
                "a_value_array_no_nulls", "a_value_array_with_null", "a_double_array",
            ]
        ),
    ]

    @Test(arguments: cases.indices)
    func nullAndExistsThroughArrays(_ i: Int) throws {
        let (json, expected) = Self.cases[i]
        try expectMatches(json, in: Self.documents, className: "Doc", expected)
    }

    /// `exists5.js`: `$exists` and its `$not` on a dotted path, one document at a time.
    @Test func existsOnDottedPaths() throws {
        let documents: [(Value, Bool)] = [
            (1, false), (.object(["b": 1]), true), ([1], false), ([.object(["b": 1])], true),
        ]
        for (a, exists) in documents {
            let one = db(["T": [rec("t", ["a": a])]])
            try expectMatches(#"{"a.b":{"$exists":true}}"#, in: one, className: "T", exists ? ["t"] : [])
            try expectMatches(#"{"a.b":{"$exists":false}}"#, in: one, className: "T", exists ? [] : ["t"])
            try expectMatches(#"{"$nor":[{"a.b":{"$exists":true}}]}"#, in: one, className: "T", exists ? [] : ["t"])
            try expectMatches(#"{"c.d":{"$exists":false}}"#, in: one, className: "T", ["t"])
        }
    }

    /// A path does not enter an array nested in an array; an index reaches into it.
    @Test func nestedArraysAreNotEntered() throws {
        let nested = db(["T": [rec("n", ["p": [[.object(["b": "a"])]]]), rec("f", ["p": [.object(["b": "a"])]])]])
        try expectMatches(#"{"p.b":"a"}"#, in: nested, className: "T", ["f"])
        try expectMatches(#"{"p.b":{"$exists":true}}"#, in: nested, className: "T", ["f"])
        try expectMatches(#"{"p.0.0.b":"a"}"#, in: nested, className: "T", ["n"])
        // `p.0` of n is the inner array, whose elements the rest of the path then maps over.
        try expectMatches(#"{"p.0.b":"a"}"#, in: nested, className: "T", ["n", "f"])
        try expectMatches(#"{"p.0":{"$exists":true}}"#, in: nested, className: "T", ["n", "f"])
    }

    /// `$all` is an AND of equalities: a single value holding the one element passes.
    @Test func allOnASingleValue() throws {
        let values = db(["T": [rec("e", ["s": ""]), rec("x", ["s": "x"]), rec("l", ["s": ["x", "y"]]), rec("m", [:])]])
        try expectMatches(#"{"s":{"$all":[""]}}"#, in: values, className: "T", ["e"])
        try expectMatches(#"{"s":{"$all":["x"]}}"#, in: values, className: "T", ["x", "l"])
        try expectMatches(#"{"s":{"$all":["x","y"]}}"#, in: values, className: "T", ["l"])
        try expectMatches(#"{"s":{"$all":["x","x"]}}"#, in: values, className: "T", ["x", "l"])
        try expectMatches(#"{"t.0":"ß"}"#, in: db(["T": [rec("t", ["t": ["ß"]])]]), className: "T", ["t"])
    }

    /// The SDKs' quoted prefix with `i` folds as PCRE does (simple case folding), like any
    /// other `$regex`: `ß` does not match `SS`, `ẞ` matches `ß`.
    @Test func quotedRegexFoldsLikePCRE() throws {
        let names = db([
            "T": [rec("sharp", ["n": "ßtraße"]), rec("ss", ["n": "sstrasse"]), rec("capital", ["n": "ẞTRASSE"])]
        ])
        try expectMatches(#"{"n":{"$regex":"^\\QSS\\E","$options":"i"}}"#, in: names, className: "T", ["ss"])
        try expectMatches(#"{"n":{"$regex":"^SS","$options":"i"}}"#, in: names, className: "T", ["ss"])
        try expectMatches(
            #"{"n":{"$regex":"^\\Qß\\E","$options":"i"}}"#, in: names, className: "T", ["sharp", "capital"])
        try expectMatches(#"{"n":{"$regex":"^ß","$options":"i"}}"#, in: names, className: "T", ["sharp", "capital"])
        try expectMatches(
            #"{"n":{"$regex":"\\QSSE\\E$","$options":"i"}}"#, in: names, className: "T", ["ss", "capital"])
    }

    /// A pointer is its identity, loaded or not: `_User` is left out of the data here.
    @Test func pointersToObjectsNotLoaded() throws {
        let owned = db([
            "Post": [
                rec("p1", ["owner": .pointer(ptr("_User", "U2"))]), rec("p2", ["owner": .pointer(ptr("_User", "U3"))]),
                rec("p3", [:]),
            ]
        ])
        let u2 = #"{"__type":"Pointer","className":"_User","objectId":"U2"}"#
        try expectMatches(#"{"owner":\#(u2)}"#, in: owned, className: "Post", ["p1"])
        try expectMatches(#"{"owner":{"$ne":\#(u2)}}"#, in: owned, className: "Post", ["p2", "p3"])
        try expectMatches(#"{"owner":{"$exists":true}}"#, in: owned, className: "Post", ["p1", "p2"])
        try expectMatches(#"{"owner":{"$in":[\#(u2)]}}"#, in: owned, className: "Post", ["p1"])
        try expectMatches(#"{"owner":{"$in":["U2","U9"]}}"#, in: owned, className: "Post", ["p1"])
        try expectMatches(#"{"owner":{"$nin":["U2"]}}"#, in: owned, className: "Post", ["p2", "p3"])
        try expectMatches(#"{"owner.objectId":"U3"}"#, in: owned, className: "Post", ["p2"])
        try expectMatches(#"{"owner.name":{"$exists":true}}"#, in: owned, className: "Post", [])
        try expectMatches(#"{"owner.name":null}"#, in: owned, className: "Post", ["p1", "p2", "p3"])
    }

    private func expectMatches(
        _ json: String, in data: Database, className: String, _ expected: Set<String>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let query = try ParseWhere.parse(json, className: className)
        let reference = Set(try ReferenceEvaluator(database: data).run(query).objectIds)
        let engine = Set(try Engine(database: data).run(query).objectIds)
        #expect(reference == expected, "\(json)", sourceLocation: sourceLocation)
        #expect(engine == expected, "\(json) (engine)", sourceLocation: sourceLocation)
    }
}
