// The front door (docs/API.md#the-front-door): query text of any dialect, compiled against the
// engine's own schema and limits, run by the engine, in one call; one error type, `Diagnostic`,
// from the first byte of the text to the last decoded field.

/// A SQL text template, and where its parameters land in its queries' plan shape (nil when
/// they cannot be placed: its texts' shapes are then found from their queries).
private final class SQLTextTemplate: TextTemplate {
    let template: SQLTemplate
    let shape: TemplateShape?

    init(_ template: SQLTemplate, text: String, skeleton: SQLSkeleton, className: String, profile: Profile) {
        self.template = template
        let variant = SQLSkeleton(template.variantText).flatMap { template.predict(template.variantText, $0) }
        if let own = template.predict(text, skeleton), let variant {
            shape = TemplateShape(
                base: Query(className: className, predicate: own.result, profile: profile), own.parameters,
                variant: Query(className: className, predicate: variant.result, profile: profile),
                variant.parameters)
        } else {
            shape = nil
        }
    }
}

/// A JSON text template, and where its parameters land in its queries' plan shape.
private final class JSONTextTemplate: TextTemplate {
    let template: JSONTemplate
    let shape: TemplateShape?

    init(_ template: JSONTemplate, text: String, skeleton: JSONSkeleton) {
        self.template = template
        let variant = JSONSkeleton(template.variantText).flatMap { template.predict(template.variantText, $0) }
        if let own = template.predict(text, skeleton), let variant {
            shape = TemplateShape(base: own.result, own.parameters, variant: variant.result, variant.parameters)
        } else {
            shape = nil
        }
    }
}

extension Engine {
    /// Compiles query text on a class against this engine: its classes and fields as they
    /// are now (`schema`, so a field an `insert` added is known) and its `limits`.
    ///
    /// - Parameters:
    ///   - arguments: NSPredicate `%@ %K %d …` values, in order (predicate dialect only).
    ///   - profile: the compatibility profile the text is read and run in.
    ///
    /// A SQL text whose skeleton (the text with its literals cut out) was compiled before is
    /// compiled from that skeleton's template, without parsing: the same `Query` for a fraction
    /// of the cost (docs/ARCHITECTURE.md#text-templates).
    public func compile(
        _ text: String, on className: String, dialect: Dialect = .sql, profile: Profile = .exact,
        arguments: [PredicateArgument] = []
    ) throws(Diagnostic) -> Query {
        try compiled(text, on: className, dialect: dialect, profile: profile, arguments: arguments).query
    }

    /// Compiles query text and plans it now (`compile`, then `prepare`). A text compiled from a
    /// template has its plan shape from the template too, so the cached plan of its shape is
    /// found without walking the query (docs/ARCHITECTURE.md#text-templates).
    public func prepare(
        _ text: String, on className: String, dialect: Dialect = .sql, profile: Profile = .exact,
        arguments: [PredicateArgument] = [], variables: Set<String> = []
    ) throws(Diagnostic) -> PreparedQuery {
        let (query, known) = try compiled(
            text, on: className, dialect: dialect, profile: profile, arguments: arguments)
        return try prepare(query, variables: variables, known: known)
    }

    /// `compile`, with the query's plan shape when a template gave it.
    private func compiled(
        _ text: String, on className: String, dialect: Dialect, profile: Profile, arguments: [PredicateArgument]
    ) throws(Diagnostic) -> (query: Query, known: KnownShape?) {
        func full(_ schema: InferredSchema) throws(Diagnostic) -> Query {
            let options = CompileOptions(schema: schema, profile: profile, limits: limits, arguments: arguments)
            return try dialect.compile(text, className: className, options: options)
        }
        guard !className.isEmpty, text.utf8.count <= limits.maxQueryLength else { return (try full(schema), nil) }
        switch dialect {
        case .sql:
            guard let skeleton = SQLSkeleton(text) else { return (try full(schema), nil) }
            let key = TextTemplates.Key(dialect: "sql", className: className, profile: profile, skeleton: skeleton.key)
            return try templated(
                key, full,
                predict: { (t: SQLTextTemplate) in
                    t.template.predict(text, skeleton).map {
                        (Query(className: className, predicate: $0.result, profile: profile), t.shape?.shape($0.values))
                    }
                },
                make: { schema in
                    SQLTemplate.make(text, skeleton: skeleton, className: className, schema: schema, limits: limits).map
                    {
                        SQLTextTemplate($0, text: text, skeleton: skeleton, className: className, profile: profile)
                    }
                })
        case .json:
            guard let skeleton = JSONSkeleton(text) else { return (try full(schema), nil) }
            let key = TextTemplates.Key(dialect: "json", className: className, profile: profile, skeleton: skeleton.key)
            return try templated(
                key, full,
                predict: { (t: JSONTextTemplate) in
                    t.template.predict(text, skeleton).map { ($0.result, t.shape?.shape($0.values)) }
                },
                make: { _ in
                    JSONTemplate.make(text, skeleton: skeleton, className: className, profile: profile, limits: limits)
                        .map { JSONTextTemplate($0, text: text, skeleton: skeleton) }
                })
        case .predicate:
            return (try full(schema), nil)
        }
    }

    /// A text of the skeleton `key` from the first of its templates that predicts it; else
    /// compiled in full, and on the skeleton's second full compile, made a template of.
    private func templated<T: TextTemplate>(
        _ key: TextTemplates.Key, _ full: (InferredSchema) throws(Diagnostic) -> Query,
        predict: (T) -> (Query, KnownShape?)?, make: (InferredSchema) -> T?
    ) throws(Diagnostic) -> (query: Query, known: KnownShape?) {
        let (templates, note) = textTemplates.templates(key, generation: schemaGeneration)
        for case let t as T in templates {
            if let (query, known) = predict(t) {
                textTemplates.hit(shaped: known != nil)
                return (query, known)
            }
        }
        let schema = self.schema
        let query = try full(schema)
        if note, textTemplates.compiled(key, generation: schema.generation), let template = make(schema) {
            textTemplates.add(template, for: key, generation: schema.generation)
        }
        return (query, nil)
    }

    /// The objects of `className` that match a where-clause, in result order.
    ///
    /// ```swift
    /// let engine = Engine(database: try Database(contentsOfFile: "Samples/sample.json"))
    /// let adults = try engine.find("Contact", where: "age > 20 AND address.city = 'Tokyo'")
    /// let ks = try engine.find("Contact", where: "name BEGINSWITH[c] %@", dialect: .predicate, arguments: ["k"])
    /// ```
    ///
    /// For `json` the text may be a whole request body, whose order, paging, keys and includes
    /// apply. `variables` bind NSPredicate `$NAME`s when the query runs.
    public func find(
        _ className: String, where text: String, dialect: Dialect = .sql, profile: Profile = .exact,
        arguments: [PredicateArgument] = [], variables: [String: Value] = [:]
    ) throws(Diagnostic) -> [Record] {
        let (query, known) = try compiled(
            text, on: className, dialect: dialect, profile: profile, arguments: arguments)
        return try run(query, variables: variables, known: known).records
    }

    /// The first object that matches, in result order; nil when none does.
    public func first(
        _ className: String, where text: String, dialect: Dialect = .sql, profile: Profile = .exact,
        arguments: [PredicateArgument] = [], variables: [String: Value] = [:]
    ) throws(Diagnostic) -> Record? {
        let query = try compile(text, on: className, dialect: dialect, profile: profile, arguments: arguments)
        return try run(Self.firstOnly(query), variables: variables).records.first
    }

    /// The number of objects that match; paging does not apply.
    public func count(
        _ className: String, where text: String, dialect: Dialect = .sql, profile: Profile = .exact,
        arguments: [PredicateArgument] = [], variables: [String: Value] = [:]
    ) throws(Diagnostic) -> Int {
        let query = try compile(text, on: className, dialect: dialect, profile: profile, arguments: arguments)
        return try countMatches(query, variables: variables)
    }

    /// The plan of a where-clause (`ExplainReport`); with `analyze`, the query runs and each
    /// step shows the rows it saw and its time.
    public func explain(
        _ className: String, where text: String, dialect: Dialect = .sql, profile: Profile = .exact,
        arguments: [PredicateArgument] = [], variables: [String: Value] = [:], analyze: Bool = false
    ) throws(Diagnostic) -> ExplainReport {
        let query = try compile(text, on: className, dialect: dialect, profile: profile, arguments: arguments)
        return try explain(query, variables: variables, analyze: analyze)
    }

    // MARK: - Into the caller's types

    /// The matching objects decoded into `T` (`ValueDecoder`): from the class `className`, by
    /// default `T.className` for a `StoredClass`, else the type's name.
    ///
    /// ```swift
    /// struct Contact: Decodable { var objectId: String; var name: String; var createdAt: Date? }
    /// let adults = try engine.find(Contact.self, where: "age > 20")
    /// ```
    ///
    /// A field that does not fit `T` is a `data.decode` diagnostic naming the object and the
    /// coding path.
    public func find<T: Decodable>(
        _ type: T.Type, in className: String? = nil, where text: String, dialect: Dialect = .sql,
        profile: Profile = .exact, arguments: [PredicateArgument] = [], variables: [String: Value] = [:]
    ) throws(Diagnostic) -> [T] {
        let name = className ?? storedClassName(of: T.self)
        return try Self.decode(
            T.self,
            try find(
                name, where: text, dialect: dialect, profile: profile,
                arguments: arguments, variables: variables), className: name)
    }

    /// The first matching object decoded into `T`; nil when none matches.
    public func first<T: Decodable>(
        _ type: T.Type, in className: String? = nil, where text: String, dialect: Dialect = .sql,
        profile: Profile = .exact, arguments: [PredicateArgument] = [], variables: [String: Value] = [:]
    ) throws(Diagnostic) -> T? {
        let name = className ?? storedClassName(of: T.self)
        let record = try first(
            name, where: text, dialect: dialect, profile: profile, arguments: arguments, variables: variables)
        return try record.map { r throws(Diagnostic) in try ValueDecoder().decode(T.self, from: r, className: name) }
    }

    // MARK: - Shared with the builder and the async variants

    static func decode<T: Decodable>(_ type: T.Type, _ records: [Record], className: String) throws(Diagnostic) -> [T] {
        let decoder = ValueDecoder()
        var out: [T] = []
        out.reserveCapacity(records.count)
        for r in records { out.append(try decoder.decode(T.self, from: r, className: className)) }
        return out
    }

    /// The query limited to its first result (Parse's `getFirstObject`); a limit of 0 stays.
    static func firstOnly(_ query: Query) -> Query {
        var q = query
        q.limit = Swift.min(q.limit ?? 1, 1)
        q.count = false
        return q
    }

    /// Counts the query's matches: skip and limit do not apply (Parse's `count`).
    func countMatches(_ query: Query, variables: [String: Value]) throws(Diagnostic) -> Int {
        var q = query
        q.count = true
        q.skip = nil
        q.limit = nil
        if case .count(let n) = try run(q, variables: variables) { return n }
        return 0
    }
}
