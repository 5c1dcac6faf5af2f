import QuarryCore

/// NSPredicate format strings (Apple's "Predicate Format String Syntax"), on every platform.
///
/// ```swift
/// let p = try PredicateFormat.parse("name BEGINSWITH[c] %@ AND age > %d", arguments: ["jo", 18])
/// let text = try PredicateFormat.print(p)   // name BEGINSWITH[c] "jo" AND age > 18
/// ```
public enum PredicateFormat {
    /// Parses a format string into IR whose leaves have `.predicate` semantics.
    ///
    /// - Parameters:
    ///   - arguments: values for `%@ %K %d …`, in order; their number must match the format.
    ///   - variables: when given, every free `$NAME` must be bound here and is substituted now
    ///     (with located errors); when nil, `$NAME` stays a variable for `Filter.substituting`.
    ///   - className, schema: when both are given, field types known to the schema sharpen
    ///     checks (`ANY age > 3` on a number field is an error) and `key CONTAINS x` on a
    ///     string field becomes a substring test.
    ///   - profile: `exact` accepts the whole language; `parse` and `maxleap` accept only what
    ///     those platforms did; `leancloud` and `backendless` never accepted format strings.
    /// - Throws: a `Diagnostic` with the located errors in `all` (`lex.*`, `syntax.*`, `predicate.*`,
    ///   `argument.*`, `variable.*`, `limit.*`, `profile.unsupported`).
    public static func parse(
        _ format: String, arguments: [PredicateArgument] = [],
        variables: [String: Value]? = nil, className: String? = nil,
        schema: (any Schema)? = nil, profile: Profile = .exact,
        limits: Limits = .default
    ) throws(Diagnostic) -> Filter {
        let bytes = Array(format.utf8)
        let whole = SourceRange(offset: 0, length: bytes.count)
        try QueryTextScreen.check(format, limits: limits)
        if !ProfileRules.acceptsFormatStrings(profile) {
            throw ProfileRules.rejectAll(profile, at: whole)
        }
        if let schema, let className, !schema.hasClass(className) {
            throw Diagnostic(.schema.unknownClass, "the class '\(className)' does not exist")
        }
        var parser = Parser(tokens: try Lexer.tokenize(bytes), bytes: bytes, limits: limits)
        let syntax = try parser.parsePredicate()
        try checkArgumentCount(
            parser.argumentRanges, given: arguments.count, whole: whole,
            quotesPercent: format.contains("'%") || format.contains("\"%"))

        var diagnostics = ProfileRules(profile: profile, arguments: arguments, bytes: bytes).check(syntax)
        var lowering = Lowering(
            bytes: bytes, arguments: arguments, variables: variables, schema: schema,
            className: className, limits: limits, subqueries: parser.subqueryCount)
        let ir = lowering.predicate(syntax)
        diagnostics += lowering.diagnostics
        if diagnostics.isEmpty, let d = ProfileRules.checkNormalForm(ir, profile: profile, at: whole) {
            diagnostics.append(d)
        }
        try Diagnostic.throwIfAny(diagnostics.sorted { ($0.range?.offset ?? 0) < ($1.range?.offset ?? 0) })
        return ir
    }

    private static func checkArgumentCount(
        _ ranges: [SourceRange], given: Int, whole: SourceRange,
        quotesPercent: Bool
    ) throws(Diagnostic) {
        if ranges.count > given {
            throw Diagnostic(
                .argument.missing,
                "argument \(given + 1) is missing: the format uses \(ranges.count) argument\(ranges.count == 1 ? "" : "s") but \(given) \(given == 1 ? "was" : "were") given",
                at: ranges[given])
        }
        if ranges.count < given {
            throw Diagnostic(
                .argument.extra,
                "\(given) arguments were given but the format uses \(ranges.count)",
                at: ranges.last ?? whole,
                notes: quotesPercent ? ["a quoted '%@' is a literal string, not a placeholder"] : [])
        }
    }
}

extension PredicateFormat {
    /// Writes the predicate in canonical format-string form; `parse(print(p)) == p` for every
    /// predicate `parse` produces.
    ///
    /// - Throws: `print.semantics` for leaves with SQL or document semantics,
    ///   `print.inexpressible` for conditions and values the dialect cannot spell (geo, Parse
    ///   `$all`, pointers, subqueries over a `Query`; `printWithArguments` spells the last two).
    public static func print(_ p: Filter) throws(Diagnostic) -> String {
        var printer = Printer(withArguments: false, variablesIn: p)
        return try printer.predicate(p)
    }

    /// Like `print`, but values without a literal spelling (dates, pointers, objects, bytes,
    /// geo points) and inner queries become `%@` arguments, and keys that are not identifiers
    /// become `%K`, so that `parse(format, arguments: arguments)` gives the predicate back.
    public static func printWithArguments(_ p: Filter) throws(Diagnostic) -> (
        format: String, arguments: [PredicateArgument]
    ) {
        var printer = Printer(withArguments: true, variablesIn: p)
        let text = try printer.predicate(p)
        return (text, printer.arguments)
    }
}
