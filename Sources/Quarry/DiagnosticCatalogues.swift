extension DiagnosticCatalogue {
    /// The catalogues of the library modules (the CLI adds `cli`); docs/DIAGNOSTICS.md lists
    /// their codes.
    public static let library: [DiagnosticCatalogue] = [.core, .data, .sql, .predicate, .parseREST, .engine]
}
