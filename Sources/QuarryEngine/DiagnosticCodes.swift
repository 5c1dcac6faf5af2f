import QuarryCore

// The diagnostic codes only the engine reports, when it validates, plans or runs a query (the
// shared ones, such as the `limit.*` codes, are in QuarryCore's catalogue).
// docs/DIAGNOSTICS.md is generated from the catalogues (`make docs`).

extension DiagnosticCode.Query {
    public static let unboundVariable = DiagnosticCode(
        "query.unbound-variable",
        meaning: "The query uses a `$variable` that the run was given no value for.",
        example: .situation("running NSPredicate `age > $min` without a value for min"))
    public static let functionArity = DiagnosticCode(
        "query.function-arity",
        meaning: "An IR function called with the wrong number of arguments (an IR built by hand; the "
            + "front-ends check arity themselves).",
        example: .situation("a hand-built `Expression.function(.sqrt, [])`"))
    public static let invalidLimit = DiagnosticCode(
        "query.invalid-limit",
        meaning: "A query's limit is negative.",
        example: .situation("`Query(className: \"Post\", limit: -1)`"))
    public static let invalidSkip = DiagnosticCode(
        "query.invalid-skip",
        meaning: "A query's skip is negative.",
        example: .situation("`Query(className: \"Post\", skip: -1)`"))
    public static let cancelled = DiagnosticCode(
        "query.cancelled",
        meaning: "The task running the query was cancelled.",
        example: .situation("cancelling the Swift task that runs a long query"))
}

extension DiagnosticCode.Date {
    public static let relativeTime = DiagnosticCode(
        "date.relative-time",
        meaning: "A relative-time phrase evaluated at run time does not parse (\"3 days ago\", \"in 2 "
            + "hours\" do).",
        example: .situation("a `$relativeTime` value bound at run time to \"soon\""))
}

extension DiagnosticCode.Regex {
    public static let invalid = DiagnosticCode(
        "regex.invalid",
        meaning: "A regular expression PCRE2 does not compile; the message gives PCRE2's reason and the "
            + "offset in the pattern.",
        example: .predicate("name MATCHES '[z-a]'"))
    public static let matchFailed = DiagnosticCode(
        "regex.match-failed",
        meaning: "PCRE2 failed while matching for a reason other than its budget (out of memory, an "
            + "internal error).",
        example: .situation("PCRE2 cannot allocate its match data"))
}

extension DiagnosticCode.Index {
    public static let unknownClass = DiagnosticCode(
        "index.unknown-class",
        meaning: "An index is requested on a class the database does not have.",
        example: .situation("`engine.createIndex(.sorted, on: \"age\", in: \"Nope\")`"))
    public static let invalidKey = DiagnosticCode(
        "index.invalid-key",
        meaning: "An index is requested on a key path that cannot be indexed (empty).",
        example: .situation("`engine.createIndex(.sorted, on: FieldPath([]), in: \"Post\")`"))
    public static let unknownField = DiagnosticCode(
        "index.unknown-field",
        meaning: "An index is requested on a field no object of the class has (usually a misspelling).",
        example: .situation("`engine.createIndex(.sorted, on: \"agee\", in: \"Contact\")`"))
}

extension DiagnosticCode.Limit {
    public static let sparseClass = DiagnosticCode(
        "limit.sparse-class",
        meaning: "A class of the in-memory store would have more cells (fields times objects) than "
            + "`Limits.maxSparseCells` (2^28 by default) and more than 64 per value its objects hold: the "
            + "store keeps a cell for every field of every object, so a class whose objects each bring "
            + "fields of their own would grow quadratically. A data file is refused at the object that "
            + "crosses the limit, a write adding fields is refused whole; keep such data in a SQLite or "
            + "PostgreSQL store.",
        example: .situation("loading a data file of 20,000 objects that each have a field no other has"),
        parseCode: ParseCode.objectTooLarge)
}

extension DiagnosticCatalogue {
    public static let engine = DiagnosticCatalogue([
        .query.unboundVariable, .query.functionArity, .query.invalidLimit, .query.invalidSkip,
        .query.cancelled, .date.relativeTime, .regex.invalid, .regex.matchFailed,
        .index.unknownClass, .index.invalidKey, .index.unknownField, .limit.sparseClass,
    ])
}
