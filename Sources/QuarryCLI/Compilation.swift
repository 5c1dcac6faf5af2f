import Quarry

/// Query text to IR with the command line's bindings, failures as `Failure`.
enum Compilation {
    /// - Parameter className: "" when no class is known (no `--class`, no `--data`): names
    ///   are then not checked, and the class never appears in printed text.
    static func compile(
        _ text: String, dialect: Dialect, className: String, schema: (any Schema)?,
        profile: Profile, bindings: BindingOptions
    ) throws(Failure) -> Query {
        try compile(
            text, dialect: dialect, className: className, schema: schema, profile: profile,
            arguments: try bindings.predicateArguments(), variables: try bindings.predicateVariables())
    }

    /// The same with the bindings given as values (none for the shell).
    static func compile(
        _ text: String, dialect: Dialect, className: String, schema: (any Schema)?,
        profile: Profile, arguments: [PredicateArgument] = [], variables: [String: Value]? = nil
    ) throws(Failure) -> Query {
        let options = CompileOptions(schema: schema, profile: profile, arguments: arguments, variables: variables)
        do throws(Diagnostic) {
            return try dialect.compile(text, className: className, options: options)
        } catch {
            throw .query(error, source: text)
        }
    }
}
