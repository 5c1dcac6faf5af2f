import Metrics
import Quarry

/// Counts an engine's plan-cache outcomes and plan kinds, and times its queries, through
/// swift-metrics (docs/ARCHITECTURE.md#observing-the-engine).
///
/// ```swift
/// engine.observer = MetricsObserver()            // the factory MetricsSystem was bootstrapped with
/// engine.observer = MetricsObserver(factory: f)  // or one of your own
/// ```
///
/// Metrics (labels prefixed with `prefix`, `quarry` by default):
/// - `quarry_plans_total{cache=built|reused|rebound, access=full-scan|index-probe|index-order|empty}`
/// - `quarry_queries_total{outcome=ok|error}`
/// - `quarry_query_duration_seconds` (a timer, nanoseconds)
public final class MetricsObserver: EngineObserver {
    private let plans: [String: Counter]
    private let succeeded: Counter
    private let failed: Counter
    private let duration: Metrics.Timer

    public init(prefix: String = "quarry", factory: (any MetricsFactory)? = nil) {
        let factory = factory ?? MetricsSystem.factory
        var plans: [String: Counter] = [:]
        for cache in PlanEvent.CacheOutcome.allCases {
            for access in PlanEvent.Access.allCases {
                plans[Self.key(cache, access)] = Counter(
                    label: "\(prefix)_plans_total",
                    dimensions: [("cache", cache.rawValue), ("access", access.rawValue)], factory: factory)
            }
        }
        self.plans = plans
        succeeded = Counter(label: "\(prefix)_queries_total", dimensions: [("outcome", "ok")], factory: factory)
        failed = Counter(label: "\(prefix)_queries_total", dimensions: [("outcome", "error")], factory: factory)
        duration = Metrics.Timer(label: "\(prefix)_query_duration_seconds", dimensions: [], factory: factory)
    }

    public func engine(planned event: PlanEvent) {
        plans[Self.key(event.cache, event.access)]?.increment()
    }

    public func engine(finished event: QueryEvent) {
        (event.error == nil ? succeeded : failed).increment()
        duration.recordNanoseconds(Int64((event.seconds * 1e9).rounded()))
    }

    private static func key(_ cache: PlanEvent.CacheOutcome, _ access: PlanEvent.Access) -> String {
        cache.rawValue + "/" + access.rawValue
    }
}
