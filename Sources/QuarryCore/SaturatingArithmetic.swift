/// Arithmetic on client-controlled counts (skips, limits, sizes) that cannot trap: a sum or
/// product past the type's range stays at its bound (docs/SEMANTICS.md, limits), so
/// `skip + limit` with `limit` = Int64.max means "all the rest", never an overflow.
extension FixedWidthInteger {
    public func addingSaturated(_ other: Self) -> Self {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    public func multipliedSaturated(by other: Self) -> Self {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        guard overflow else { return product }
        return (self < 0) == (other < 0) ? .max : .min
    }
}
