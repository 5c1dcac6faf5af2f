import Foundation
import QuarryCore

/// What an engine tells an attached observer: each plan it chooses and each query it finishes
/// (docs/ARCHITECTURE.md#observing-the-engine). Nothing is reported, and nothing measured,
/// while no observer is attached. Calls come on the thread that runs the query; keep them
/// cheap (count, log), never query the engine from inside one.
public protocol EngineObserver: AnyObject, Sendable {
    func engine(planned event: PlanEvent)
    func engine(finished event: QueryEvent)
}

/// A plan the engine chose for a query (the top-level query or an inner one).
public struct PlanEvent: Sendable {
    /// How the plan was had: from the plan cache or built.
    public enum CacheOutcome: String, Sendable, CaseIterable {
        /// A shape not in the cache (or a query with no cacheable shape): planned from scratch.
        case built
        /// The same shape with the same literals: the cached plan as it was.
        case reused
        /// The same shape with other literals: checked and planned again from its literals.
        case rebound
    }

    /// Where the plan's candidate rows come from.
    public enum Access: String, Sendable, CaseIterable {
        /// Every row of the class.
        case fullScan = "full-scan"
        /// Rows looked up in secondary indexes.
        case indexProbe = "index-probe"
        /// An ordered index walked in the query's order.
        case indexOrder = "index-order"
        /// No row at all: the predicate is FALSE.
        case empty
    }

    public var query: Query
    public var cache: CacheOutcome
    public var access: Access
    /// EXPLAIN's words for the row source: `full scan`, `index range on age (ordered)`…
    public var source: String
    /// The rows the planner expects the source to yield.
    public var estimatedRows: Int
}

/// A query the engine finished (its rows found; records are built as the caller reads them).
public struct QueryEvent: Sendable {
    public var query: Query
    /// Wall time from the call to the rows found, in seconds.
    public var seconds: Double
    /// The number of matches (the count for a count query), or nil when the query failed.
    public var matches: Int?
    /// The diagnostic the query failed with.
    public var error: Diagnostic?
}

/// The engine's observer, behind a lock so that attaching one never races with queries.
final class ObserverSlot: @unchecked Sendable {
    private let lock = NSLock()
    private var current: (any EngineObserver)?

    var observer: (any EngineObserver)? {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
    }
}

extension Engine {
    /// Receives each plan choice and each finished query; nil (the default) reports nothing.
    /// `QuarryObservability` adapts it to swift-log and swift-metrics.
    public var observer: (any EngineObserver)? {
        get { observation.observer }
        set { observation.observer = newValue }
    }

}

extension Replica {
    /// Reports a plan, and how the plan cache gave it, to the observer (with the query run:
    /// a plan may read other literals from the execution than those it was made for).
    func report(_ plan: Plan, _ query: Query, _ cache: PlanEvent.CacheOutcome, to observer: any EngineObserver) {
        let access: PlanEvent.Access
        switch plan.source {
        case is FullScan: access = .fullScan
        case is IndexOrderSource: access = .indexOrder
        case is EmptySource: access = .empty
        default: access = .indexProbe
        }
        observer.engine(
            planned: PlanEvent(
                query: query, cache: cache, access: access, source: plan.source.label,
                estimatedRows: plan.source.estimatedRows))
    }

    /// Runs `body` and reports the query's time and matches (or its error) to the observer.
    func observing(
        _ query: Query, _ observer: any EngineObserver, _ body: () throws(Diagnostic) -> RowsOrCount
    ) throws(Diagnostic) -> RowsOrCount {
        let start = ContinuousClock.now
        let seconds = { () -> Double in
            let d = ContinuousClock.now - start
            return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
        }
        do throws(Diagnostic) {
            let result = try body()
            let matches: Int
            switch result {
            case .count(let n): matches = n
            case .rows(let rows, _, _): matches = rows.count
            }
            observer.engine(finished: QueryEvent(query: query, seconds: seconds(), matches: matches, error: nil))
            return result
        } catch {
            observer.engine(finished: QueryEvent(query: query, seconds: seconds(), matches: nil, error: error))
            throw error
        }
    }
}
