import QuarryCore

/// The checks a query passes before it runs, without running it: what `quarry check` and a
/// server's request validation call, so that check and run agree (docs/DIAGNOSTICS.md).
public enum QueryCheck {
    /// Classes exist (when `schema` is given), every `$variable` is among `variables`,
    /// functions get their arguments, regular expressions compile, and the caps hold. Errors
    /// inside a leaf are located at its source text.
    public static func check(
        _ query: Query, schema: (any Schema)?, variables: Set<String>,
        limits: Limits = .default
    ) throws(Diagnostic) {
        var validator = QueryValidator(
            hasClass: { schema?.hasClass($0) ?? true }, limits: limits,
            variables: variables)
        try validator.check(query)
    }
}
