import QuarryCore

/// Share of rows a leaf is expected to keep, from a column's statistics (uniform between the
/// bounds for ranges, one over the distinct count for equality). Only the order of filters and
/// the choice of access path depend on these.
enum Estimate {
    static func present(_ c: Column) -> Double {
        let s = c.statistics
        return Double(s.typed + s.others) / Double(Swift.max(1, c.rowCount))
    }

    static func equality(_ c: Column) -> Double {
        present(c) / Double(Swift.max(1, c.statistics.distinct.estimate))
    }

    static func nulls(_ c: Column, negated: Bool) -> Double {
        negated ? present(c) : 1 - present(c)
    }

    static func comparison(_ c: Column, _ op: ComparisonOperator, _ v: Value) -> Double {
        switch op {
        case .eq: return equality(c)
        case .ne: return present(c) - equality(c)
        case .lt, .le: return present(c) * fraction(c, below: v)
        case .gt, .ge: return present(c) * (1 - fraction(c, below: v))
        }
    }

    static func between(_ c: Column, _ lo: Value, _ hi: Value) -> Double {
        present(c) * Swift.max(0, fraction(c, below: hi) - fraction(c, below: lo))
    }

    static func prefix(_ p: [UInt8]) -> Double { p.isEmpty ? 1 : Swift.max(0.001, 0.3 / Double(p.count)) }

    /// Where `v` falls between the column's smallest and largest number (0.5 when unknown).
    static func fraction(_ c: Column, below v: Value) -> Double {
        guard let x = number(v), let lo = c.statistics.min.flatMap(number), let hi = c.statistics.max.flatMap(number),
            hi > lo
        else { return 0.5 }
        return Swift.min(1, Swift.max(0, (x - lo) / (hi - lo)))
    }

    private static func number(_ v: Value) -> Double? {
        switch v {
        case .int(let i): return Double(i)
        case .double(let d): return d.isNaN ? nil : d
        case .date(let ms): return Double(ms)
        default: return nil
        }
    }
}
