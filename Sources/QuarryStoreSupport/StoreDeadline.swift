import QuarryCore

/// A query's time budget (`Limits.deadlineSeconds`) as a store holds the database's own work
/// to it (docs/STORAGE.md#deadlines): counted from the moment the store is asked, read as
/// `QueryBudget` reads it (NaN and negative budgets are spent already, huge ones are a long
/// time), and failing as the engine fails, with `limit.deadline`.
package struct StoreDeadline: Sendable {
    package let instant: ContinuousClock.Instant
    private let seconds: Double

    /// Nil when the limits set no deadline.
    package init?(_ limits: Limits) {
        guard let seconds = limits.deadlineSeconds else { return nil }
        self.seconds = seconds
        let budget = seconds.isNaN ? 0 : min(max(seconds, 0), 1e9)
        instant = ContinuousClock.now.advanced(by: .seconds(budget))
    }

    package var passed: Bool { ContinuousClock.now >= instant }

    /// The time left in whole milliseconds, at least 1 (a database reads 0 as "no limit").
    package var millisecondsLeft: Int {
        let left = ContinuousClock.now.duration(to: instant)
        let ms = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
        return Int(max(1, min(ms, Int64(Int32.max))))
    }

    package var diagnostic: Diagnostic {
        Diagnostic(.limit.deadline, "the query ran out of its time budget of \(seconds) seconds")
    }
}
