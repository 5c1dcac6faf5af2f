import QuarryCore

/// The SQL-92 where-clause dialect of Backendless (`name LIKE 'J%' and age > 20`,
/// `updated after '23-Mar-2015'`, `distance(…) < mi(200)`, `PhoneBook[contacts].objectId = 'x'`).
///
/// Each stage is available on its own: `tokens`, `syntaxTree` (the AST with byte ranges),
/// `lower` (AST → IR), and `parse`, which does all three. `print` writes IR back as canonical
/// where-clause text. Errors are `Diagnostic`s whose ranges are UTF-8 byte offsets into the
/// text (render them with `SourceText`).
public enum SQLWhere {
    /// Parses and lowers a where clause into the IR.
    ///
    /// - Parameters:
    ///   - className: the class the clause is evaluated against; with a `schema`, its columns
    ///     are resolved (case-insensitively when the exact name is missing) and checked.
    ///   - schema: enables unknown class/column and type checks and compile-time conversion of
    ///     date literals compared with date columns. Without it only syntax is checked.
    ///   - limits: query length, nesting depth, IN-list size, and the number and depth of
    ///     subqueries (an inverted relation `Parent[rel].col` counts as one).
    public static func parse(
        _ text: String, className: String? = nil, schema: (any Schema)? = nil,
        limits: Limits = .default
    ) throws(Diagnostic) -> Filter {
        try lower(try syntaxTree(text, limits: limits), className: className, schema: schema, limits: limits)
    }

    /// The tokens of a where clause, ending with `.end`.
    public static func tokens(_ text: String, limits: Limits = .default) throws(Diagnostic) -> [SQLToken] {
        try QueryTextScreen.check(text, limits: limits)
        return try SQLLexer.tokens(Array(text.utf8))
    }

    /// The syntax tree of a where clause.
    public static func syntaxTree(_ text: String, limits: Limits = .default) throws(Diagnostic) -> SQLSyntaxTree {
        let tokens = try tokens(text, limits: limits)
        var parser = SQLParser(source: Array(text.utf8), tokens: tokens, limits: limits)
        return SQLSyntaxTree(root: try parser.parseWhereClause(), tokens: tokens)
    }

    /// Lowers a syntax tree into the IR, reporting every semantic error found.
    public static func lower(
        _ tree: SQLSyntaxTree, className: String? = nil, schema: (any Schema)? = nil,
        limits: Limits = .default
    ) throws(Diagnostic) -> Filter {
        try lower(tree, className: className, schema: schema, limits: limits, recording: nil)
    }

    static func lower(
        _ tree: SQLSyntaxTree, className: String?, schema: (any Schema)?, limits: Limits,
        recording parameters: SQLParameterRecorder?
    ) throws(Diagnostic) -> Filter {
        var lowering = SQLLowering(schema: schema, limits: limits)
        lowering.parameters = parameters
        var problems: [Diagnostic] = []
        if let schema, let className, !schema.hasClass(className) {
            var message = "unknown class '\(className)'"
            if let hint = Suggestions.didYouMean(className, among: schema.classNames) { message += "; \(hint)" }
            problems.append(Diagnostic(.query.unknownClass, message))
        }
        let predicate = lowering.lower(tree.root, in: className)
        problems += lowering.diagnostics
        try Diagnostic.throwIfAny(problems)
        return predicate
    }

    /// Canonical where-clause text for the IR, or a `translate.inexpressible` diagnostic naming
    /// the first construct SQL cannot say (NSPredicate or Parse leaf semantics, quantifiers,
    /// regular expressions, case-sensitive LIKE, logical NOT over SQL leaves, …).
    ///
    /// For IR that `parse` produces, `parse(print(ir)) == ir`. Date literals compared with `=`,
    /// `!=`, `IN` or `BETWEEN` read back as dates when a schema types the column as a date.
    public static func print(_ predicate: Filter, limits: Limits = .default) throws(Diagnostic) -> String {
        var printer = SQLPrinter(limits: limits)
        return try printer.print(predicate)
    }
}
