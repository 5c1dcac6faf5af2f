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
        Diagnostic("query.unknown-class", "there is no class named '\(name)' in the database")
    }

    /// IR depth allowed: a front-end bounds its own nesting by `maxNestingDepth`, and each
    /// source level becomes at most a predicate and an expression node, plus the leaf itself.
    private var maxDepth: Int { limits.maxNestingDepth * 2 + 8 }

    mutating func check(_ query: Query, subqueryDepth: Int = 0) throws(Diagnostic) {
        guard hasClass(query.className) else { throw Self.unknownClass(query.className) }
        if let skip = query.skip, skip < 0 {
            throw Diagnostic("query.invalid-skip", "skip must be 0 or more, not \(skip)")
        }
        if let limit = query.limit, limit < 0 {
            throw Diagnostic("query.invalid-limit", "limit must be 0 or more, not \(limit)")
        }
        try check(query.predicate, bound: [], depth: 0, subqueryDepth: subqueryDepth)
    }

    mutating func check(_ predicate: Filter, bound: Set<String>, depth: Int, subqueryDepth: Int)
        throws(Diagnostic)
    {
        try checkDepth(depth)
        switch predicate {
        case .constant: return
        case .and(let ps), .or(let ps):
            for p in ps { try check(p, bound: bound, depth: depth + 1, subqueryDepth: subqueryDepth) }
        case .not(let p):
            try check(p, bound: bound, depth: depth + 1, subqueryDepth: subqueryDepth)
        case .leaf(let leaf):
            do throws(Diagnostic) {
                try check(leaf.condition, bound: bound, depth: depth + 1, subqueryDepth: subqueryDepth)
                try checkPattern(leaf.condition)
            } catch {
                throw error.located(at: leaf.range)
            }
        }
    }

    private mutating func check(_ condition: Condition, bound: Set<String>, depth: Int, subqueryDepth: Int)
        throws(Diagnostic)
    {
        func expr(_ e: Expr) throws(Diagnostic) {
            try check(e, bound: bound, depth: depth + 1, subqueryDepth: subqueryDepth)
        }
        switch condition {
        case .compare(let l, _, let r, _), .inCollection(let l, let r, _), .string(let l, _, let r, _),
            .containsAll(let l, let r), .containedBy(let l, let r):
            try expr(l)
            try expr(r)
        case .between(let e, let lower, let upper):
            try expr(e)
            try expr(lower)
            try expr(upper)
        case .isNull(let e), .arraySize(let e, _):
            try expr(e)
        case .quantified(_, let collection, let name, let p):
            try expr(collection)
            try check(p, bound: bound.union([name]), depth: depth + 1, subqueryDepth: subqueryDepth)
        case .inQuery(_, let inner), .select(_, let inner, _):
            try checkInner(inner, subqueryDepth: subqueryDepth + 1)
        case .geo, .relatedTo, .text:
            return
        }
    }

    private mutating func check(_ e: Expr, bound: Set<String>, depth: Int, subqueryDepth: Int) throws(Diagnostic) {
        try checkDepth(depth)
        func sub(_ e: Expr, _ bound: Set<String> = bound) throws(Diagnostic) {
            try check(e, bound: bound, depth: depth + 1, subqueryDepth: subqueryDepth)
        }
        switch e {
        case .literal, .key, .evaluatedObject: return
        case .variable(let name):
            guard bound.contains(name) || variables.contains(name) else {
                throw Diagnostic("query.unbound-variable", "the variable $\(name) is not bound")
            }
        case .member(let base, _), .negate(let base), .aggregate(_, let base), .cast(let base, _):
            try sub(base)
        case .list(let items):
            for item in items { try sub(item) }
        case .arithmetic(_, let l, let r):
            try sub(l)
            try sub(r)
        case .function(let f, let args):
            guard args.count == f.arity else {
                throw Diagnostic("query.function-arity",
                                 "\(f.callName)() takes \(f.arity) argument(s) but was given \(args.count)")
            }
            for arg in args { try sub(arg) }
        case .index(let base, let spec):
            try sub(base)
            if case .at(let position) = spec { try sub(position) }
        case .subquery(let collection, let name, let p):
            try sub(collection)
            try check(p, bound: bound.union([name]), depth: depth + 1, subqueryDepth: subqueryDepth)
        }
    }

    /// An inner query sees the caller's variables only: it is evaluated once, not per object.
    private mutating func checkInner(_ inner: Query, subqueryDepth: Int) throws(Diagnostic) {
        subqueries += 1
        guard subqueries <= limits.maxSubqueries else {
            throw Diagnostic("limit.subqueries", "the query has more than \(limits.maxSubqueries) subqueries")
        }
        guard subqueryDepth <= limits.maxSubqueryDepth else {
            throw Diagnostic("limit.subquery-depth",
                             "subqueries nest deeper than \(limits.maxSubqueryDepth) levels")
        }
        try check(inner, subqueryDepth: subqueryDepth)
    }

    /// A regular expression written as a literal compiles (`regex.invalid` before any row is
    /// read, not on the first row that reaches it).
    private func checkPattern(_ condition: Condition) throws(Diagnostic) {
        guard case .string(_, .matches(let regexOptions), .literal(.string(let pattern)), let options) = condition
        else { return }
        _ = try StringMatcher.regex(pattern, regexOptions, options, limits)
    }

    private func checkDepth(_ depth: Int) throws(Diagnostic) {
        guard depth <= maxDepth else {
            throw Diagnostic("limit.nesting", "the query nests deeper than \(maxDepth) levels")
        }
    }
}
