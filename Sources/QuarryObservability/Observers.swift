import Quarry

/// Several observers on one engine (an engine holds one): each hears every event, in order.
///
/// ```swift
/// engine.observer = Observers(LoggingObserver(logger: logger), MetricsObserver())
/// ```
public final class Observers: EngineObserver {
    public let observers: [any EngineObserver]

    public init(_ observers: any EngineObserver...) { self.observers = observers }

    public func engine(planned event: PlanEvent) {
        for o in observers { o.engine(planned: event) }
    }

    public func engine(finished event: QueryEvent) {
        for o in observers { o.engine(finished: event) }
    }
}
