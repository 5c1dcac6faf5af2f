import QuarryCore

/// How `.sql` leaves read the other side of a comparison with a date
/// (docs/SEMANTICS.md#dates-and-time-zones: a string is a Backendless date, UTC when it has no
/// zone; a number is epoch milliseconds).
enum DateCoercion {
    /// The operand to compare with a date: a date for a parseable string, the value itself for
    /// numbers and dates (and other types, which then simply compare unequal). An unparseable
    /// string is an error when the query wrote it, and "cannot compare" when the data holds it.
    static func sqlOperand(_ v: Value, constant: Bool) throws(Diagnostic) -> Value? {
        guard case .string(let s) = v else { return v }
        if let ms = BackendlessDate.parse(s) { return .date(ms) }
        guard constant else { return nil }
        throw Diagnostic(
            .date.unparseable,
            "'\(s)' is not a date: write epoch milliseconds or a date string such as "
                + "'23-Mar-2015', '03/23/2015 14:30:15' or '2015-03-23T14:30:15.250Z'")
    }
}
