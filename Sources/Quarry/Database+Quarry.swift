extension Database {
    /// Loads a data file: `{"Class": [objects…], …}`, an array of objects, `{"results": […]}` or
    /// NDJSON, in Parse REST JSON (docs/SEMANTICS.md#data-files). Objects of the class-less layouts
    /// go into `className` (by default the file's base name).
    public init(contentsOfFile path: String, className: String? = nil) throws(DataFileError) {
        self = try DataFile.load(path: path, className: className)
    }

    /// The objects of `className` that match a where-clause, in result order.
    ///
    /// ```swift
    /// let db = try Database(contentsOfFile: "Samples/sample.json")
    /// let adults = try db.find("Contact", where: "age > 20 AND address.city = 'Dallas'")
    /// ```
    ///
    /// The text is checked against this database's classes and fields unless `options` names
    /// another schema. For `json`, a request body's order, paging and projection apply.
    public func find(
        _ className: String, where text: String, dialect: Dialect = .sql,
        options: CompileOptions = CompileOptions()
    ) throws(Diagnostic) -> [Record] {
        let query = try dialect.compile(text, className: className, options: checked(options))
        return try run(query, limits: options.limits).records
    }

    /// The number of objects of `className` that match a where-clause.
    public func count(
        _ className: String, where text: String, dialect: Dialect = .sql,
        options: CompileOptions = CompileOptions()
    ) throws(Diagnostic) -> Int {
        var query = try dialect.compile(text, className: className, options: checked(options))
        query.count = true
        guard case .count(let n) = try run(query, limits: options.limits) else { return 0 }
        return n
    }

    /// Runs a compiled query with the reference evaluator.
    ///
    /// - Parameter variables: values for `$NAME` variables left in the IR.
    public func run(
        _ query: Query, limits: Limits = .default,
        variables: [String: Value] = [:]
    ) throws(Diagnostic) -> QueryResult {
        return try ReferenceEvaluator(database: self, limits: limits, variables: variables).run(query)
    }

    /// Whether one object of `className` satisfies the predicate; the object need not be
    /// stored (live queries, conditional saves). Its pointers resolve against this database.
    public func matches(
        _ record: Record, className: String, predicate: Filter,
        limits: Limits = .default, variables: [String: Value] = [:]
    ) throws(Diagnostic) -> Bool {
        return try ReferenceEvaluator(database: self, limits: limits, variables: variables)
            .matches(record, className: className, predicate: predicate)
    }

    /// Whether one object of `className` satisfies a where-clause.
    public func matches(
        _ record: Record, className: String, where text: String, dialect: Dialect = .sql,
        options: CompileOptions = CompileOptions()
    ) throws(Diagnostic) -> Bool {
        let query = try dialect.compile(text, className: className, options: checked(options))
        return try matches(record, className: className, predicate: query.predicate, limits: options.limits)
    }

    private func checked(_ options: CompileOptions) -> CompileOptions {
        var options = options
        if options.schema == nil { options.schema = self }
        return options
    }
}
