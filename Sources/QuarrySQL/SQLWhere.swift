import QuarryCore

/// The SQL-92 where-clause dialect of Backendless (`name LIKE 'J%' and age > 20`,
/// `updated after '23-Mar-2015'`, `distance(…) < mi(200)`, `PhoneBook[contacts].objectId = 'x'`).
///
/// Each stage is available on its own: `tokens`, `syntaxTree` (the AST with byte ranges),
/// `lower` (AST → IR), and `parse`, which does all three. `print` writes IR back as canonical
/// where-clause text. Errors are `Diagnostics` whose ranges are UTF-8 byte offsets into the
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
    public static func parse(_ text: String, className: String? = nil, schema: (any Schema)? = nil,
                             limits: Limits = .default) throws(Diagnostics) -> Filter {
        try lower(try syntaxTree(text, limits: limits), className: className, schema: schema, limits: limits)
    }

    /// The tokens of a where clause, ending with `.end`.
    public static func tokens(_ text: String, limits: Limits = .default) throws(Diagnostics) -> [SQLToken] {
        do throws(Diagnostic) {
            try QueryTextScreen.check(text, limits: limits)
            return try SQLLexer.tokens(Array(text.utf8))
        } catch {
            throw Diagnostics([error])
        }
    }

    /// The syntax tree of a where clause.
    public static func syntaxTree(_ text: String, limits: Limits = .default) throws(Diagnostics) -> SQLSyntaxTree {
        let tokens = try tokens(text, limits: limits)
        var parser = SQLParser(source: Array(text.utf8), tokens: tokens, limits: limits)
        do throws(Diagnostic) {
            return SQLSyntaxTree(root: try parser.parseWhereClause(), tokens: tokens)
        } catch {
            throw Diagnostics([error])
        }
    }

    /// Lowers a syntax tree into the IR, reporting every semantic error found.
    public static func lower(_ tree: SQLSyntaxTree, className: String? = nil, schema: (any Schema)? = nil,
                             limits: Limits = .default) throws(Diagnostics) -> Filter {
        var lowering = SQLLowering(schema: schema, limits: limits)
        var problems: [Diagnostic] = []
        if let schema, let className, !schema.hasClass(className) {
            var message = "unknown class '\(className)'"
            if let hint = Suggestions.didYouMean(className, among: schema.classNames) { message += "; \(hint)" }
            problems.append(Diagnostic("query.unknown-class", message))
        }
        let predicate = lowering.lower(tree.root, in: className)
        problems += lowering.diagnostics
        guard problems.isEmpty else { throw Diagnostics(problems) }
        return predicate
    }

    /// Canonical where-clause text for the IR, or a `translate.inexpressible` diagnostic naming
    /// the first construct SQL cannot say (NSPredicate or Parse leaf semantics, quantifiers,
    /// regular expressions, case-sensitive LIKE, logical NOT over SQL leaves, …).
    ///
    /// For IR that `parse` produces, `parse(print(ir)) == ir`. Date literals compared with `=`,
    /// `!=`, `IN` or `BETWEEN` read back as dates when a schema types the column as a date.
    public static func print(_ predicate: Filter, limits: Limits = .default) throws(Diagnostics) -> String {
        var printer = SQLPrinter(limits: limits)
        do throws(Diagnostic) {
            return try printer.print(predicate)
        } catch {
            throw Diagnostics([error])
        }
    }
}
