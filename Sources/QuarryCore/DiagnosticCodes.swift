// QuarryCore's diagnostic codes: those more than one front-end or the engine reports.
// docs/DIAGNOSTICS.md is generated from this catalogue and the other modules' (`make docs`).

/// Parse Server's numeric error codes that a query can produce.
package enum ParseCode {
    package static let invalidQuery = 102
    package static let invalidClassName = 103
    package static let invalidKeyName = 105
    package static let invalidPointer = 106
    package static let invalidJSON = 107
    package static let objectTooLarge = 116
    package static let invalidLimit = 117
    package static let invalidSkip = 118
}

extension DiagnosticCode.Lex {
    public static let invalidNumber = DiagnosticCode(
        "lex.invalid-number",
        meaning: "A number literal is malformed: no digit after the decimal point or the exponent, or a "
            + "letter glued to its end.",
        example: .sql("x = 12abc"))
    public static let numberOutOfRange = DiagnosticCode(
        "lex.number-out-of-range",
        meaning: "A number literal does not fit: an integer beyond 64 bits or a decimal beyond the "
            + "range of a double.",
        example: .sql("x = 1e999"))
    public static let unexpectedCharacter = DiagnosticCode(
        "lex.unexpected-character",
        meaning: "A character that starts no token of the dialect (the message suggests the spelling "
            + "it likely meant).",
        example: .sql("age > 5 # x"))
    public static let unterminatedString = DiagnosticCode(
        "lex.unterminated-string",
        meaning: "A string literal has no closing quote before the end of the text.",
        example: .sql("name = 'it''s"))
}

extension DiagnosticCode.Syntax {
    public static let unexpectedEnd = DiagnosticCode(
        "syntax.unexpected-end",
        meaning: "The text ends where the grammar needs more: an operand, a closing parenthesis, "
            + "the rest of an operator.",
        example: .sql("age >"))
    public static let unexpectedToken = DiagnosticCode(
        "syntax.unexpected-token",
        meaning: "A token the grammar does not allow where it stands; the message says what was "
            + "expected.",
        example: .sql("age > AND name = 'x'"))
}

extension DiagnosticCode.Limit {
    public static let queryLength = DiagnosticCode(
        "limit.query-length",
        meaning: "The query text is longer than `Limits.maxQueryLength` UTF-8 bytes (100 000 by "
            + "default).",
        example: .situation("a 200 000-byte where clause"), parseCode: ParseCode.invalidQuery)
    public static let nesting = DiagnosticCode(
        "limit.nesting",
        meaning: "Parentheses, boolean operators or expressions nest deeper than "
            + "`Limits.maxNestingDepth` (100 by default).",
        example: .situation("`a = 1` inside 101 pairs of parentheses"), parseCode: ParseCode.invalidQuery)
    public static let inList = DiagnosticCode(
        "limit.in-list",
        meaning: "An IN list, literal aggregate, polygon or compound holds more than "
            + "`Limits.maxInListSize` elements (10 000 by default).",
        example: .situation("`a IN (…)` with 10 001 values"), parseCode: ParseCode.invalidQuery)
    public static let subqueries = DiagnosticCode(
        "limit.subqueries",
        meaning: "The query holds more than `Limits.maxSubqueries` subqueries or inner queries (16 by "
            + "default).",
        example: .situation("17 `$inQuery` operators in one Parse where clause"),
        parseCode: ParseCode.invalidQuery)
    public static let subqueryDepth = DiagnosticCode(
        "limit.subquery-depth",
        meaning: "Inner queries nest deeper than `Limits.maxSubqueryDepth` (4 by default).",
        example: .situation("five `$inQuery` operators, each inside the previous one's where"),
        parseCode: ParseCode.invalidQuery)
    public static let regex = DiagnosticCode(
        "limit.regex",
        meaning: "Matching a regular expression exceeded its PCRE2 budget (`Limits.regexMatchLimit`, "
            + "`regexDepthLimit`): the pattern backtracks too much on some value.",
        example: .situation("NSPredicate `name MATCHES '(a+)+b'` run on a name of 40 a's"))
    public static let deadline = DiagnosticCode(
        "limit.deadline",
        meaning: "Running the query took longer than `Limits.deadlineSeconds`.",
        example: .situation("a one-second deadline on a query that scans millions of rows"))
    public static let innerRows = DiagnosticCode(
        "limit.inner-rows",
        meaning: "An inner query (`$inQuery`, `$select`, an SQL subquery) yields more than "
            + "`Limits.maxInnerRows` rows; give it a limit or a narrower condition.",
        example: .situation("`$inQuery` on a class with two million matching rows"))
}

extension DiagnosticCode.Date {
    public static let unparseable = DiagnosticCode(
        "date.unparseable",
        meaning: "A string compared with a date, or cast to one, is in none of the accepted date "
            + "forms (the notes list them).",
        example: .sql("updated after 'yesterday'"))
}

extension DiagnosticCode.Query {
    public static let unknownClass = DiagnosticCode(
        "query.unknown-class",
        meaning: "The query names a class that the schema or the database does not have.",
        example: .situation("a query on 'Persons' against data that holds only 'Person'"))
}

extension DiagnosticCode.Translate {
    public static let inexpressible = DiagnosticCode(
        "translate.inexpressible",
        meaning: "The query holds something the target dialect cannot write with the same "
            + "meaning; the message names it and the notes say what may help.",
        example: .situation("printing `name LIKE 'a%'` (SQL) as Parse REST JSON with no schema"))
}

extension DiagnosticCode.Input {
    public static let nul = DiagnosticCode(
        "input.nul",
        meaning: "The query text holds a raw NUL character, which every dialect rejects (C-based peers "
            + "and logs would cut the text there); inside a JSON string write `\\u0000`.",
        example: .situation("`printf 'a = 1\\0' | quarry check -`"), parseCode: ParseCode.invalidJSON)
}

extension DiagnosticCatalogue {
    public static let core = DiagnosticCatalogue([
        .lex.invalidNumber, .lex.numberOutOfRange, .lex.unexpectedCharacter, .lex.unterminatedString,
        .syntax.unexpectedEnd, .syntax.unexpectedToken,
        .limit.queryLength, .limit.nesting, .limit.inList, .limit.subqueries, .limit.subqueryDepth,
        .limit.regex, .limit.deadline, .limit.innerRows,
        .date.unparseable, .query.unknownClass, .translate.inexpressible, .input.nul,
    ])
}
