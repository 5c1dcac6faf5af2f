import Logging
import Quarry

/// Logs an engine's slow queries and its plan choices through swift-log
/// (docs/ARCHITECTURE.md#observing-the-engine).
///
/// ```swift
/// engine.observer = LoggingObserver(logger: Logger(label: "quarry"), slowQuerySeconds: 0.05)
/// ```
///
/// A query that takes `slowQuerySeconds` or longer is logged at `slowQueryLevel` (warning by
/// default) with its Parse REST JSON form, time and match count; a failed query at `error`; each
/// plan choice at `planLevel` (debug by default, so a logger at info level stays quiet).
public final class LoggingObserver: EngineObserver {
    public let logger: Logger
    public let slowQuerySeconds: Double
    public let slowQueryLevel: Logger.Level
    public let planLevel: Logger.Level

    public init(
        logger: Logger, slowQuerySeconds: Double = 0.1, slowQueryLevel: Logger.Level = .warning,
        planLevel: Logger.Level = .debug
    ) {
        self.logger = logger
        self.slowQuerySeconds = slowQuerySeconds
        self.slowQueryLevel = slowQueryLevel
        self.planLevel = planLevel
    }

    public func engine(planned event: PlanEvent) {
        logger.log(
            level: planLevel, "plan chosen",
            metadata: [
                "class": "\(event.query.className)", "query": "\(Self.text(event.query))",
                "cache": "\(event.cache.rawValue)", "access": "\(event.access.rawValue)",
                "source": "\(event.source)", "estimated_rows": "\(event.estimatedRows)",
            ])
    }

    public func engine(finished event: QueryEvent) {
        var metadata: Logger.Metadata = [
            "class": "\(event.query.className)", "query": "\(Self.text(event.query))",
            "ms": "\(Self.millis(event.seconds))",
        ]
        if let error = event.error {
            metadata["code"] = "\(error.code)"
            logger.error("query failed: \(error.message)", metadata: metadata)
            return
        }
        guard event.seconds >= slowQuerySeconds else { return }
        metadata["matches"] = "\(event.matches ?? 0)"
        logger.log(level: slowQueryLevel, "slow query", metadata: metadata)
    }

    /// The query as a Parse REST request body; the class alone when JSON cannot write it.
    static func text(_ query: Query) -> String {
        (try? Dialect.json.print(query)) ?? "(a query on \(query.className))"
    }

    private static func millis(_ seconds: Double) -> String {
        String(Double((seconds * 1e5).rounded()) / 100)
    }
}
