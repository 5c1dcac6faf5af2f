import Logging
import MetricsTestKit
import Quarry
import QuarryObservability
import Testing

import Foundation

/// The engine's observer hooks through swift-log and swift-metrics: nothing unless attached,
/// then every plan choice and finished query (docs/ARCHITECTURE.md#observing-the-engine).
@Suite struct ObservabilityTests {
    static func engine() -> Engine {
        let records = (0..<50).map { i in
            Record(objectId: "p\(i)", fields: [("age", .int(Int64(i))), ("name", .string("n\(i % 7)"))])
        }
        return Engine(database: Database([ClassData(name: "Person", records: records)]))
    }

    static func query(_ text: String) throws -> Query {
        try Dialect.sql.compile(text, className: "Person")
    }

    /// A query that fails when it runs: its class is not in the data.
    static func onNoClass() throws -> Query { try Dialect.sql.compile("age > 1", className: "Nobody") }

    @Test func metricsCountPlanCacheOutcomesAndAccessKinds() throws {
        let engine = Self.engine()
        try engine.createIndex(.ordered, on: FieldPath("age"), in: "Person")
        let metrics = TestMetrics()
        engine.observer = MetricsObserver(factory: metrics)

        _ = try engine.run(Self.query("age = 3"))  // built, index probe
        _ = try engine.run(Self.query("age = 3"))  // reused
        _ = try engine.run(Self.query("age = 4"))  // rebound
        _ = try engine.run(Self.query("name = 'n1'"))  // built, full scan
        #expect(throws: Diagnostic.self) { try engine.run(Self.onNoClass()) }

        func plans(_ cache: String, _ access: String) -> Int64 {
            metrics.counterTotal(label: "quarry_plans_total", dimensions: [("cache", cache), ("access", access)])
        }
        #expect(plans("built", "index-probe") == 1)
        #expect(plans("reused", "index-probe") == 1)
        #expect(plans("rebound", "index-probe") == 1)
        #expect(plans("built", "full-scan") == 1)
        #expect(metrics.counterTotal(label: "quarry_plans_total") == 4)
        #expect(metrics.counterTotal(label: "quarry_queries_total", dimensions: [("outcome", "ok")]) == 4)
        #expect(metrics.counterTotal(label: "quarry_queries_total", dimensions: [("outcome", "error")]) == 1)
        #expect(try metrics.expectTimer("quarry_query_duration_seconds").values.count == 5)
    }

    @Test func nothingIsReportedWithoutAnObserverOrAfterItIsRemoved() throws {
        let engine = Self.engine()
        let metrics = TestMetrics()
        _ = try engine.run(Self.query("age > 3"))
        engine.observer = MetricsObserver(factory: metrics)
        _ = try engine.run(Self.query("age > 3"))
        engine.observer = nil
        _ = try engine.run(Self.query("age > 3"))
        #expect(metrics.counterTotal(label: "quarry_queries_total") == 1)
        #expect(
            metrics.counterTotal(
                label: "quarry_plans_total", dimensions: [("cache", "reused"), ("access", "full-scan")]) == 1)
    }

    @Test func slowQueriesAndFailuresAreLoggedPlansAtDebug() throws {
        let engine = Self.engine()
        let log = LogRecorder()
        var logger = Logger(label: "test") { _ in log }
        logger.logLevel = .debug
        // A threshold of 0 makes every query slow: the test needs no timing.
        engine.observer = LoggingObserver(logger: logger, slowQuerySeconds: 0)
        _ = try engine.run(Self.query("age >= 48"))
        #expect(throws: Diagnostic.self) { try engine.run(Self.onNoClass()) }

        let entries = log.entries
        #expect(
            entries.map(\.message) == [
                "plan chosen", "slow query", "query failed: there is no class named 'Nobody' in the database",
            ])
        #expect(entries.map(\.level) == [.debug, .warning, .error])
        #expect(entries[0].metadata["access"] == "full-scan")
        #expect(entries[0].metadata["cache"] == "built")
        #expect(entries[1].metadata["matches"] == "2")
        #expect(entries[1].metadata["query"] == #"{"age":{"$gte":48}}"#)
        #expect(entries.last?.metadata["code"] == "query.unknown-class")
        #expect(entries.last?.metadata["class"] == "Nobody")
    }

    @Test func fastQueriesAreNotLoggedAndPlansStayQuietAtInfo() throws {
        let engine = Self.engine()
        let log = LogRecorder()
        var logger = Logger(label: "test") { _ in log }
        logger.logLevel = .info
        engine.observer = LoggingObserver(logger: logger, slowQuerySeconds: 3600)
        _ = try engine.run(Self.query("age >= 48"))
        #expect(log.entries.isEmpty)
    }

    @Test func observersFanOutToEach() throws {
        let engine = Self.engine()
        let a = TestMetrics(), b = TestMetrics()
        engine.observer = Observers(MetricsObserver(factory: a), MetricsObserver(prefix: "db", factory: b))
        _ = try engine.run(Self.query("age < 5"))
        #expect(a.counterTotal(label: "quarry_queries_total") == 1)
        #expect(b.counterTotal(label: "db_queries_total") == 1)
    }
}

/// A log handler that keeps what it is given.
final class LogRecorder: LogHandler, @unchecked Sendable {
    struct Entry {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let lock = NSLock()
    private var kept: [Entry] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    var entries: [Entry] { lock.withLock { kept } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let fields = (event.metadata ?? [:]).mapValues { "\($0)" }
        lock.withLock { kept.append(Entry(level: event.level, message: "\(event.message)", metadata: fields)) }
    }
}
