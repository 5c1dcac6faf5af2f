extension Dialect {
    /// Compiles query text of this dialect into a `Query` on `className`.
    ///
    /// For `sql` and `predicate` the text is a where-clause, and the query keeps the default
    /// order, paging and projection. For `json` it is a `where` object or a whole request body,
    /// whose `order`, `limit`, `skip`, `keys`, `excludeKeys`, `include` and `count` fill in the
    /// query too. The query carries `options.profile`.
    ///
    /// ```swift
    /// let q = try Dialect.sql.compile("age > 20 AND address.city = 'Dallas'", className: "Contact")
    /// ```
    ///
    /// - Parameter className: the class the query runs on. An empty name compiles without
    ///   one, for syntax checks; it is never written back by `print`.
    /// - Throws: a `Diagnostic` (the others found are in `all`) located in `text` (UTF-8 byte
    ///   ranges; render with `SourceText`).
    public func compile(
        _ text: String, className: String,
        options: CompileOptions = CompileOptions()
    ) throws(Diagnostic) -> Query {
        let name: String? = className.isEmpty ? nil : className
        switch self {
        case .sql:
            let predicate = try SQLWhere.parse(text, className: name, schema: options.schema, limits: options.limits)
            return Query(className: className, predicate: predicate, profile: options.profile)
        case .predicate:
            let predicate = try PredicateFormat.parse(
                text, arguments: options.arguments, variables: options.variables, className: name,
                schema: options.schema, profile: options.profile, limits: options.limits)
            return Query(className: className, predicate: predicate, profile: options.profile)
        case .json:
            // The decoder checks the class name; with none, decode under a stand-in and clear it.
            var query = try ParseWhere.parse(
                text, className: name ?? "_", profile: options.profile,
                limits: options.limits)
            query.className = className
            return query
        }
    }
}
