import QuarryCore

/// Checks made once before a query runs, so that an error does not depend on which rows
/// happen to reach the faulty part: classes exist, every `$variable` is bound, functions get
/// their number of arguments, regular expressions compile, and nesting and inner queries stay
/// within the limits. An error found inside a leaf is located at the leaf's source text.
struct QueryValidator {
    /// Whether a class exists (always true when no schema is known).
    let hasClass: (String) -> Bool
    let limits: Limits
    /// The caller's variables; quantifiers and SUBQUERY bind more below them.
    let variables: Set<String>
    /// Where the patterns it compiles are kept, when planning follows (the plan's leaves then
    /// take them from there instead of compiling them again).
    var regexes: PlanningMemo?
    private var subqueries = 0

    init(source: any RecordSource, limits: Limits, variables: Set<String>) {
        self.init(hasClass: source.hasClass, limits: limits, variables: variables)
    }

    init(hasClass: @escaping (String) -> Bool, limits: Limits, variables: Set<String>) {
        self.hasClass = hasClass
        self.limits = limits
        self.variables = variables
    }

    static func unknownClass(_ name: String) -> Diagnostic {
        Diagnostic(.query.unknownClass, "there is no class named '\(name)' in the database")
    }

    /// IR depth allowed: a front-end bounds its own nesting by `maxNestingDepth`, and each
    /// source level becomes at most a predicate and an expression node, plus the leaf itself.
    private var maxDepth: Int { limits.maxNestingDepth * 2 + 8 }

    mutating func check(_ query: Query, subqueryDepth: Int = 0) throws(Diagnostic) {
        guard hasClass(query.className) else { throw Self.unknownClass(query.className) }
        if let skip = query.skip, skip < 0 {
            throw Diagnostic(.query.invalidSkip, "skip must be 0 or more, not \(skip)")
        }
        if let limit = query.limit, limit < 0 {
            throw Diagnostic(.query.invalidLimit, "limit must be 0 or more, not \(limit)")
        }
        try check(query.predicate, subqueryDepth: subqueryDepth)
    }

    /// Depth is counted from the predicate of the innermost query, as `IRContext.depth` does:
    /// each inner query is checked on its own.
    mutating func check(_ predicate: Filter, subqueryDepth: Int = 0) throws(Diagnostic) {
        // The leaf being checked (nodes come in pre-order), whose text locates what is found in it.
        var leafRange: SourceRange?
        // Most predicates test keys against literals: no variable, function or inner query to
        // check, and no node deeper than a list's items below the deepest leaf. Unless that
        // could pass the depth limit, only their patterns are left, leaf by leaf in order.
        if predicate.onlyKeysAndConstants, predicate.height + 3 <= maxDepth {
            try predicate.forEachLeaf { (leaf) throws(Diagnostic) in
                leafRange = leaf.range ?? leafRange
                do throws(Diagnostic) {
                    try checkPattern(leaf.condition)
                } catch {
                    throw error.located(at: leafRange)
                }
            }
            return
        }
        try IRNode.filter(predicate).forEach(innerQueries: true) { (node, context) throws(Diagnostic) in
            do throws(Diagnostic) {
                switch node {
                case .filter:
                    try checkDepth(context.depth)
                case .expr(let e):
                    try checkDepth(context.depth)
                    try check(e, bound: context.bound)
                case .query(let inner):
                    try checkInner(inner, subqueryDepth: subqueryDepth + 1)
                    return false
                case .leaf(let leaf):
                    leafRange = leaf.range ?? leafRange
                    try checkPattern(leaf.condition)
                case .condition:
                    break
                }
            } catch {
                if case .filter = node { throw error }
                throw error.located(at: leafRange)
            }
            return true
        }
    }

    /// What one expression needs of its own: its variable bound, its number of arguments.
    private func check(_ e: Expr, bound: Set<String>) throws(Diagnostic) {
        switch e {
        case .variable(let name):
            guard bound.contains(name) || variables.contains(name) else {
                throw Diagnostic(.query.unboundVariable, "the variable $\(name) is not bound")
            }
        case .function(let f, let args):
            guard args.count == f.arity else {
                throw Diagnostic(
                    .query.functionArity,
                    "\(f.callName)() takes \(f.arity) argument(s) but was given \(args.count)")
            }
        default:
            break
        }
    }

    /// An inner query sees the caller's variables only: it is evaluated once, not per object.
    private mutating func checkInner(_ inner: Query, subqueryDepth: Int) throws(Diagnostic) {
        subqueries += 1
        guard subqueries <= limits.maxSubqueries else {
            throw Diagnostic(.limit.subqueries, "the query has more than \(limits.maxSubqueries) subqueries")
        }
        guard subqueryDepth <= limits.maxSubqueryDepth else {
            throw Diagnostic(
                .limit.subqueryDepth,
                "subqueries nest deeper than \(limits.maxSubqueryDepth) levels")
        }
        try check(inner, subqueryDepth: subqueryDepth)
    }

    /// A regular expression written as a literal compiles (`regex.invalid` before any row is
    /// read, not on the first row that reaches it).
    private func checkPattern(_ condition: Condition) throws(Diagnostic) {
        guard case .string(_, .matches(let regexOptions), .literal(.string(let pattern)), let options) = condition
        else { return }
        if let regexes {
            _ = try regexes.regex(pattern, regexOptions, options, limits)
        } else {
            _ = try StringMatcher.regex(pattern, regexOptions, options, limits)
        }
    }

    private func checkDepth(_ depth: Int) throws(Diagnostic) {
        guard depth <= maxDepth else {
            throw Diagnostic(.limit.nesting, "the query nests deeper than \(maxDepth) levels")
        }
    }
}
