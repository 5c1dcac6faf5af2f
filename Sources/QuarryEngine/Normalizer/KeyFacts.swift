import QuarryCore

/// What the data says about the key paths of one class. Some rewrites and plans are valid only
/// for some data (merging `a > 5 AND a < 3` into FALSE needs `a` to reach one value per
/// object); every answer here errs on the side that forbids them.
protocol KeyFacts {
    /// The type bits (`Value.typeBit`) of every value and array element the path may reach;
    /// nil when unknown.
    func reachableTypes(_ path: FieldPath) -> UInt16?
    /// Whether the path reaches at most one value per object (no array or relation on the way).
    func isSingleValued(_ path: FieldPath) -> Bool
}

extension KeyFacts {
    /// Whether the path may reach a date (nil knowledge: yes).
    func mayReachDate(_ path: FieldPath) -> Bool {
        (reachableTypes(path) ?? .max) & Value.date(0).typeBit != 0
    }
}
