import QuarryCore

/// A query's time budget (`Limits.deadlineSeconds`) as a store holds the database's own work
/// to it (docs/STORAGE.md#deadlines): counted from the moment the store is asked, read as
/// the engine's `QueryBudget` reads it (`Limits.deadlineFromNow`), and failing as the engine
/// fails, with `limit.deadline`.
package struct StoreDeadline: Sendable {
    package let instant: ContinuousClock.Instant
    private let limits: Limits

    /// Nil when the limits set no deadline.
    package init?(_ limits: Limits) {
        guard let instant = limits.deadlineFromNow() else { return nil }
        self.instant = instant
        self.limits = limits
    }

    package var passed: Bool { ContinuousClock.now >= instant }

    /// The error of a read past the deadline, made only then (every read holds a deadline).
    package var diagnostic: Diagnostic { limits.deadlineExceeded }

    /// The time left in whole milliseconds, at least 1 (a database reads 0 as "no limit").
    package var millisecondsLeft: Int {
        let left = ContinuousClock.now.duration(to: instant)
        let ms = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
        return Int(max(1, min(ms, Int64(Int32.max))))
    }
}
