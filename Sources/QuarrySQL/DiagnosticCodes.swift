import QuarryCore

// The diagnostic codes only the SQL where-clause front-end reports (the shared ones are in
// QuarryCore's catalogue). docs/DIAGNOSTICS.md is generated from the catalogues (`make docs`).

extension DiagnosticCode.Lex {
    public static let unterminatedIdentifier = DiagnosticCode(
        "lex.unterminated-identifier",
        meaning: "A backquoted name has no closing backquote before the end of the text.",
        example: .sql("`abc = 1"))
}

extension DiagnosticCode.Syntax {
    public static let invalidIdentifier = DiagnosticCode(
        "syntax.invalid-identifier",
        meaning: "A backquoted name is empty or holds a '.', which no key path could address; a path is "
            + "written `a`.`b`.",
        example: .sql("`a.b` = 1"))
    public static let unknownFunction = DiagnosticCode(
        "syntax.unknown-function",
        meaning: "A call to a function SQL conditions do not have (they call `distance(…)` and "
            + "`Within(…)`), or a unit function such as `mi(…)` outside a distance comparison.",
        example: .sql("age = upper(name)"))
    public static let wrongArity = DiagnosticCode(
        "syntax.wrong-arity",
        meaning: "`distance(…)`, `Within(…)` or a unit function is called with the wrong number of "
            + "arguments.",
        example: .sql("distance(1, 2, c.latitude) < mi(1)"))
}

extension DiagnosticCode.Query {
    public static let unknownColumn = DiagnosticCode(
        "query.unknown-column",
        meaning: "A column the schema does not have, or a field below a GeoPoint or number column; "
            + "the notes suggest near names.",
        example: .situation("SQL `nmae = 'x'` checked against a schema whose class has a column `name`"))
    public static let nullComparison = DiagnosticCode(
        "query.null-comparison",
        meaning: "A comparison with NULL (or NULL in an IN list or BETWEEN), which is never true in "
            + "SQL; write `IS NULL` or `IS NOT NULL`.",
        example: .sql("name = NULL"))
    public static let notARelation = DiagnosticCode(
        "query.not-a-relation",
        meaning: "`Parent[relation].column` names a column that the schema says is not a relation.",
        example: .situation("SQL `Post[title].objectId = 'a'` with a schema where `title` is a string"))
    public static let relationTargetMismatch = DiagnosticCode(
        "query.relation-target-mismatch",
        meaning: "`Parent[relation]` names a relation that points to a class other than the one being "
            + "queried.",
        example: .situation("SQL `Post[likes].objectId = 'a'` on Comment when `likes` points to User"))
}

extension DiagnosticCode.TypeCheck {
    public static let mismatch = DiagnosticCode(
        "type.mismatch",
        meaning: "A value of the wrong type for the operator or the column: LIKE on a non-string, a "
            + "date compared with a boolean, a literal of another type than the schema's column.",
        example: .sql("updated after TRUE"))
}

extension DiagnosticCode.Like {
    public static let invalidEscape = DiagnosticCode(
        "like.invalid-escape",
        meaning: "`ESCAPE` is given something other than exactly one character.",
        example: .sql("name LIKE 'a%' ESCAPE 'ab'"))
    public static let trailingEscape = DiagnosticCode(
        "like.trailing-escape",
        meaning: "A LIKE pattern ends with its escape character, which must be followed by the "
            + "character it escapes.",
        example: .sql("name LIKE 'abc!' ESCAPE '!'"))
}

extension DiagnosticCode.Geo {
    public static let distanceOperator = DiagnosticCode(
        "geo.distance-operator",
        meaning: "`distance(…)` compared with an operator other than <, <=, >, >= or =.",
        example: .sql("distance(1, 2, c.latitude, c.longitude) != mi(5)"))
    public static let distanceNeedsUnit = DiagnosticCode(
        "geo.distance-needs-unit",
        meaning: "`distance(…)` compared with a bare number; a distance is written in units, as in "
            + "`mi(200)`.",
        example: .sql("distance(1, 2, c.latitude, c.longitude) < 200"))
    public static let unknownUnit = DiagnosticCode(
        "geo.unknown-unit",
        meaning: "A distance unit function that does not exist (the units are listed in the message).",
        example: .sql("distance(1, 2, c.latitude, c.longitude) < nm(5)"))
    public static let distanceArguments = DiagnosticCode(
        "geo.distance-arguments",
        meaning: "The third and fourth arguments of `distance(…)` are not a GeoPoint column's "
            + "`latitude` and `longitude`.",
        example: .sql("distance(1, 2, a.lat, a.longitude) < mi(1)"))
    public static let distanceKeyMismatch = DiagnosticCode(
        "geo.distance-key-mismatch",
        meaning: "The latitude and the longitude passed to `distance(…)` come from different GeoPoint "
            + "columns.",
        example: .sql("distance(1, 2, a.latitude, b.longitude) < mi(1)"))
    public static let invalidCoordinate = DiagnosticCode(
        "geo.invalid-coordinate",
        meaning: "A latitude outside -90…90 or a longitude outside -180…180.",
        example: .sql("distance(91, 2, a.latitude, a.longitude) < mi(1)"))
    public static let invalidWKT = DiagnosticCode(
        "geo.invalid-wkt",
        meaning: "The text given to `Within(…)` is not a WKT `POLYGON((…))` with one closed ring of at "
            + "least three distinct points.",
        example: .sql("Within(g, 'POINT(1 2)') = TRUE"))
    public static let withinComparison = DiagnosticCode(
        "geo.within-comparison",
        meaning: "`Within(…)` is compared with something other than `= TRUE` or `= FALSE`.",
        example: .sql("Within(g, 'POLYGON((1 2, 3 4, 5 6, 1 2))') = 1"))
}

extension DiagnosticCatalogue {
    public static let sql = DiagnosticCatalogue([
        .lex.unterminatedIdentifier,
        .syntax.invalidIdentifier, .syntax.unknownFunction, .syntax.wrongArity,
        .query.unknownColumn, .query.nullComparison, .query.notARelation, .query.relationTargetMismatch,
        .type.mismatch, .like.invalidEscape, .like.trailingEscape,
        .geo.distanceOperator, .geo.distanceNeedsUnit, .geo.unknownUnit, .geo.distanceArguments,
        .geo.distanceKeyMismatch, .geo.invalidCoordinate, .geo.invalidWKT, .geo.withinComparison,
    ])
}
