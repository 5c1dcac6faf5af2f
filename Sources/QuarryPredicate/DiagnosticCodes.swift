import QuarryCore

// The diagnostic codes only the NSPredicate front-end reports (the shared ones are in QuarryCore's
// catalogue). docs/DIAGNOSTICS.md is generated from the catalogues (`make docs`).

extension DiagnosticCode.Lex {
    public static let invalidEscape = DiagnosticCode(
        "lex.invalid-escape",
        meaning: "A backslash escape in a string that names no character: bad hex digits, a lone "
            + "surrogate, a scalar beyond U+10FFFF.",
        example: .predicate(#"s == '\uZZZZ'"#))
    public static let invalidVariable = DiagnosticCode(
        "lex.invalid-variable",
        meaning: "A '$' with no variable name after it.",
        example: .predicate("$ > 1"))
    public static let invalidArgument = DiagnosticCode(
        "lex.invalid-argument",
        meaning: "A '%' that starts no argument specifier (%@, %K, %d, %i, %u, %x, %f, %g, %e, %%).",
        example: .predicate("a == %q"))
}

extension DiagnosticCode.Syntax {
    public static let reservedWord = DiagnosticCode(
        "syntax.reserved-word",
        meaning: "A reserved word (FIRST, LAST, SIZE, …) used as a key; quote it with # to use it as one.",
        example: .predicate("size > 3"))
    public static let unknownModifier = DiagnosticCode(
        "syntax.unknown-modifier",
        meaning: "A string-option bracket holds a letter other than c, d, n or l, or one twice.",
        example: .predicate("name LIKE[x] 'a'"))
}

extension DiagnosticCode.Predicate {
    public static let modifierNotAllowed = DiagnosticCode(
        "predicate.modifier-not-allowed",
        meaning: "String options ([c], [d], …) on an operator that does not compare strings.",
        example: .predicate("age ==[c] 5"))
    public static let betweenBounds = DiagnosticCode(
        "predicate.between-bounds",
        meaning: "BETWEEN needs a two-element aggregate `{low, high}`.",
        example: .predicate("age BETWEEN {1}"))
    public static let subqueryVariable = DiagnosticCode(
        "predicate.subquery-variable",
        meaning: "The second argument of SUBQUERY is not a `$variable`.",
        example: .predicate("SUBQUERY(items, x, x.price > 1).@count > 0"))
    public static let quantifierOnScalar = DiagnosticCode(
        "predicate.quantifier-on-scalar",
        meaning: "ANY, ALL or NONE applied to a value that cannot be a collection (a literal, or a field "
            + "the schema says holds single values).",
        example: .predicate("ANY 5 > 3"))
    public static let quantifierNotAllowed = DiagnosticCode(
        "predicate.quantifier-not-allowed",
        meaning: "A quantifier on `key IN <inner query>`, which already tests one value.",
        example: .situation("NSPredicate `ANY post IN %@` with an inner query as the argument"))
    public static let keyPathRequired = DiagnosticCode(
        "predicate.key-path-required",
        meaning: "The left side of `IN <inner query>` or `IN SELF` is not a key path.",
        example: .predicate("1 IN SELF"))
    public static let functionArity = DiagnosticCode(
        "predicate.function-arity",
        meaning: "A function, FUNCTION(…) selector or CAST is called with the wrong number of arguments.",
        example: .predicate("sqrt(1, 2) == 1"))
    public static let unknownFunction = DiagnosticCode(
        "predicate.unknown-function",
        meaning: "A function or FUNCTION(…) selector NSPredicate does not define.",
        example: .predicate("frobnicate(x) == 1"))
    public static let functionSelector = DiagnosticCode(
        "predicate.function-selector",
        meaning: "The selector of FUNCTION(…) is not a string literal.",
        example: .predicate("FUNCTION(x, y) == 1"))
    public static let unknownCastType = DiagnosticCode(
        "predicate.unknown-cast-type",
        meaning: "CAST to a class other than NSString, NSNumber or NSDate, or to a non-literal.",
        example: .predicate("CAST(x, 'NSFoo') == 1"))
    public static let notACollection = DiagnosticCode(
        "predicate.not-a-collection",
        meaning: "IN or CONTAINS with a side that cannot be a collection (a number, a boolean).",
        example: .predicate("5 IN 3"))
    public static let typeMismatch = DiagnosticCode(
        "predicate.type-mismatch",
        meaning: "A string operator (BEGINSWITH, MATCHES, …) with an operand that cannot be a string.",
        example: .predicate("name BEGINSWITH 5"))
    public static let unknownAggregate = DiagnosticCode(
        "predicate.unknown-aggregate",
        meaning: "A collection operator other than @count, @sum, @avg, @min and @max.",
        example: .predicate("x.@foo > 1"))
    public static let unsupported = DiagnosticCode(
        "predicate.unsupported",
        meaning: "NSPredicate syntax that has no meaning over records: assignment, UTI-CONFORMS-TO, "
            + "ANYKEY, FETCH.",
        example: .predicate("ANYKEY == 1"))
}

extension DiagnosticCode.Argument {
    public static let missing = DiagnosticCode(
        "argument.missing",
        meaning: "The format string has more placeholders than arguments were given.",
        example: .situation("NSPredicate `a == %@ AND b == %@` with one argument"))
    public static let extra = DiagnosticCode(
        "argument.extra",
        meaning: "More arguments were given than the format string has placeholders (a quoted '%@' is "
            + "a literal, not a placeholder).",
        example: .situation("NSPredicate `a == '%@'` with one argument"))
    public static let typeMismatch = DiagnosticCode(
        "argument.type-mismatch",
        meaning: "An argument whose type the placeholder does not take: a string for %d, a number for "
            + "%K.",
        example: .situation("NSPredicate `a > %d` with the argument \"x\""))
    public static let invalidKeyPath = DiagnosticCode(
        "argument.invalid-key-path",
        meaning: "A %K argument that is not a key path (an empty component, an @ operator).",
        example: .situation("NSPredicate `%K == 1` with the argument \"a..b\""))
    public static let queryMisplaced = DiagnosticCode(
        "argument.query-misplaced",
        meaning: "An inner-query argument anywhere but the right side of `key IN %@`.",
        example: .situation("NSPredicate `a == %@` with an inner query as the argument"))
}

extension DiagnosticCode.Variable {
    public static let unbound = DiagnosticCode(
        "variable.unbound",
        meaning: "Substituting variables left a `$variable` without a value.",
        example: .situation("NSPredicate `x == $y` substituted with no value for y"))
}

extension DiagnosticCode.Profile {
    public static let unsupported = DiagnosticCode(
        "profile.unsupported",
        meaning: "The chosen profile (parse, maxleap, leancloud, backendless) does not accept the "
            + "construct, or NSPredicate strings at all, as its SDK did not.",
        example: .situation("NSPredicate `title CONTAINS 'Daddy'` in the parse profile"))
}

extension DiagnosticCode.Schema {
    public static let unknownClass = DiagnosticCode(
        "schema.unknown-class",
        meaning: "The class an NSPredicate is compiled for does not exist in the schema.",
        example: .situation("compiling `a == 1` for class 'Nope' against a schema without it"))
}

extension DiagnosticCode.Print {
    public static let inexpressible = DiagnosticCode(
        "print.inexpressible",
        meaning: "The query holds a condition, key or value that has no NSPredicate spelling (Parse's "
            + "$all, $select, geo conditions, a key that is not an identifier, …).",
        example: .situation("printing the Parse REST `{\"tags\": {\"$all\": [1]}}` as an NSPredicate"))
    public static let semantics = DiagnosticCode(
        "print.semantics",
        meaning: "A condition with SQL or document null semantics printed as an NSPredicate, whose "
            + "comparisons treat missing and null differently; translate it instead.",
        example: .situation("printing the IR of SQL `a = 1` as an NSPredicate without translating"))
}

extension DiagnosticCatalogue {
    public static let predicate = DiagnosticCatalogue([
        .lex.invalidEscape, .lex.invalidVariable, .lex.invalidArgument,
        .syntax.reservedWord, .syntax.unknownModifier,
        .predicate.modifierNotAllowed, .predicate.betweenBounds, .predicate.subqueryVariable,
        .predicate.quantifierOnScalar, .predicate.quantifierNotAllowed, .predicate.keyPathRequired,
        .predicate.functionArity, .predicate.unknownFunction, .predicate.functionSelector,
        .predicate.unknownCastType, .predicate.notACollection, .predicate.typeMismatch,
        .predicate.unknownAggregate, .predicate.unsupported,
        .argument.missing, .argument.extra, .argument.typeMismatch, .argument.invalidKeyPath,
        .argument.queryMisplaced,
        .variable.unbound, .profile.unsupported, .schema.unknownClass,
        .print.inexpressible, .print.semantics,
    ])
}
