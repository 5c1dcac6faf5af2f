extension Dialect {
    /// The query written in this dialect: its canonical text.
    ///
    /// `sql` and `predicate` write the where-clause; a query that also carries order, paging,
    /// keys, includes or a count cannot be written in them and gets a `translate.inexpressible`
    /// diagnostic naming those parameters. `json` writes the `where` object, or the whole
    /// request body when any of those parameters is set.
    ///
    /// - Parameter schema: lets a test whose null and array rules differ between dialects
    ///   translate when the schema shows the field holds single values (json).
    public func print(
        _ query: Query, schema: (any Schema)? = nil,
        limits: Limits = .default
    ) throws(Diagnostic) -> String {
        switch self {
        case .sql, .predicate:
            let extra = Self.requestParameters(of: query)
            guard extra.isEmpty else {
                throw Diagnostic(
                    .translate.inexpressible,
                    "a \(self) where-clause cannot hold the query's \(Self.list(extra)); only the json dialect writes them"
                )
            }
            return try print(query.predicate, limits: limits)
        case .json:
            return try ParseWhere.print(query, schema: schema)
        }
    }

    /// A predicate written in this dialect, or a `translate.inexpressible` diagnostic naming the
    /// first construct the dialect cannot say.
    public func print(
        _ predicate: Filter, className: String = "", schema: (any Schema)? = nil,
        limits: Limits = .default
    ) throws(Diagnostic) -> String {
        switch self {
        case .sql: return try SQLWhere.print(predicate, limits: limits)
        case .predicate: return try PredicateFormat.print(predicate)
        case .json: return try ParseWhere.print(Query(className: className, predicate: predicate), schema: schema)
        }
    }

    /// Compiles `text` in this dialect, restates it in `target`'s null, array and type rules
    /// (`SemanticsConversion`: same results, or `translate.inexpressible`) and prints it.
    /// `options.schema` tells what the fields hold. Without it, a field is taken to hold a
    /// single value of the type it is compared with (`FieldAssumptions`, what the query's author
    /// usually means); `exact` assumes nothing instead, for a longer text that keeps the results
    /// on any data.
    ///
    /// ```swift
    /// try Dialect.sql.translate("name LIKE 'J%'", to: .predicate)               // name LIKE[c] "J*"
    /// try Dialect.sql.translate("name LIKE 'J%'", to: .predicate, exact: true)  // ANY name LIKE[c] "J*"
    /// ```
    public func translate(
        _ text: String, to target: Dialect, className: String = "",
        options: CompileOptions = CompileOptions(), exact: Bool = false
    ) throws(Diagnostic) -> String {
        let query = try compile(text, className: className, options: options)
        let assumptions = exact || options.schema != nil ? nil : FieldAssumptions(query)
        let converted = try SemanticsConversion.convert(
            query, to: target.semantics, schema: options.schema,
            assumptions: assumptions, limits: options.limits)
        return try target.printTranslation(converted, schema: options.schema, limits: options.limits)
    }

    /// A query converted to this dialect's semantics (`SemanticsConversion`), printed: a
    /// construct the dialect's text has no spelling for (an inner query or a geo test in
    /// NSPredicate, an array size in SQL) is a `translate.inexpressible` diagnostic.
    public func printTranslation(
        _ converted: Query, schema: (any Schema)? = nil,
        limits: Limits = .default
    ) throws(Diagnostic) -> String {
        do {
            return try print(converted, schema: schema, limits: limits)
        } catch {
            try Diagnostic.throwIfAny(
                error.all.map { d in
                    var refusal = d
                    refusal.related = []
                    if d.diagnosticCode == .print.inexpressible { refusal.diagnosticCode = .translate.inexpressible }
                    return refusal
                })
            throw error
        }
    }

    /// The request-body parameters (beyond `where`) a query sets, by their Parse REST names.
    static func requestParameters(of query: Query) -> [String] {
        var names: [String] = []
        if !query.order.isEmpty { names.append("order") }
        if query.skip != nil { names.append("skip") }
        if query.limit != nil { names.append("limit") }
        if query.keys != nil { names.append("keys") }
        if !query.excludeKeys.isEmpty { names.append("excludeKeys") }
        if !query.includes.isEmpty { names.append("include") }
        if query.count { names.append("count") }
        return names
    }

    private static func list(_ names: [String]) -> String {
        names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }
}
