import QuarryCore

/// What a `.sql` comparison with a constant accepts beyond plain comparison, through its run-time
/// date coercion (docs/SEMANTICS.md#dates-and-time-zones, the reference evaluator's `sqlCompare`):
/// next to a date, a string is read as a Backendless date and a number as epoch milliseconds.
/// Restated as plain comparisons (which `.predicate` and `.document` leaves make, and which never
/// match across types) a coerced comparison becomes an OR of "twins": `x = 5` is `x == 5 OR x ==
/// date(5 ms)`.
///
/// A string in the data read as a date cannot be restated (no dialect parses data strings), so
/// a date constant next to a field that may hold strings is inexpressible. A string constant
/// that is not a date makes the SQL evaluation fail on a date row (`date.unparseable`); no twin
/// stands for that failure.
enum SQLCoercion {
    /// Why a comparison has no exact plain restatement.
    struct Untranslatable: Error {
        let reason: String
    }

    /// The constant a comparison is with: a value, or a row-independent expression with a date
    /// value (`$relativeTime`, `now()`), whose value is not known before the query runs.
    enum Constant {
        case value(Value)
        case date(Expr)

        var expr: Expr {
            switch self {
            case .value(let v): return .literal(v)
            case .date(let e): return e
            }
        }
    }

    /// `x op_sql y` as `⋁ (x op_i v_i)` of plain comparisons, for x of any of `kinds`. `op` is
    /// not `.ne` (see `equalValues`).
    static func alternatives(_ op: ComparisonOperator, _ y: Constant, kinds: ValueKinds) throws(Untranslatable)
        -> [(ComparisonOperator, Expr)]
    {
        var out: [(ComparisonOperator, Expr)] = [(op, y.expr)]
        switch y {
        case .date(let e):
            if !kinds.isDisjoint(with: [.number, .string]) { throw dateNextToNumbersOrStrings }
            _ = e
        case .value(.date(let ms)):
            if kinds.contains(.string) { throw stringsReadAsDates }
            if kinds.contains(.number) { out.append((op, .literal(.int(ms)))) }
        case .value(.string(let s)):
            if kinds.contains(.date), let ms = BackendlessDate.parse(s) { out.append((op, .literal(.date(ms)))) }
        case .value(let n) where n.numericValue != nil:
            if kinds.contains(.date), let twin = try dateTwin(op, n) { out.append(twin) }
        default:
            break
        }
        return out
    }

    /// The values x equals under `.sql` equality with `y`: `x =_sql y` is `x ∈ equalValues(y)`.
    static func equalValues(_ y: Constant, kinds: ValueKinds) throws(Untranslatable) -> [Expr] {
        try alternatives(.eq, y, kinds: kinds).map(\.1)
    }

    /// Whether `.sql` compares `y` with values of `kinds` without any coercion, so that a plain
    /// comparison restated as a `.sql` leaf keeps its meaning.
    static func isPlain(_ y: Constant, kinds: ValueKinds) -> Bool {
        switch y {
        case .date: return kinds.isDisjoint(with: [.number, .string])
        case .value(.date): return kinds.isDisjoint(with: [.number, .string])
        case .value(.string), .value(.int), .value(.double): return !kinds.contains(.date)
        case .value: return true
        }
    }

    /// The date comparison a date `x` passes exactly when `int(ms of x) op n` does; nil when no
    /// date does.
    private static func dateTwin(_ op: ComparisonOperator, _ n: Value) throws(Untranslatable)
        -> (ComparisonOperator, Expr)?
    {
        if case .int(let i) = n { return (op, .literal(.date(i))) }
        guard case .double(let d) = n else { return nil }
        let inRange = d.isFinite && d > -9.2e18 && d < 9.2e18
        // No millisecond count equals a number outside the range or a fraction.
        if op == .eq || op == .ne { return inRange && d == d.rounded(.down) ? (op, .literal(.date(Int64(d)))) : nil }
        // Beyond ±2^63 (or NaN) every date or none passes; no date literal says "every date".
        guard inRange else {
            throw Untranslatable(
                reason: "a comparison of a field that may hold dates with \(d), "
                    + "which SQL reads as a millisecond count no date can reach")
        }
        if d == d.rounded(.down) { return (op, .literal(.date(Int64(d)))) }
        // A non-integral number lies strictly between two milliseconds.
        let below = Int64(d.rounded(.down)), above = Int64(d.rounded(.up))
        return op == .lt || op == .le ? (.le, .literal(.date(below))) : (.ge, .literal(.date(above)))
    }

    private static let stringsReadAsDates = Untranslatable(
        reason: "SQL reads a string in the data as a date when it is compared with a date, which no other dialect does")
    private static let dateNextToNumbersOrStrings = Untranslatable(
        reason:
            "SQL compares a date with numbers (as milliseconds) and strings (read as dates), which no other dialect does"
    )
}
