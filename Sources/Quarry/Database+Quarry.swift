extension Database {
    /// Loads a data file: `{"Class": [objects…], …}`, an array of objects, `{"results": […]}` or
    /// NDJSON, in Parse REST JSON (docs/SEMANTICS.md#data-files). Objects of the class-less layouts
    /// go into `className` (by default the file's base name).
    public init(contentsOfFile path: String, className: String? = nil) throws(DataFileError) {
        self = try DataFile.load(path: path, className: className)
    }

    /// The objects of `className` that match a where-clause, in result order, found by an
    /// engine built over this database for the one query (docs/API.md#the-front-door: to run
    /// many queries, build an `Engine` once and call its `find`).
    ///
    /// The text is checked against this database's classes and fields unless `options` names
    /// another schema. For `json`, a request body's order, paging and projection apply.
    public func find(
        _ className: String, where text: String, dialect: Dialect = .sql,
        options: CompileOptions = CompileOptions()
    ) throws(Diagnostic) -> [Record] {
        let query = try dialect.compile(text, className: className, options: checked(options))
        return try Engine(database: self, limits: options.limits).run(query).records
    }

    /// The number of objects of `className` that match a where-clause (on an engine built
    /// for the one query).
    public func count(
        _ className: String, where text: String, dialect: Dialect = .sql,
        options: CompileOptions = CompileOptions()
    ) throws(Diagnostic) -> Int {
        let query = try dialect.compile(text, className: className, options: checked(options))
        return try Engine(database: self, limits: options.limits).countMatches(query, variables: [:])
    }

    /// Runs a compiled query with the reference evaluator, the oracle the engine is tested
    /// against (slow: every object is evaluated; `Engine.run` is the way to run queries).
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
